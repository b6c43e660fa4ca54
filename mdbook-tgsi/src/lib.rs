//! `mdbook-tgsi`: an mdBook preprocessor that turns ```tgsi code blocks and `{{#tgsi FILE}}`
//! lines into live `<tgsi-shader>` widgets, checks every shader with the TGSI Playground's
//! engine (a shader with an error fails the build, at the book's file and line), and puts the
//! widget's files into the book. README.md says how to use it.

pub mod assets;
pub mod book;
pub mod chapter;
pub mod check;
pub mod highlight;
pub mod html;
pub mod options;
pub mod report;
mod runtime_files;
pub mod scan;
