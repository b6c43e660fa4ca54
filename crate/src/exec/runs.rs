//! The runs of quads with active lanes (`Machine::runs`): lane-wise instructions and the fast
//! kernels run over these only, so quads whose lanes all left a loop cost nothing while the
//! batch waits for its slowest quad (`docs/interpreter.md`, "Active runs").

use super::machine::Machine;

/// Quads per group: runs of active quads start and end at group boundaries (`find_runs`).
const RUN_GROUP: usize = 4;
/// Idle groups between two runs of active quads that are still run as one (see `find_runs`).
const RUN_GAP: usize = 16;

impl Machine {
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
