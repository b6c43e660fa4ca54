//! Wall-clock limits and Ctrl-C for the long subcommands (`render`, `run`): a watchdog thread
//! stops the frame's budget ([`FrameBudget::stop`]) when `--timeout SECONDS` have passed or
//! the user pressed Ctrl-C; every run of the frame then ends within
//! `exec::STOP_CHECK_INTERVAL` instructions with `X010` or `X011`, and the subcommand
//! writes what it has, as when the instruction budget runs out.

use crate::exec::{FrameBudget, Stop};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How often the watchdog looks at the Ctrl-C flag.
const POLL: Duration = Duration::from_millis(25);

/// The exit status after Ctrl-C (128 + SIGINT, as shells report it).
pub const INTERRUPTED_STATUS: i32 = 130;

/// Reads `--timeout SECONDS` (a positive number, fractions allowed).
pub fn parse_timeout(value: Option<&str>) -> Result<Option<Duration>, String> {
    let Some(v) = value else { return Ok(None) };
    let secs = crate::text::decimal::parse_f64(v.trim())
        .ok_or_else(|| format!("--timeout: '{v}' is not a number of seconds"))?;
    if secs.is_nan() || secs <= 0.0 {
        return Err(format!("--timeout: '{v}' must be more than 0 seconds"));
    }
    match Duration::try_from_secs_f64(secs) {
        // Found by the fuzz smoke run: 1e-45 is more than 0 but rounds to no time at all.
        Ok(d) if d.is_zero() => Err(format!("--timeout: '{v}' seconds is less than a nanosecond")),
        Ok(d) => Ok(Some(d)),
        Err(_) => Err(format!("--timeout: '{v}' seconds is too long")),
    }
}

/// The exit status for a stopped frame: 130 after Ctrl-C, 1 otherwise.
pub fn status_of(frame: &FrameBudget) -> i32 {
    match frame.stopped() {
        Some(Stop::Interrupted) => INTERRUPTED_STATUS,
        _ => 1,
    }
}

/// Watches one frame until dropped.
pub struct Watchdog {
    done: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    /// Starts watching `frame`: stops it after `timeout` (if any) or on Ctrl-C.
    pub fn start(frame: &FrameBudget, timeout: Option<Duration>, shown: Option<&str>) -> Watchdog {
        sigint::install();
        let (done, wait) = mpsc::channel::<()>();
        let frame = frame.clone();
        // The number as the user wrote it ("1", "0.5"), for the message.
        let seconds =
            shown.and_then(|s| crate::text::decimal::parse_f64(s.trim())).unwrap_or_default();
        let started = Instant::now();
        let thread = std::thread::Builder::new()
            .name("tgsi-watchdog".into())
            .spawn(move || loop {
                let wait_for = match timeout {
                    Some(t) => t.saturating_sub(started.elapsed()).min(POLL),
                    None => POLL,
                };
                match wait.recv_timeout(wait_for) {
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    // Dropped (or a message): the work is over.
                    _ => return,
                }
                if sigint::interrupted() {
                    frame.stop(Stop::Interrupted);
                    return;
                }
                if timeout.is_some_and(|t| started.elapsed() >= t) {
                    frame.stop(Stop::Timeout { seconds });
                    return;
                }
            })
            .ok();
        Watchdog { done: Some(done), thread }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.done.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        sigint::restore();
    }
}

/// A SIGINT handler that only sets a flag (an atomic store, safe in a signal handler); a second
/// Ctrl-C ends the process as usual. No dependency: `signal` is the C library's.
#[cfg(unix)]
mod sigint {
    use std::os::raw::c_int;
    use std::sync::atomic::{AtomicBool, Ordering};

    static INTERRUPTED: AtomicBool = AtomicBool::new(false);
    const SIGINT: c_int = 2;
    const SIG_DFL: usize = 0;

    extern "C" {
        fn signal(signum: c_int, handler: usize) -> usize;
    }

    extern "C" fn on_sigint(_: c_int) {
        INTERRUPTED.store(true, Ordering::SeqCst);
        // SAFETY: `signal` is async-signal-safe; SIG_DFL is a valid disposition.
        unsafe {
            signal(SIGINT, SIG_DFL);
        }
    }

    pub fn install() {
        INTERRUPTED.store(false, Ordering::SeqCst);
        let handler = on_sigint as extern "C" fn(c_int) as usize;
        // SAFETY: the handler only stores to an atomic and calls `signal`, both allowed in a
        // signal handler; the function lives as long as the program.
        unsafe {
            signal(SIGINT, handler);
        }
    }

    pub fn restore() {
        // SAFETY: SIG_DFL is a valid disposition.
        unsafe {
            signal(SIGINT, SIG_DFL);
        }
    }

    pub fn interrupted() -> bool {
        INTERRUPTED.load(Ordering::SeqCst)
    }
}

#[cfg(not(unix))]
mod sigint {
    pub fn install() {}
    pub fn restore() {}
    pub fn interrupted() -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_are_positive_numbers() {
        assert_eq!(parse_timeout(None), Ok(None));
        assert_eq!(parse_timeout(Some("1.5")), Ok(Some(Duration::from_millis(1500))));
        for bad in ["0", "-1", "abc", "NaN", "inf", "1e300", "1e-45"] {
            assert!(parse_timeout(Some(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_watchdog_stops_the_frame_after_the_timeout() {
        let frame = FrameBudget::new(100);
        let dog = Watchdog::start(&frame, Some(Duration::from_millis(1)), Some("0.001"));
        let started = Instant::now();
        while frame.stopped().is_none() && started.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(1));
        }
        drop(dog);
        assert_eq!(frame.stopped(), Some(Stop::Timeout { seconds: 0.001 }));
        assert_eq!(status_of(&frame), 1);
    }
}
