//! The render pipeline: vertex stage, primitive assembly, clipping, rasterization into 2x2
//! quads, interpolation, fragment stage, framebuffer; built-in meshes and vertices files (see
//! docs/render.md).
//!
//! Coordinates: window row 0 is the bottom row of the picture (as in the softpipe corpus, which
//! renders into a GL framebuffer object); files are written top row first.

#[cfg(not(target_arch = "wasm32"))]
pub mod bands;
pub mod clip;
pub mod framebuffer;
pub mod geometry;
pub mod image_io;
pub mod inspect;
pub mod interp;
pub mod job;
pub mod link;
pub mod mesh;
pub mod options;
pub mod pipeline;
pub mod quads;
pub mod raster;
pub mod setup;
pub mod shaders;
pub mod stage;
pub mod uniforms;
#[cfg(feature = "vertices")]
pub mod vertices;
pub mod watch;

pub use framebuffer::Framebuffer;
pub use mesh::Mesh;
pub use pipeline::{draw, DrawConfig, DrawStats};
pub use stage::{FragmentStage, FsInterface, QuadBatch, QuadOutputs, VertexStage, VsInterface};
