//! Textures and sampling: formats, mip chains, targets, sampler state, and the exact sampling
//! rules of softpipe (docs/textures.md "How a sample is computed"): LOD per quad, filtering, wrapping.
//!
//! * [`format`] texel formats and the tgsi.rst component-mapping table
//! * [`image`] texture storage (targets, levels, layers, faces; box-filter mip generation)
//! * [`sampler`] sampler and view state, [`TextureUnit`]
//! * [`lod`], [`wrap`], [`filter`], [`cube`], [`shadow`] the sampling rules
//! * [`sample`] quad sampling (TEX family; [`one_level`] its common 2-D case), [`fetch`] texel
//!   fetch and size queries
//! * [`desc`] JSON texture descriptions and image files, [`trace`] what a sample did

pub mod bind;
pub mod cube;
pub mod desc;
pub mod desc_image;
pub mod fetch;
pub mod filter;
pub mod format;
pub mod image;
pub mod lod;
#[cfg(feature = "fast-sampling")]
pub mod one_level;
pub mod sample;
pub mod sampler;
pub mod shadow;
pub mod trace;
pub mod wrap;

pub use format::Format;
pub use image::{Dim, Texture};
pub use sample::{sample_quad, Control, Request};
pub use sampler::{SamplerState, TextureUnit, ViewState};
