//! The interpreter's texture hooks answered by the texture stage's [`Bindings`]. The impl lives
//! here, above `texture`, so that `texture` never imports `exec` (layering: see ARCHITECTURE.md).

use super::io::{samples_quad_by_quad, SampleRequest, TextureHooks};
use crate::ir::TextureTarget;
use crate::texture::bind::Bindings;

impl TextureHooks for Bindings {
    fn get_samples(&mut self, r: &SampleRequest) -> [[f32; 4]; 4] {
        let watched = self.watch_quad == Some(r.quad);
        // Record this one call, keeping whatever recording the caller runs.
        let saved = if watched {
            let saved = (self.trace.take(), self.trace_limit);
            self.record_traces(1);
            Some(saved)
        } else {
            None
        };
        // The interpreter already places every argument where softpipe reads it.
        let rgba = self.sample(r.sview, r.sampler, &r.request);
        if let Some((trace, limit)) = saved {
            self.watched = self.trace.take().and_then(|mut t| t.pop());
            self.trace = trace;
            self.trace_limit = limit;
        }
        rgba
    }

    fn get_samples_batch(&mut self, requests: &[SampleRequest], out: &mut [[[f32; 4]; 4]]) {
        if self.watch_quad.is_some() || self.recording() {
            // A trace records quad by quad.
            return samples_quad_by_quad(self, requests, out);
        }
        // One prepared unit for each run of quads naming the same view and sampler (usually
        // the whole batch: only an indirect SAMP/SVIEW index can change between quads).
        let mut current = None;
        for (r, o) in requests.iter().zip(out.iter_mut()) {
            let units = (r.sview, r.sampler);
            if !matches!(&current, Some((u, _)) if *u == units) {
                current = Some((units, self.prepare(r.sview, r.sampler)));
            }
            *o = match current.as_mut().and_then(|(_, p)| p.as_mut()) {
                Some(prepared) => prepared.sample(&r.request, None),
                None => [[0.0; 4]; 4],
            };
        }
    }

    fn watch_quad(&mut self, quad: Option<usize>) {
        self.watch_quad = quad;
        self.watched = None;
    }

    fn watched_sample(&mut self) -> Option<crate::texture::trace::SampleTrace> {
        self.watched.take()
    }

    fn get_dims(&mut self, sview: u32, level: i32) -> [i32; 4] {
        Bindings::get_dims(self, sview, level)
    }

    fn get_texel(
        &mut self,
        sview: u32,
        i: [i32; 4],
        j: [i32; 4],
        k: [i32; 4],
        lod: [i32; 4],
        offsets: [i8; 3],
    ) -> [[u32; 4]; 4] {
        Bindings::get_texel(self, sview, i, j, k, lod, offsets)
    }

    fn query_lod(
        &mut self,
        sview: u32,
        sampler: u32,
        _target: TextureTarget,
        coords: [[f32; 4]; 5],
    ) -> [[f32; 4]; 2] {
        Bindings::query_lod(self, sview, sampler, coords)
    }

    fn sample_count(&mut self, sview: u32) -> u32 {
        Bindings::sample_count(self, sview)
    }

    fn sample_position(&mut self, _sview: u32, index: i32) -> [f32; 4] {
        Bindings::sample_position(self, index)
    }
}
