//! Probe mode: for every quad of a batch, how many instructions each lane ran (the heat map)
//! and the value one register channel held right after one instruction (the image at
//! instruction N). Like trace mode it is a separate instantiation of the run loop, so the
//! plain loop pays nothing for it; unlike trace mode it watches every quad, keeping only two
//! numbers per lane.

use super::lanes::Lanes;

/// What to watch, and what was seen.
#[derive(Clone, Debug, Default)]
pub struct Probe {
    /// Capture after this instruction (its index in the program) …
    pub at: Option<u32>,
    /// … the value of this storage row (`Program::row_of`).
    pub row: Option<usize>,
    /// Per quad: the captured bits of each lane (the last time the lane ran instruction `at`).
    pub value: Vec<Lanes>,
    /// Per quad: the lanes that ran instruction `at` at least once (bit i = lane i).
    pub reached: Vec<u8>,
    /// Per quad: how many instructions each lane ran.
    pub counts: Vec<[u32; 4]>,
    /// The exec mask of the watched instruction, before it ran.
    ran: Vec<Lanes>,
}

impl Probe {
    pub fn new(at: Option<u32>, row: Option<usize>) -> Probe {
        Probe { at, row, ..Probe::default() }
    }

    /// Clears what the previous batch saw.
    pub(crate) fn start(&mut self, nq: usize) {
        self.value.clear();
        self.value.resize(nq, Lanes::ZERO);
        self.reached.clear();
        self.reached.resize(nq, 0);
        self.counts.clear();
        self.counts.resize(nq, [0; 4]);
    }

    /// Before instruction `pc`: every active lane runs it; for the watched instruction, which
    /// lanes those are.
    pub(crate) fn before(&mut self, pc: usize, exec: &[Lanes]) {
        for (n, e) in self.counts.iter_mut().zip(exec) {
            for l in 0..4 {
                n[l] += (e.0[l] != 0) as u32;
            }
        }
        if self.at == Some(pc as u32) {
            self.ran.clear();
            self.ran.extend_from_slice(exec);
        }
    }

    /// After instruction `pc`: for the watched instruction, keep the watched row of the lanes
    /// that ran it.
    pub(crate) fn after(&mut self, pc: usize, regs: &[Lanes], nq: usize) {
        if self.at != Some(pc as u32) {
            return;
        }
        let Some(row) = self.row.and_then(|r| regs.get(r * nq..(r + 1) * nq)) else { return };
        for ((v, seen), (e, now)) in
            self.value.iter_mut().zip(self.reached.iter_mut()).zip(self.ran.iter().zip(row))
        {
            for l in 0..4 {
                if e.0[l] != 0 {
                    v.0[l] = now.0[l];
                    *seen |= 1 << l;
                }
            }
        }
    }
}
