//! Textures and sampling: formats, mip chains, targets, sampler state, and the exact sampling
//! rules of softpipe (`oracle/softpipe-tex/README.md`): LOD per quad, filtering, wrapping.
