//! The wasm API the playground page calls, gathered in one place: the browser tests of the page
//! (`crate/tests/web/page.rs`) call exactly these functions. Each lives in its area's file.

pub use super::agal::agal_export;
pub use super::diff::compare_shaders;
pub use super::exec::exec_quad;
pub use super::front::{builtin_layout, describe, format, opcodes, parse, vocabulary};
pub use super::inspect::probe_frame_js;
pub use super::reference::{reference_lanes, reference_texture_lanes};
pub use super::render::{render, render_page};
pub use super::stages::{compute, geometry_primitives};
pub use super::valid::{link, validate};
