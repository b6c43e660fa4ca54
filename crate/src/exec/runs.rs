//! The execution mask (`update_exec`) and the runs of quads with active lanes kept with it
//! (`Machine::runs`): lane-wise instructions and the fast kernels run over these only, so quads
//! whose lanes all left a loop cost nothing while the batch waits for its slowest quad
//! (`docs/interpreter.md`, "Active runs").

use super::lanes::Lanes;
use super::machine::Machine;

/// Quads per group: runs of active quads start and end at group boundaries (`find_runs`).
const RUN_GROUP: usize = 4;
/// Idle groups between two runs of active quads that are still run as one (see `find_runs`).
const RUN_GAP: usize = 16;

impl Machine {
    /// ExecMask = Cond & Loop & Cont & Switch & Func (tgsi_exec's UPDATE_EXEC_MASK).
    pub(crate) fn update_exec(&mut self) {
        let mut any = wide::u32x4::splat(0);
        let mut all = wide::u32x4::splat(u32::MAX);
        // Zipped slices and whole-vector ANDs: no bounds checks, one SIMD op per mask.
        let (c, l, k, f) = (&self.cond, &self.loop_mask, &self.cont, &self.func);
        let s = &self.switch;
        let u = |x: &Lanes| wide::u32x4::from(x.0);
        let mut live = 0u64;
        for (((((m, c), l), k), f), s) in self.exec.iter_mut().zip(c).zip(l).zip(k).zip(f).zip(s) {
            let v = u(c) & u(l) & u(k) & u(f) & u(s);
            *m = Lanes(v.to_array());
            live += super::work::quad_active(m) as u64;
            any |= v;
            all &= v;
        }
        self.live = live;
        let (any, all) = (Lanes(any.to_array()), Lanes(all.to_array()));
        self.any_active = any != Lanes::ZERO;
        self.all_active = all == Lanes::ONES;
        if self.all_active {
            self.runs.clear();
            self.active = (0, self.nq);
            self.runs.push((0, self.nq));
            return;
        }
        self.find_runs(0..self.nq);
    }

    /// Lists the runs of quads with active lanes inside `span` (every exec lane outside it must
    /// be zero) and the active span around them.
    pub(crate) fn find_runs(&mut self, span: std::ops::Range<usize>) {
        self.runs.clear();
        self.scan_runs(span);
        self.set_active_span();
    }

    /// Lists the runs again after lanes were only switched off (a loop break): only the quads
    /// of the old runs can still be active, and old runs stay more than RUN_GAP groups apart.
    pub(crate) fn refine_runs(&mut self) {
        let old = std::mem::replace(&mut self.runs, std::mem::take(&mut self.spare_runs));
        self.runs.clear();
        for &(a, b) in &old {
            self.scan_runs(a..b);
        }
        self.spare_runs = old;
        self.set_active_span();
    }

    /// Appends the runs of quads with active lanes inside `span`.
    fn scan_runs(&mut self, span: std::ops::Range<usize>) {
        // Runs are whole groups of RUN_GROUP quads (a quarter of the scan, and whole vectors
        // for the fast kernels); gaps of up to RUN_GAP idle groups are bridged (one call per
        // run costs more than a few idle quads).
        let nq = self.nq;
        let first_group = span.start / RUN_GROUP;
        let from = first_group * RUN_GROUP;
        let mut open: Option<(usize, usize)> = None;
        let groups = self.exec.get(from..span.end.max(from)).unwrap_or_default().chunks(RUN_GROUP);
        let quads = |(a, b): (usize, usize)| (a * RUN_GROUP, (b * RUN_GROUP).min(nq));
        for (i, group) in groups.enumerate() {
            // One OR-reduction over the group's lanes (a single vector on AVX-512).
            if super::lanes::flat(group).iter().fold(0, |acc, &m| acc | m) == 0 {
                continue;
            }
            let g = first_group + i;
            open = match open {
                Some((a, b)) if g <= b + RUN_GAP => Some((a, g + 1)),
                Some(run) => {
                    self.runs.push(quads(run));
                    Some((g, g + 1))
                }
                None => Some((g, g + 1)),
            };
        }
        if let Some(run) = open {
            self.runs.push(quads(run));
        }
    }

    fn set_active_span(&mut self) {
        let first = self.runs.first().map_or(0, |r| r.0);
        self.active = (first, self.runs.last().map_or(first, |r| r.1));
    }
}
