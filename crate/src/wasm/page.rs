//! What the playground page needs beyond the per-area bindings: today, public paths to those
//! bindings, so that the browser tests of the page's API (`crate/tests/web_page.rs`) can call
//! exactly the functions the page calls. Each area's module stays private to `wasm`.

pub use super::valid::{link, validate};
pub use super::front::{format, opcodes, parse};
pub use super::agal::agal_export;
