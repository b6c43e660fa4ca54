//! The texture units a shader run sees, answering the interpreter's sampler calls
//! (tgsi_exec.h `struct tgsi_sampler`: `get_samples`, `get_dims`, `get_texel`, `query_lod`).
//!
//! Units are indexed like TGSI's SVIEW/SAMP registers. TEX-style opcodes use one index for both
//! (`SAMP[n]` names view n and sampler n, as tgsi_exec); the SAMPLE family names them
//! separately, so the sampler state may come from another unit. An index without a bound
//! texture samples as zeros and reports size 0, like softpipe with no view set.

use std::collections::BTreeMap;

use super::fetch;
use super::sample::{self, Request};
use super::sampler::{SamplerState, TextureUnit};
use super::trace::SampleTrace;

/// All bound texture units, plus an optional trace of the sampling calls.
#[derive(Clone, Debug, Default)]
pub struct Bindings {
    pub units: BTreeMap<u32, TextureUnit>,
    /// When `Some`, every filtered sample appends what it did (for the teaching views).
    pub trace: Option<Vec<SampleTrace>>,
    /// Upper bound on recorded traces, so a long loop cannot exhaust memory.
    pub trace_limit: usize,
    /// Trace mode: the quad of the batch whose sampling is recorded …
    pub watch_quad: Option<usize>,
    /// … and what its last sampling call did.
    pub watched: Option<SampleTrace>,
}

impl Bindings {
    pub fn new() -> Bindings {
        Bindings {
            units: BTreeMap::new(),
            trace: None,
            trace_limit: 256,
            watch_quad: None,
            watched: None,
        }
    }

    pub fn bind(&mut self, unit: u32, texture: TextureUnit) {
        self.units.insert(unit, texture);
    }

    /// Starts recording traces (clears earlier ones).
    pub fn record_traces(&mut self, limit: usize) {
        self.trace = Some(Vec::new());
        self.trace_limit = limit;
    }

    fn sampler_state(&self, view: &TextureUnit, sview: u32, sampler: u32) -> SamplerState {
        if sampler == sview {
            return view.sampler;
        }
        let mut s = self.units.get(&sampler).map(|u| u.sampler).unwrap_or(view.sampler);
        // RECT views always take texel coordinates, whichever sampler is used
        s.normalized_coords = view.sampler.normalized_coords;
        s
    }

    /// Filtered samples for a quad: `rgba[channel][lane]`. The request's `coords` are s, t,
    /// r, c0, c1 as tgsi_exec passes them; a gather's `control` names its component
    /// ([`sample::gather_component`]).
    pub fn sample(&mut self, sview: u32, sampler: u32, req: &Request) -> [[f32; 4]; 4] {
        let recording = self.recording();
        let Some(mut prepared) = self.prepare(sview, sampler) else {
            return [[0.0; 4]; 4];
        };
        if recording {
            let mut tr = SampleTrace::default();
            let out = prepared.sample(req, Some(&mut tr));
            if let Some(t) = self.trace.as_mut() {
                t.push(tr);
            }
            out
        } else {
            prepared.sample(req, None)
        }
    }

    /// Whether filtered samples are being recorded now ([`Bindings::record_traces`], until its
    /// limit).
    pub fn recording(&self) -> bool {
        self.trace.as_ref().is_some_and(|t| t.len() < self.trace_limit)
    }

    /// View `sview` with the sampler state of `sampler`, ready to sample quads from; `None`
    /// when no texture is bound there (its samples are zeros). Quads sampled through one
    /// [`sample::Prepared`] give what [`Bindings::sample`] gives for each.
    pub fn prepare(&self, sview: u32, sampler: u32) -> Option<sample::Prepared<'_>> {
        let view = self.units.get(&sview)?;
        Some(sample::Prepared::new(view, self.sampler_state(view, sview, sampler)))
    }

    /// Size query (TXQ, SVIEWINFO) of a level relative to the view's base level.
    pub fn get_dims(&self, sview: u32, level: i32) -> [i32; 4] {
        self.units.get(&sview).map(|u| fetch::dims(u, level)).unwrap_or([0; 4])
    }

    /// Unfiltered texels (TXF, SAMPLE_I, SAMPLE_I_MS): `rgba[channel][lane]` as bits.
    pub fn get_texel(
        &self,
        sview: u32,
        i: [i32; 4],
        j: [i32; 4],
        k: [i32; 4],
        lod: [i32; 4],
        offsets: [i8; 3],
    ) -> [[u32; 4]; 4] {
        self.units
            .get(&sview)
            .map(|u| fetch::fetch_quad(u, i, j, k, lod, offsets))
            .unwrap_or([[0; 4]; 4])
    }

    /// LODQ: `[used level, λ]` per lane.
    pub fn query_lod(&self, sview: u32, sampler: u32, coords: [[f32; 4]; 5]) -> [[f32; 4]; 2] {
        match self.units.get(&sview) {
            Some(view) => {
                sample::query_lod(view, &self.sampler_state(view, sview, sampler), &coords)
            }
            None => [[0.0; 4]; 2],
        }
    }

    /// Samples per texel (TXQS, SAMPLE_INFO): 1 for any bound view, 0 for none.
    pub fn sample_count(&self, sview: u32) -> u32 {
        self.units.get(&sview).map(fetch::sample_count).unwrap_or(0)
    }

    /// SAMPLE_POS of the given sample index.
    pub fn sample_position(&self, index: i32) -> [f32; 4] {
        fetch::sample_position(index)
    }
}
