//! One quad of a frame in every engine that can run the fragment shader: the interpreter and the
//! compiling tier draw the quad's rows of the same job (the path the picture takes), and the
//! AGAL export runs in the AGAL executor on the inputs the draw fed that quad (recorded by the
//! inspector's trace, `render::inspect::PixelTrace::inputs`). `tgsi trace --backends` and the
//! inspector's Backends table show them side by side, so a difference between engines is one
//! look away.

use crate::agal::exec::{reg_from_quad, Inputs as AgalInputs};
use crate::agal::lower::{default_varying, export_checked, ExportOptions};
use crate::exec::{MakeAccelerator, TextureHooks};
use crate::render::framebuffer::Framebuffer;
use crate::render::inspect::{in_image_order, trace_pixel};
use crate::render::job::{self, Job};
use std::sync::Arc;

/// The quad's four pixels in image order (top-left, top-right, bottom-left, bottom-right), each
/// COLOR[0]'s x, y, z, w as raw bits.
pub type QuadColours = [[u32; 4]; 4];

/// The quad in each engine.
#[derive(Clone, Debug)]
pub struct Backends {
    /// The pixel asked for and the top-left pixel of its quad (x, y from the top).
    pub pixel: [u32; 2],
    pub quad: [u32; 2],
    /// Each pixel of the quad in image order, x and y from the top; `None` outside the image.
    pub at: [Option<[u32; 2]>; 4],
    /// Pixels of the quad the primitive does not cover, or killed (image order): their
    /// colours here are another primitive's or none, so they are not compared.
    pub skipped: [bool; 4],
    pub interpreter: QuadColours,
    pub compiled: Result<QuadColours, String>,
    pub agal: Result<QuadColours, String>,
}

const PLACES: [&str; 4] = ["top-left", "top-right", "bottom-left", "bottom-right"];

/// The quad of window pixel (wx, wy): its lanes' window positions (lane `l` at
/// `(qx + (l & 1), qy + (l >> 1))`, row 0 at the bottom).
fn lanes_at(wx: u32, wy: u32) -> [(u32, u32); 4] {
    let (qx, qy) = (wx & !1, wy & !1);
    [0, 1, 2, 3].map(|l| (qx + (l & 1), qy + (l >> 1)))
}

/// COLOR[0] of the quad's lanes in a drawn frame, in image order (a lane outside the image: 0).
fn colours(fb: &Framebuffer, lanes: [(u32, u32); 4]) -> QuadColours {
    in_image_order(lanes.map(|(x, y)| fb.pixel(0, x, y).map(f32::to_bits)))
}

/// Draws the quad's rows with `accel` (`None`: the interpreter).
fn draw(
    job: &mut Job,
    accel: Option<Arc<dyn MakeAccelerator>>,
    lanes: [(u32, u32); 4],
    hooks: &mut dyn TextureHooks,
    budget: u64,
) -> Result<QuadColours, String> {
    let kept = std::mem::replace(&mut job.fs_accel, accel);
    let rows = lanes[0].1..(lanes[0].1 + 2).min(job.height);
    let drawn = job::run(job, Some(rows), hooks, budget);
    job.fs_accel = kept;
    let out = drawn.map_err(|d| d.diagnostic.message)?;
    Ok(colours(&out.framebuffer, lanes))
}

/// The fragment shader of `fs_text` exported to AGAL and run on one quad's inputs
/// (`[register][lane][channel]`, the interpreter's lanes), with the job's fragment constants.
fn agal_quad(
    fs_text: &str,
    job: &Job,
    inputs: &[[[u32; 4]; 4]],
    hooks: &mut dyn TextureHooks,
) -> Result<QuadColours, String> {
    let shader = crate::text::parse(fs_text).shader.ok_or("the shader does not parse")?;
    let export = export_checked(&shader, &ExportOptions::default());
    let Some(program) = export.program.as_ref() else {
        let why: Vec<String> = export
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.message.clone())
            .take(2)
            .collect();
        return Err(format!("not exported: {}", why.join("; ")));
    };
    // IN registers to varyings by the export's own rule for a shader exported alone.
    let mut varyings = Vec::new();
    for info in &job.fs.inputs {
        let (Some(key), Some(lanes)) = (info.semantic, inputs.get(info.index as usize)) else {
            continue;
        };
        let Some(slot) = default_varying(key) else { continue };
        let slot = slot as usize;
        if varyings.len() <= slot {
            varyings.resize(slot + 1, reg_from_quad(&[[0.0; 4]; 4]));
        }
        varyings[slot] = reg_from_quad(&lanes.map(|l| l.map(f32::from_bits)));
    }
    let buffer0: Vec<[f32; 4]> = job
        .constants
        .fragment
        .buffers
        .first()
        .map(|b| b.iter().map(|v| v.map(f32::from_bits)).collect())
        .unwrap_or_default();
    let constants = export.layout.constant_values(&buffer0);
    let inputs =
        AgalInputs { constants: &constants, attributes: &[], varyings: &varyings, sample: None };
    let out = crate::agal::exec::run_with_textures(program, &inputs, hooks)?;
    let lanes = out.per_lane();
    Ok(in_image_order([0, 1, 2, 3].map(|l| lanes.outputs[0][l].map(f32::to_bits))))
}

/// The quad of pixel (x, y from the top) in every engine. `job` draws in the interpreter here
/// whatever its `fs_accel`; `compiled` is the compiling tier's form of its fragment program, or
/// why there is none.
pub fn gather(
    fs_text: &str,
    job: &mut Job,
    compiled: Result<Arc<dyn MakeAccelerator>, String>,
    x: u32,
    y: u32,
    hooks: &mut dyn TextureHooks,
    budget: u64,
) -> Result<Backends, String> {
    let traced = trace_pixel(job, x, y, hooks, budget).map_err(|d| d.diagnostic.message)?;
    let lanes = lanes_at(x, job.height - 1 - y);
    let height = job.height;
    // Lanes outside the image, outside the traced primitive, or killed are not compared.
    let lanes_off = traced.trace.helpers | traced.trace.steps.last().map_or(0, |s| s.kill_mask);
    let skipped =
        in_image_order([0, 1, 2, 3].map(|l| lanes_off >> l & 1 != 0 || lanes[l].1 >= height));
    let at = in_image_order(lanes.map(|(wx, wy)| (wy < height).then(|| [wx, height - 1 - wy])));
    let interpreter = draw(job, None, lanes, hooks, budget)?;
    let compiled = compiled.and_then(|accel| draw(job, Some(accel), lanes, hooks, budget));
    let agal = agal_quad(fs_text, job, &traced.inputs, hooks);
    Ok(Backends { pixel: [x, y], quad: traced.quad, at, skipped, interpreter, compiled, agal })
}

fn value_text(v: [u32; 4]) -> String {
    let hex: Vec<String> = v.iter().map(|b| format!("{b:08x}")).collect();
    let f: Vec<String> = v.iter().map(|&b| super::values::float_text(f32::from_bits(b))).collect();
    format!("{}  ({})", hex.join(" "), f.join(", "))
}

/// The table `tgsi trace --backends` prints: each pixel of the quad, COLOR[0] in each engine,
/// "the same" where an engine gives the interpreter's bits.
pub fn text(b: &Backends) -> String {
    let mut s = format!(
        "COLOR[0] of the quad at ({}, {}) in each engine (pixel ({}, {}) asked for):\n",
        b.quad[0], b.quad[1], b.pixel[0], b.pixel[1]
    );
    let engines = [("compiled", &b.compiled), ("AGAL", &b.agal)];
    for (name, why) in engines.iter().filter_map(|(n, r)| Some((n, r.as_ref().err()?))) {
        s.push_str(&format!("  {name}: {why}\n"));
    }
    for (p, place) in PLACES.iter().enumerate() {
        let Some([x, y]) = b.at[p] else {
            s.push_str(&format!("  {place}: outside the image\n"));
            continue;
        };
        s.push_str(&format!("  {place} ({x}, {y})"));
        if b.skipped[p] {
            s.push_str(
                ": outside the traced primitive (another may draw it) or killed: not compared\n",
            );
            continue;
        }
        s.push('\n');
        let mine = b.interpreter[p];
        s.push_str(&format!("    interpreter  {}\n", value_text(mine)));
        for (name, other) in engines.iter().filter_map(|(n, r)| Some((n, r.as_ref().ok()?))) {
            let line = if other[p] == mine {
                "the same".to_string()
            } else {
                let differ: String = (0..4)
                    .filter(|&c| other[p][c] != mine[c])
                    .map(|c| ['x', 'y', 'z', 'w'][c])
                    .collect();
                format!("{}  differs in {differ}", value_text(other[p]))
            };
            s.push_str(&format!("    {name:<11}  {line}\n"));
        }
    }
    s
}
