//! Views of register rows: what the machine and a compiled form hand each other for in-place
//! inputs and outputs (`direct.rs`, `Accelerator`).

use super::lanes::Lanes;

/// Rows of quads `stride` quads apart: row `k` starts at `lanes[k * stride]` (the machine's
/// rows are `quads` apart, a compiled form's a fixed distance). `T` is a quad's four lanes:
/// [`Lanes`], or `[u32; 4]` in the render's own output rows.
#[derive(Clone, Copy, Debug)]
pub struct Rows<'a, T = Lanes> {
    pub lanes: &'a [T],
    pub stride: usize,
}

impl<'a, T> Rows<'a, T> {
    /// The first `quads` quads of row `k` (empty when it lies outside).
    pub fn row(&self, k: usize, quads: usize) -> &'a [T] {
        let start = k * self.stride;
        self.lanes.get(start..start + quads).unwrap_or_default()
    }
}

/// [`Rows`] for writing (a caller's inputs,
/// [`Machine::input_rows`](super::Machine::input_rows)).
#[derive(Debug)]
pub struct RowsMut<'a> {
    pub lanes: &'a mut [Lanes],
    pub stride: usize,
}

impl RowsMut<'_> {
    /// The first `quads` quads of row `k` (empty when it lies outside).
    pub fn row_mut(&mut self, k: usize, quads: usize) -> &mut [Lanes] {
        let start = k * self.stride;
        self.lanes.get_mut(start..start + quads).unwrap_or_default()
    }
    /// The same rows for reading.
    pub fn rows(&self) -> Rows<'_> {
        Rows { lanes: self.lanes, stride: self.stride }
    }
}
