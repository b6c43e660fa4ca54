//! A frame drawn on several threads (`render`, `bench` `--threads N`): bands of whole tile
//! rows, each drawn through the whole pipeline on its own thread, bit for bit the frame one
//! thread draws (tests/native/render/bands.rs).

use super::framebuffer::Framebuffer;
use super::job::{render_error, run_in_frame, Job, SourcedDiagnostic};
use super::pipeline::DrawStats;
use crate::diag::Diagnostic;
use crate::exec::{self, TextureHooks};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The window rows (row 0 = bottom) of band `k` of `bands` for a picture `height` rows high:
/// whole tile rows ([`TILE`](super::framebuffer::TILE) rows, contiguous in a framebuffer's
/// storage) shared out from the bottom, the last band ending at the picture's top.
pub fn band_rows(height: u32, bands: u32, k: u32) -> std::ops::Range<u32> {
    let tile = super::framebuffer::TILE;
    let tile_rows = height.div_ceil(tile);
    let bands = bands.clamp(1, tile_rows.max(1));
    let per = tile_rows.div_ceil(bands);
    let start = (k * per * tile).min(height);
    let end = ((k + 1) * per * tile).min(height);
    start..end
}

/// How many bands a picture `height` rows high is drawn in with `threads` threads: at most one
/// per tile row ([`band_rows`]). The band framebuffers together hold at most the picture's rows
/// again, so the frame and its bands stay within twice the one framebuffer's limit
/// ([`crate::limits::MAX_FRAMEBUFFER_BYTES`], checked for the frame's before it was made).
pub fn bands_for(height: u32, threads: usize) -> u32 {
    let tile_rows = u64::from(height.div_ceil(super::framebuffer::TILE));
    // Bands of whole tile rows: with `per` rows each, fewer bands may cover the picture.
    let wanted = (threads.max(1) as u64).min(tile_rows.max(1));
    let per = tile_rows.div_ceil(wanted.max(1));
    tile_rows.div_ceil(per.max(1)) as u32
}

/// [`run_in_frame`] on `threads` threads: the picture is split into bands of whole tile rows
/// ([`band_rows`]), each drawn by its own thread through the whole pipeline (the first by the calling thread, the
/// others by threads kept in `scratch` from frame to frame) with its own copy
/// of the texture bindings (the vertex stage runs in each band, as in each of the page's
/// workers): the first band into `fb`, the others into band framebuffers holding only their
/// rows ([`Framebuffer::band`], kept in `scratch` between frames: like `fb`, they are drawn over,
/// not cleared, and only their depth is reset for a depth-tested mesh). With `copy_back` their
/// rows are then copied into `fb`, one slice per band, so that `fb` holds the picture; a
/// benchmark, which reads no pixel, leaves them where they are. Every band draws from the one
/// frame budget: a frame that runs out of it, or that `--timeout` or Ctrl-C stops, stops in
/// every band. Each pixel is shaded as in a one-band draw (bands meet between quads). The
/// result: the first band's error in row order, else the summed counters (the triangles as one
/// band counts them) and the first band's warnings.
pub fn run_in_bands<H: TextureHooks + Clone + Send>(
    job: &Job,
    fb: &mut Framebuffer,
    threads: usize,
    hooks: &H,
    frame: &exec::FrameBudget,
    scratch: &mut BandScratch,
    copy_back: bool,
) -> Result<(DrawStats, Vec<Diagnostic>), SourcedDiagnostic> {
    let bands = bands_for(fb.height, threads);
    if bands <= 1 {
        let mut hooks = hooks.clone();
        return run_in_frame(job, fb, None, &mut hooks, frame);
    }
    let (width, height, targets, format) = (fb.width, fb.height, fb.target_count(), fb.format);
    let fits = |k: usize, b: &Framebuffer| {
        let rows = band_rows(height, bands, k as u32 + 1);
        b.width == width
            && b.height == height
            && b.format == format
            && b.target_count() == targets
            && b.stores_rows(rows)
    };
    let others = bands as usize - 1;
    if scratch.bands.len() != others || !scratch.bands.iter().enumerate().all(|(k, b)| fits(k, b)) {
        scratch.bands.clear();
        for k in 1..bands {
            let rows = band_rows(height, bands, k);
            scratch.bands.push(
                Framebuffer::band(width, height, targets, format, rows)
                    .map_err(|e| render_error("R001", e))?,
            );
        }
    }
    scratch.start_threads(others)?;
    let BandScratch { bands: band_fbs, threads: Some(pool), frames_begun, .. } = scratch else {
        return Err(render_error("R001", "the band threads did not start".into()));
    };
    let depth = job.mesh.wants_depth;
    let mut results: Vec<Option<BandResult>> = (0..bands).map(|_| None).collect();
    let draw_band = |band: &mut Framebuffer, k: u32, mut hooks: H| -> BandResult {
        let rows = band_rows(height, bands, k);
        // A panic would be a bug; it ends this band with a diagnostic instead of the program.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_in_frame(job, band, Some(rows), &mut hooks, frame)
        }))
        .unwrap_or_else(|_| Err(no_result()))
    };
    // This frame has begun: the kept threads stop waiting for it.
    let frame_number = frames_begun.fetch_add(1, Ordering::AcqRel) + 1;
    let drawing = AtomicUsize::new(others);
    if let Some((first, rest)) = results.split_first_mut() {
        pool.in_place_scope(|scope| {
            for (k, (band, slot)) in band_fbs.iter_mut().zip(rest.iter_mut()).enumerate() {
                let hooks = hooks.clone();
                let (draw_band, drawing) = (&draw_band, &drawing);
                scope.spawn(move |_| {
                    if depth {
                        band.clear_depth();
                    }
                    *slot = Some(draw_band(band, k as u32 + 1, hooks));
                    drawing.fetch_sub(1, Ordering::AcqRel);
                });
            }
            // The first band on this thread while the pool draws the others; then this thread
            // stays awake for them a while rather than going to sleep at the scope's end.
            *first = Some(draw_band(fb, 0, hooks.clone()));
            stay_awake(|| drawing.load(Ordering::Acquire) == 0);
        });
        // The kept threads stay awake for the next frame a while.
        let frames_begun = Arc::clone(frames_begun);
        pool.spawn_broadcast(move |_| {
            stay_awake(|| frames_begun.load(Ordering::Acquire) != frame_number)
        });
    }
    let mut stats = DrawStats::default();
    let mut warnings = None;
    for (k, result) in results.into_iter().enumerate() {
        let (s, w) = result.unwrap_or_else(|| Err(no_result()))?;
        if copy_back && k > 0 {
            if let Some(band) = band_fbs.get(k - 1) {
                fb.copy_tile_rows_from(band, band_rows(height, bands, k as u32));
            }
        }
        stats.triangles = stats.triangles.max(s.triangles);
        stats.quads += s.quads;
        stats.fragments_written += s.fragments_written;
        stats.flushed_quads += s.flushed_quads;
        stats.fused_quads += s.fused_quads;
        warnings.get_or_insert(w);
    }
    Ok((stats, warnings.unwrap_or_default()))
}

/// What one band's draw gives.
type BandResult = Result<(DrawStats, Vec<Diagnostic>), SourcedDiagnostic>;

/// A band that ended without its draw's result (a panic in it, which would be a bug).
fn no_result() -> SourcedDiagnostic {
    render_error("R001", "a band's thread ended without a result".into())
}

/// How long a thread that has drawn its band stays awake for what it waits for (the other
/// bands, or the next frame) before it sleeps: waking a sleeping thread took tens of
/// microseconds a frame here (docs/perf-log.md, "band threads kept between frames").
const STAY_AWAKE: Duration = Duration::from_millis(1);

/// Waits until `done()` or [`STAY_AWAKE`] has passed, giving the core to any other thread that
/// wants it (so more bands than cores are not slowed by threads that wait).
fn stay_awake(done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() && start.elapsed() < STAY_AWAKE {
        std::thread::yield_now();
    }
}

/// What [`run_in_bands`] keeps between frames: the framebuffers of the bands after the first,
/// and the threads that draw them. Starting a thread for each band of each frame cost about
/// 60 µs a frame (a 64x64 `bench` frame took 0.076 ms on two threads against 0.018 ms on one,
/// docs/perf-log.md); the kept threads wait for the next frame instead.
#[derive(Default)]
pub struct BandScratch {
    bands: Vec<Framebuffer>,
    threads: Option<rayon::ThreadPool>,
    pools_started: usize,
    /// Frames begun with these threads (the kept threads stay awake until the next one).
    frames_begun: Arc<AtomicU64>,
}

impl BandScratch {
    /// How many times this scratch has started its threads (once, unless the number of bands
    /// changes).
    pub fn pools_started(&self) -> usize {
        self.pools_started
    }

    /// Keeps `count` threads, starting them unless that many are already waiting.
    fn start_threads(&mut self, count: usize) -> Result<(), SourcedDiagnostic> {
        if self.threads.as_ref().is_some_and(|p| p.current_num_threads() == count) {
            return Ok(());
        }
        self.threads = None;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(count)
            .thread_name(|i| format!("tgsi-band-{}", i + 1))
            .build()
            .map_err(|e| render_error("R001", format!("could not start the band threads: {e}")))?;
        self.threads = Some(pool);
        self.pools_started += 1;
        Ok(())
    }
}
