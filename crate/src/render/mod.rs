//! The render pipeline: vertex stage, primitive assembly, clipping, rasterization into 2x2
//! quads, interpolation, fragment stage, framebuffer.
