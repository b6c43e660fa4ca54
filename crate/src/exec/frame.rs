//! A frame's shared limits: the work left for every run of one render or dispatch, the stop
//! flag another thread may raise (`--timeout`, Ctrl-C), and a wall-clock limit the frame checks
//! itself where no other thread can stop it (a browser's render worker).

use crate::diag::Diagnostic;
use crate::ir::Span;

/// Why a frame was stopped from outside (not by its own budget): a wall-clock limit or the
/// user. Reported as `X010` / `X011` naming the instruction where the run stopped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stop {
    /// The caller's wall-clock limit (`tgsi render/run --timeout SECONDS`) passed.
    Timeout { seconds: f64 },
    /// The user interrupted the work (Ctrl-C).
    Interrupted,
    /// The frame's own wall-clock limit ([`FrameBudget::with_time_limit`]) passed.
    TimeLimit { seconds: f64 },
}

impl Stop {
    /// The diagnostic of a run stopped at `op`.
    pub fn diagnostic(&self, op: &str, span: Span) -> Diagnostic {
        match self {
            Stop::Timeout { seconds } => Diagnostic::error(
                "X010",
                format!("stopped after {} seconds (--timeout) at {op}", seconds_text(*seconds)),
                span,
            ),
            Stop::Interrupted => {
                Diagnostic::error("X011", format!("interrupted (Ctrl-C) at {op}"), span)
            }
            Stop::TimeLimit { seconds } => Diagnostic::error(
                "X010",
                format!(
                    "stopped after {} seconds (the frame's time limit) at {op}",
                    seconds_text(*seconds)
                ),
                span,
            ),
        }
    }
}

/// Seconds to the nanosecond (a wall-clock limit's precision), without trailing zeros: "2",
/// "0.25". Integer arithmetic: core's float printing would weigh 8 KB in the widget's engine.
fn seconds_text(seconds: f64) -> String {
    let mut whole = seconds.trunc() as u64;
    let mut nanos = ((seconds - seconds.trunc()) * 1e9).round() as u64;
    if nanos == 1_000_000_000 {
        (whole, nanos) = (whole + 1, 0);
    }
    if nanos == 0 {
        return whole.to_string();
    }
    let fraction = format!("{nanos:09}");
    format!("{whole}.{}", fraction.trim_end_matches('0'))
}

/// How much work (quad-instructions, `work.rs`) a run does between two looks at its frame's
/// stop flag: 2^10 instructions over the largest batch (512 quads). The interpreter keeps to
/// it, and so does a compiled module that calls the engine (at a loop's back-edge or a quad's
/// end past each interval).
pub const STOP_CHECK_INTERVAL: u64 = 1 << 19;

/// The most work one batch does through an [`Accelerator`] (2^8 stop-check intervals, a few
/// tens of milliseconds compiled): a batch that needs more is handed back and runs in the
/// interpreter, which gives the same result. When the budget runs out inside a batch the
/// interpreter reruns the batch to stop at the exact instruction; the cap bounds the compiled
/// work done in vain before that.
pub const ACCELERATED_WORK_CAP: u64 = STOP_CHECK_INTERVAL << 8;

/// The work (quad-instructions) a frame must have done before its wall-clock limit can stop it:
/// 2^24, a few tenths of a second in the interpreter. A frame with less work is slow only
/// because its machine is busy (a starved worker, a cold engine), never because of its shader,
/// and its small work already bounds it; an endless loop reaches this within its first second.
/// So on a loaded machine a small frame still finishes instead of being cut off at random.
pub const TIME_LIMIT_MIN_WORK: u64 = 1 << 24;

#[derive(Debug)]
struct FrameState {
    left: std::sync::atomic::AtomicU64,
    stop: std::sync::OnceLock<Stop>,
    deadline: Option<Deadline>,
    /// The frame this one is a part of ([`FrameBudget::part`]) and the work the part started
    /// with: the part is stopped whenever the whole is.
    whole: Option<(FrameBudget, u64)>,
}

/// A wall-clock limit: the frame stops itself at its first look at the stop flag once `clock`
/// (milliseconds) reaches `at`.
#[derive(Clone, Copy, Debug)]
struct Deadline {
    clock: fn() -> f64,
    at: f64,
    seconds: f64,
    /// The frame's work when the limit was set (its work done is this minus what is left).
    work: u64,
}

/// The work left for a whole frame (every batch, draw and stage of one render, every block of
/// one compute dispatch), in quad-instructions (`work.rs`), shared by the machines that run it.
/// Each run may do at most what is left, and is charged its work when it ends (`limits`).
/// Another thread may [`stop`](FrameBudget::stop) the frame (a timer, a Ctrl-C handler): every
/// run of it then ends within [`STOP_CHECK_INTERVAL`] of work, and no new run starts.
#[derive(Clone, Debug)]
pub struct FrameBudget(std::sync::Arc<FrameState>);

impl FrameBudget {
    pub fn new(work: u64) -> FrameBudget {
        FrameBudget(std::sync::Arc::new(FrameState {
            left: std::sync::atomic::AtomicU64::new(work),
            stop: std::sync::OnceLock::new(),
            deadline: None,
            whole: None,
        }))
    }
    /// A frame for one share of this frame's runs done on a thread of its own (a compute
    /// dispatch's range of blocks, `exec::parallel`): it counts its own work, starting from
    /// `work` and never charged to this frame, so that what each of its runs may do does not
    /// depend on how fast the other threads go; a stop of this frame (`--timeout`, Ctrl-C, its
    /// time limit) stops it too. The caller charges this frame what the parts did.
    pub fn part(&self, work: u64) -> FrameBudget {
        FrameBudget(std::sync::Arc::new(FrameState {
            left: std::sync::atomic::AtomicU64::new(work),
            stop: std::sync::OnceLock::new(),
            deadline: None,
            whole: Some((self.clone(), work)),
        }))
    }
    /// A frame that also stops itself `seconds` after now, as read from `clock` (milliseconds),
    /// with `X010`, once it has done [`TIME_LIMIT_MIN_WORK`]: for callers no other thread can
    /// interrupt. Not every browser can end a
    /// worker while it runs WebAssembly (WebKitGTK's `Worker.terminate` lets compiled code run
    /// on), so the page's bands end within their time limit on their own. The clock is read at
    /// each look at the stop flag (every [`STOP_CHECK_INTERVAL`] of work).
    pub fn with_time_limit(work: u64, seconds: f64, clock: fn() -> f64) -> FrameBudget {
        FrameBudget(std::sync::Arc::new(FrameState {
            left: std::sync::atomic::AtomicU64::new(work),
            stop: std::sync::OnceLock::new(),
            deadline: Some(Deadline { clock, at: clock() + seconds * 1000.0, seconds, work }),
            whole: None,
        }))
    }
    /// Work (quad-instructions) left.
    pub fn left(&self) -> u64 {
        self.0.left.load(std::sync::atomic::Ordering::Relaxed)
    }
    pub(super) fn charge(&self, used: u64) {
        let left = self.left();
        self.0.left.store(left.saturating_sub(used), std::sync::atomic::Ordering::Relaxed);
    }
    /// Stops the frame (from any thread); the first reason given is kept.
    pub fn stop(&self, why: Stop) {
        let _ = self.0.stop.set(why);
    }
    /// Why the frame was stopped, if it was (its time limit, if it has one, passed counts).
    pub fn stopped(&self) -> Option<Stop> {
        self.stopped_after(0)
    }
    /// [`stopped`](Self::stopped), asked by a run that has done `run_work` not yet charged:
    /// the time limit counts only once the frame's work done reaches [`TIME_LIMIT_MIN_WORK`].
    pub fn stopped_after(&self, run_work: u64) -> Option<Stop> {
        if let (None, Some((whole, start))) = (self.0.stop.get(), &self.0.whole) {
            // The whole frame's time limit counts this part's work as done.
            let done = start.saturating_sub(self.left()).saturating_add(run_work);
            if let Some(why) = whole.stopped_after(done) {
                self.stop(why);
            }
        }
        if let (None, Some(d)) = (self.0.stop.get(), self.0.deadline) {
            let done = d.work.saturating_sub(self.left()).saturating_add(run_work);
            if done >= TIME_LIMIT_MIN_WORK && (d.clock)() >= d.at {
                self.stop(Stop::TimeLimit { seconds: d.seconds });
            }
        }
        self.0.stop.get().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::seconds_text;

    #[test]
    fn seconds_read_as_core_prints_them_to_the_nanosecond() {
        for s in
            [2.0, 0.25, 0.001, 1.5, 3600.0, 0.000_000_001, 0.1, 0.2, 12.345_678_9, 0.999_999_999]
        {
            assert_eq!(seconds_text(s), format!("{s}"), "{s}");
        }
        // Past the nanosecond: rounded to it, as the limit itself is.
        assert_eq!(seconds_text(0.999_999_999_9), "1");
        assert_eq!(seconds_text(1e-10), "0");
    }
}
