//! The static pages at `/reference/` (placeholder until the generator lands).
