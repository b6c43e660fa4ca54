//! Entry points as the CLI and the page use them: validate, then compile or export. Tests go
//! through these so that every program they run is one `tgsi check` accepts.

use tgsi::agal::lower::{Export, ExportOptions};
use tgsi::diag::Diagnostic;
use tgsi::exec::Program;
use tgsi::ir::Shader;

/// Validate then compile; the first error when either refuses.
pub fn compile(shader: &Shader) -> Result<Program, Diagnostic> {
    tgsi::exec::build(shader).map_err(|all| {
        let first = all.iter().position(Diagnostic::is_error).unwrap_or(0);
        all.into_iter().nth(first).expect("a refusal carries a diagnostic")
    })
}

/// Validate then export to AGAL.
pub fn export(shader: &Shader, opts: &ExportOptions) -> Export {
    tgsi::agal::lower::export_checked(shader, opts)
}

/// Validate both, then export them as a linked pair (panics on a shader the validator refuses:
/// pair tests use valid programs).
pub fn export_pair(vs: &Shader, fs: &Shader, opts: &ExportOptions) -> (Export, Export) {
    let analyse = |s| {
        tgsi::valid::analyse(s, &Default::default())
            .unwrap_or_else(|d| panic!("test shader does not validate: {d:?}"))
    };
    tgsi::agal::lower::export_pair(&analyse(vs), &analyse(fs), opts)
}

/// How [`Asked`] hooks were asked for filtered samples.
#[derive(Debug, Default)]
pub struct AskLog {
    /// `get_samples` calls (one quad each).
    pub singles: usize,
    /// The number of requests of each `get_samples_batch` call, in order.
    pub batches: Vec<usize>,
    /// The thread of every call, in order.
    pub threads: Vec<std::thread::ThreadId>,
}

/// Texture hooks that answer through `inner` and note in `log` how they were asked (shared by
/// clones, so that every band of a frame writes to one log). With `quad_by_quad` a batch is
/// answered one request at a time, as the trait's own `get_samples_batch` does.
#[derive(Clone, Default)]
pub struct Asked<H> {
    pub inner: H,
    pub quad_by_quad: bool,
    pub log: std::sync::Arc<std::sync::Mutex<AskLog>>,
}

impl<H> Asked<H> {
    pub fn new(inner: H) -> Asked<H> {
        Asked { inner, quad_by_quad: false, log: Default::default() }
    }
    fn note(&self, f: impl FnOnce(&mut AskLog)) {
        let mut log = self.log.lock().expect("the log");
        log.threads.push(std::thread::current().id());
        f(&mut log);
    }
}

impl<H: tgsi::exec::TextureHooks> tgsi::exec::TextureHooks for Asked<H> {
    fn get_samples(&mut self, r: &tgsi::exec::SampleRequest) -> [[f32; 4]; 4] {
        self.note(|log| log.singles += 1);
        self.inner.get_samples(r)
    }
    fn get_samples_batch(&mut self, r: &[tgsi::exec::SampleRequest], out: &mut [[[f32; 4]; 4]]) {
        if self.quad_by_quad {
            return tgsi::exec::io::samples_quad_by_quad(self, r, out);
        }
        self.note(|log| log.batches.push(r.len()));
        self.inner.get_samples_batch(r, out)
    }
    fn get_dims(&mut self, sview: u32, level: i32) -> [i32; 4] {
        self.inner.get_dims(sview, level)
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
        self.inner.get_texel(sview, i, j, k, lod, offsets)
    }
    fn query_lod(
        &mut self,
        sview: u32,
        sampler: u32,
        target: tgsi::ir::TextureTarget,
        coords: [[f32; 4]; 5],
    ) -> [[f32; 4]; 2] {
        self.inner.query_lod(sview, sampler, target, coords)
    }
}
