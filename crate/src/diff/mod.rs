//! `tgsi diff A B`: do two shaders compute the same? Both run on the same inputs and their
//! outputs are compared bit for bit (docs/diff.md):
//!
//! - fragment shaders: the pictures both draw of each built-in mesh (`picture.rs`), then quads
//!   whose four lanes hold seeded random and special values ([`values`]) in every input and
//!   constant either shader declares;
//! - vertex shaders: the vertices of every built-in mesh, then the same random quads;
//! - compute shaders: dispatches over buffers filled with such values.
//!
//! Inputs and outputs are matched by semantic (`GENERIC[3]` is the same input in both shaders
//! whichever `IN` register holds it), registers without one by their index. The first
//! difference comes with both traces of that quad ([`report`] lines them up).

pub mod backends;
pub mod picture;
pub mod report;
pub mod values;

use crate::exec::{Batch, Constants, Lanes, Machine, Program, TextureHooks, Trace};
use crate::ir::{DclDimension, File, Processor, SemanticName};
use values::Rng;

/// One of the two shaders, parsed and compiled.
pub struct Side<'a> {
    pub text: &'a str,
    pub shader: crate::ir::Shader,
    pub program: Program,
}

/// How to compare.
#[derive(Clone, Debug)]
pub struct Options {
    pub seed: u64,
    /// Random quads (vertex and fragment shaders) or dispatches (compute shaders).
    pub trials: u32,
    /// Compare NaNs bit for bit (by default any NaN equals any NaN).
    pub exact_nan: bool,
    /// Quad-instructions one run of one shader may take (`exec::work`).
    pub budget: u64,
    /// Width and height of the picture both fragment shaders draw.
    pub size: u32,
    /// Compute: blocks per dispatch, and the block size when the shaders do not fix one.
    pub grid: [u32; 3],
    pub block: Option<[u32; 3]>,
}

/// Bytes of each buffer a compute trial fills (every declared `BUFFER[n]`).
pub const BUFFER_BYTES: usize = 256;

/// Where a difference was found.
#[derive(Clone, Debug, PartialEq)]
pub enum Place {
    /// Pixel (x, y) of the picture of a built-in mesh, y from the top as in a PNG.
    Pixel { mesh: &'static str, x: u32, y: u32 },
    /// Vertex `vertex` of a built-in mesh.
    MeshVertex { mesh: &'static str, vertex: usize },
    /// Random quad `trial` (from 1).
    Trial(u32),
    /// Dispatch `trial` (from 1): a word of a buffer afterwards.
    Dispatch {
        trial: u32,
        buffer: u32,
        word: usize,
        /// The invocation of A that stored the word, as (block, invocation in the block), when
        /// a traced run found it.
        writer: Option<([u32; 3], usize)>,
    },
}

/// What differs.
#[derive(Clone, Debug, PartialEq)]
pub enum Found {
    /// An output channel: `key` names the output (`COLOR[0]`, `OUT[2]`), channel 0..3.
    Output { key: String, channel: usize, a: u32, b: u32 },
    /// One shader kills the lane and the other does not.
    Killed { a: bool, b: bool },
    /// One shader stopped (the budget, a run-time error) and the other did not, or both with
    /// different messages.
    Stopped { a: Option<String>, b: Option<String> },
    /// A buffer word after a dispatch.
    Word { a: u32, b: u32 },
    /// Nothing: the pixel asked for is the same in both pictures.
    Same,
}

/// The first difference, with what is needed to see why.
#[derive(Clone, Debug)]
pub struct Difference {
    pub place: Place,
    /// The lane of the quad (the interpreter's order); 0 for a buffer word.
    pub lane: usize,
    pub found: Found,
    /// The lane's inputs as both shaders received them: `(name, [x, y, z, w])`.
    pub inputs: Vec<(String, [u32; 4])>,
    /// The constants both shaders read: `(CONST[b][i], [x, y, z, w])`.
    pub constants: Vec<(String, [u32; 4])>,
    /// Both traces of the quad (vertex and fragment shaders).
    pub traces: Option<(Trace, Trace)>,
}

/// The result of a comparison.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// What was run, in words ("a 32x32 picture, 1000 random quads").
    pub checked: Vec<String>,
    /// Interface differences: outputs only one shader has.
    pub interface: Vec<String>,
    /// Notes that do not make the shaders differ (an input only one reads).
    pub notes: Vec<String>,
    pub difference: Option<Difference>,
    /// Fragment shaders: how far apart each pixel of the two full-screen pictures is.
    pub picture: Option<picture::PictureMap>,
}

impl Outcome {
    pub fn same(&self) -> bool {
        self.interface.is_empty() && self.difference.is_none()
    }
}

/// The name an input or output is matched by.
fn key(file: &str, index: u32, semantic: Option<(SemanticName, u32)>) -> String {
    match semantic {
        Some((name, i)) => format!("{}[{i}]", name.name()),
        None => format!("{file}[{index}]"),
    }
}

fn inputs_of(p: &Program) -> Vec<(String, u32)> {
    p.inputs.iter().map(|i| (key("IN", i.index, i.semantic), i.index)).collect()
}

fn outputs_of(p: &Program) -> Vec<(String, u32)> {
    let mut v: Vec<_> =
        p.outputs.iter().map(|o| (key("OUT", o.index, o.semantic), o.index)).collect();
    v.sort();
    v.dedup_by(|x, y| x.0 == y.0);
    v
}

/// Every `(buffer, register)` either shader declares in the CONST file, in order, at most
/// `limits::MAX_CONST_REGISTERS` registers in all.
pub(crate) fn declared_constants(a: &Side, b: &Side) -> Vec<(u32, u32)> {
    let mut v = std::collections::BTreeSet::new();
    for side in [a, b] {
        for d in side.shader.declarations.iter().filter(|d| d.file == File::Const) {
            // `CONST[b][i..j]`: the first bracket is the buffer; `CONST[i..j]` is buffer 0.
            let buffers = match d.dimension {
                DclDimension::Range(r) => r.first..=r.last.min(r.first.saturating_add(31)),
                _ => 0..=0,
            };
            let (first, last) = (d.range.first, d.range.last);
            let last = last.min(first.saturating_add(crate::limits::MAX_CONST_REGISTERS as u32));
            for buffer in buffers {
                for i in first..=last {
                    v.insert((buffer, i));
                    if v.len() >= crate::limits::MAX_CONST_REGISTERS {
                        return v.into_iter().collect();
                    }
                }
            }
        }
    }
    v.into_iter().collect()
}

/// Random constants for `slots`, as the store and as a list for the report.
fn constants(slots: &[(u32, u32)], rng: &mut Rng) -> (Constants, Vec<(String, [u32; 4])>) {
    let mut store = Constants::new();
    let mut list = Vec::new();
    for &(buffer, index) in slots {
        let bits = [0; 4].map(|_| values::pick(rng));
        store.set_bits(buffer as usize, index as usize, bits);
        list.push((format!("CONST[{buffer}][{index}]"), bits));
    }
    (store, list)
}

/// One quad's run of one shader.
struct QuadResult {
    /// `[output register][lane][channel]`
    outputs: Vec<[[u32; 4]; 4]>,
    killed: u8,
    stopped: Option<String>,
    trace: Option<Trace>,
}

/// Runs one quad whose input register `r` holds `inputs[r]` (`[lane][channel]`).
fn run_quad(
    side: &Side,
    inputs: &[[[u32; 4]; 4]],
    consts: &Constants,
    hooks: &mut dyn TextureHooks,
    budget: u64,
    traced: bool,
) -> QuadResult {
    let p = &side.program;
    let mut batch = Batch::new(p, 1);
    for (r, lanes) in inputs.iter().enumerate().take(p.input_count() as usize) {
        for c in 0..4 {
            batch.set_input(r, c, 0, Lanes([0, 1, 2, 3].map(|l| lanes[l][c])));
        }
    }
    if p.processor == Processor::Vertex {
        for name in [SemanticName::VertexId, SemanticName::VertexIdNoBase] {
            batch.system.set_with(name, 1, |_, l, _| l as u32);
        }
        batch.system.set_with(SemanticName::InstanceId, 1, |_, _, _| 0);
    }
    let mut machine = Machine::with_budget(budget);
    let (trace, result) = if traced {
        let (t, r) = machine.run_traced(p, &mut batch, consts, hooks, 0);
        (Some(t), r)
    } else {
        (None, machine.run_with(p, &mut batch, consts, hooks))
    };
    let outputs = (0..p.output_count() as usize)
        .map(|r| [0, 1, 2, 3].map(|l| [0, 1, 2, 3].map(|c| batch.output(r, c, 0).0[l])))
        .collect();
    QuadResult {
        outputs,
        killed: batch.killed.first().copied().unwrap_or(0) & 0xF,
        stopped: result.err().map(|e| e.diagnostic.message),
        trace,
    }
}

/// The first difference between two runs of one quad, lane by lane.
fn compare_quads(
    ra: &QuadResult,
    rb: &QuadResult,
    outs: &[(String, u32, u32)],
    exact_nan: bool,
) -> Option<(usize, Found)> {
    if ra.stopped != rb.stopped {
        return Some((0, Found::Stopped { a: ra.stopped.clone(), b: rb.stopped.clone() }));
    }
    if ra.stopped.is_some() {
        return None;
    }
    for lane in 0..4 {
        let (ka, kb) = (ra.killed >> lane & 1 != 0, rb.killed >> lane & 1 != 0);
        if ka != kb {
            return Some((lane, Found::Killed { a: ka, b: kb }));
        }
        if ka {
            continue;
        }
        for (key, oa, ob) in outs {
            let va = ra.outputs.get(*oa as usize).map_or([0; 4], |o| o[lane]);
            let vb = rb.outputs.get(*ob as usize).map_or([0; 4], |o| o[lane]);
            for c in 0..4 {
                if !values::same(va[c], vb[c], exact_nan) {
                    let found = Found::Output { key: key.clone(), channel: c, a: va[c], b: vb[c] };
                    return Some((lane, found));
                }
            }
        }
    }
    None
}

/// Compares two shaders of the same processor. `Err` is a usage message (processors differ,
/// or one the comparison does not run).
pub fn compare(
    a: &Side,
    b: &Side,
    opts: &Options,
    hooks_a: &mut dyn TextureHooks,
    hooks_b: &mut dyn TextureHooks,
) -> Result<Outcome, String> {
    let (pa, pb) = (a.program.processor, b.program.processor);
    if pa != pb {
        return Err(format!(
            "A is a {} shader and B a {} shader: only shaders of one kind compare",
            pa.name(),
            pb.name()
        ));
    }
    let mut out = Outcome::default();
    match pa {
        Processor::Fragment | Processor::Vertex => {
            let outs = match_outputs(a, b, &mut out);
            match_inputs(a, b, &mut out);
            if pa == Processor::Fragment {
                picture(a, b, opts, hooks_a, hooks_b, &mut out);
            } else {
                meshes(a, b, opts, &outs, hooks_a, hooks_b, &mut out);
            }
            if out.difference.is_none() {
                random_quads(a, b, opts, &outs, hooks_a, hooks_b, &mut out);
            }
        }
        Processor::Compute => dispatches(a, b, opts, hooks_a, hooks_b, &mut out)?,
        other => {
            return Err(format!(
                "{} shaders are not compared (fragment, vertex and compute shaders are)",
                other.name()
            ))
        }
    }
    Ok(out)
}

/// The outputs both shaders have, `(name, A's register, B's register)`; the others are
/// interface differences.
fn match_outputs(a: &Side, b: &Side, out: &mut Outcome) -> Vec<(String, u32, u32)> {
    let (oa, ob) = (outputs_of(&a.program), outputs_of(&b.program));
    let mut both = Vec::new();
    for (k, ra) in &oa {
        match ob.iter().find(|(kb, _)| kb == k) {
            Some((_, rb)) => both.push((k.clone(), *ra, *rb)),
            None => out.interface.push(format!("output {k} is declared by A only")),
        }
    }
    for (k, _) in ob.iter().filter(|(k, _)| !oa.iter().any(|(ka, _)| ka == k)) {
        out.interface.push(format!("output {k} is declared by B only"));
    }
    both
}

fn match_inputs(a: &Side, b: &Side, out: &mut Outcome) {
    let (ia, ib) = (inputs_of(&a.program), inputs_of(&b.program));
    for (k, _) in ia.iter().filter(|(k, _)| !ib.iter().any(|(kb, _)| kb == k)) {
        out.notes.push(format!("input {k} is read by A only"));
    }
    for (k, _) in ib.iter().filter(|(k, _)| !ia.iter().any(|(ka, _)| ka == k)) {
        out.notes.push(format!("input {k} is read by B only"));
    }
}

/// Fragment shaders: the pictures both draw of each built-in mesh (`picture.rs`); the first
/// differing pixel, in reading order, with both traces. The map is the full-screen picture's.
fn picture(
    a: &Side,
    b: &Side,
    opts: &Options,
    hooks_a: &mut dyn TextureHooks,
    hooks_b: &mut dyn TextureHooks,
    out: &mut Outcome,
) {
    use crate::render::mesh::BUILTIN_MESHES;
    let mut drawn = Vec::new();
    for mesh in BUILTIN_MESHES {
        let pictures = match picture::Pictures::draw(a, b, opts, mesh, hooks_a, hooks_b) {
            Ok(p) => p,
            Err(picture::NotDrawn::Alike(why)) => {
                out.notes.push(format!("neither shader draws the {mesh} picture ({why})"));
                continue;
            }
            Err(picture::NotDrawn::Differ(found)) => {
                out.difference = Some(Difference {
                    place: Place::Pixel { mesh, x: 0, y: 0 },
                    lane: 0,
                    found,
                    inputs: Vec::new(),
                    constants: Vec::new(),
                    traces: None,
                });
                return;
            }
        };
        drawn.push(*mesh);
        let map = pictures.map(opts.exact_nan);
        if let Some((x, y)) = map.first.filter(|_| out.difference.is_none()) {
            out.difference = Some(pictures.at(x, y, opts.exact_nan, hooks_a, hooks_b));
        }
        if out.picture.is_none() {
            out.picture = Some(map);
        }
        if out.difference.is_some() {
            return;
        }
    }
    if !drawn.is_empty() {
        out.checked.push(format!(
            "the {0}x{0} pictures both draw of the meshes {1}",
            opts.size.max(2),
            drawn.join(", ")
        ));
    }
}

/// Vertex shaders: every vertex of every built-in mesh, attribute `n` in input register `n`
/// (as `tgsi render --mesh` feeds them), four vertices a run.
fn meshes(
    a: &Side,
    b: &Side,
    opts: &Options,
    outs: &[(String, u32, u32)],
    hooks_a: &mut dyn TextureHooks,
    hooks_b: &mut dyn TextureHooks,
    out: &mut Outcome,
) {
    let mut rng = Rng::new(opts.seed ^ 0x4d45_5348); // "MESH"
    let slots = declared_constants(a, b);
    let mut store = Constants::new();
    let mut listed = Vec::new();
    for &(buffer, index) in &slots {
        let bits = [0; 4].map(|_| values::ordinary(&mut rng));
        store.set_bits(buffer as usize, index as usize, bits);
        listed.push((format!("CONST[{buffer}][{index}]"), bits));
    }
    let registers = a.program.input_count().max(b.program.input_count()) as usize;
    for name in crate::render::mesh::BUILTIN_MESHES {
        let Some(mesh) = crate::render::mesh::Mesh::builtin(name) else { continue };
        let n = mesh.vertex_count();
        for first in (0..n).step_by(4) {
            let mut inputs = vec![[[0u32; 4]; 4]; registers];
            for (r, reg) in inputs.iter_mut().enumerate().take(mesh.attributes) {
                for (l, lane) in reg.iter_mut().enumerate() {
                    let v = (first + l).min(n - 1);
                    if let Some(attr) = mesh.vertices.get(v * mesh.attributes + r) {
                        *lane = attr.map(f32::to_bits);
                    }
                }
            }
            let ra = run_quad(a, &inputs, &store, hooks_a, opts.budget, false);
            let rb = run_quad(b, &inputs, &store, hooks_b, opts.budget, false);
            if let (Some(why), true) = (&ra.stopped, ra.stopped == rb.stopped) {
                out.notes.push(format!(
                    "both shaders stopped on vertex {first} of the {} mesh ({why}); the other vertices were not run",
                    mesh.name
                ));
                return;
            }
            if let Some((lane, found)) = compare_quads(&ra, &rb, outs, opts.exact_nan) {
                let ta = run_quad(a, &inputs, &store, hooks_a, opts.budget, true).trace;
                let tb = run_quad(b, &inputs, &store, hooks_b, opts.budget, true).trace;
                let shown = inputs
                    .iter()
                    .enumerate()
                    .take(mesh.attributes)
                    .map(|(r, reg)| (format!("IN[{r}]"), reg[lane]))
                    .collect();
                out.difference = Some(Difference {
                    place: Place::MeshVertex { mesh: mesh.name, vertex: first + lane },
                    lane,
                    found,
                    inputs: shown,
                    constants: listed,
                    traces: ta.zip(tb),
                });
                return;
            }
        }
    }
    out.checked.push(format!(
        "the vertices of the meshes {}",
        crate::render::mesh::BUILTIN_MESHES.join(", ")
    ));
}

/// Random quads: every input either shader declares gets, per lane and channel, a value from
/// [`values::pick`], the same for both; so does every constant.
fn random_quads(
    a: &Side,
    b: &Side,
    opts: &Options,
    outs: &[(String, u32, u32)],
    hooks_a: &mut dyn TextureHooks,
    hooks_b: &mut dyn TextureHooks,
    out: &mut Outcome,
) {
    let mut rng = Rng::new(opts.seed);
    let slots = declared_constants(a, b);
    let (ia, ib) = (inputs_of(&a.program), inputs_of(&b.program));
    let mut keys: Vec<String> = ia.iter().chain(&ib).map(|(k, _)| k.clone()).collect();
    keys.sort();
    keys.dedup();
    let place = |side: &[(String, u32)], count: u32, by_key: &[(String, [[u32; 4]; 4])]| {
        let mut regs = vec![[[0u32; 4]; 4]; count as usize];
        for (k, r) in side {
            if let (Some(slot), Some((_, v))) =
                (regs.get_mut(*r as usize), by_key.iter().find(|(kk, _)| kk == k))
            {
                *slot = *v;
            }
        }
        regs
    };
    for trial in 1..=opts.trials {
        let by_key: Vec<(String, [[u32; 4]; 4])> =
            keys.iter().map(|k| (k.clone(), values::quad(&mut rng))).collect();
        let (store, listed) = constants(&slots, &mut rng);
        let in_a = place(&ia, a.program.input_count(), &by_key);
        let in_b = place(&ib, b.program.input_count(), &by_key);
        let ra = run_quad(a, &in_a, &store, hooks_a, opts.budget, false);
        let rb = run_quad(b, &in_b, &store, hooks_b, opts.budget, false);
        if let (Some(why), true) = (&ra.stopped, ra.stopped == rb.stopped) {
            // Both stop alike (an endless loop runs out of budget): more trials would only
            // spend the budget again.
            out.notes.push(format!(
                "both shaders stopped on random quad {trial} ({why}); the other quads were not run"
            ));
            if trial > 1 {
                out.checked.push(format!("{} random quad(s)", trial - 1));
            }
            return;
        }
        if let Some((lane, found)) = compare_quads(&ra, &rb, outs, opts.exact_nan) {
            let ta = run_quad(a, &in_a, &store, hooks_a, opts.budget, true).trace;
            let tb = run_quad(b, &in_b, &store, hooks_b, opts.budget, true).trace;
            out.difference = Some(Difference {
                place: Place::Trial(trial),
                lane,
                found,
                inputs: by_key.iter().map(|(k, v)| (k.clone(), v[lane])).collect(),
                constants: listed,
                traces: ta.zip(tb),
            });
            return;
        }
    }
    out.checked.push(format!("{} random quads", opts.trials));
}

/// Compute shaders: `trials` dispatches, each over buffers filled with the same random words
/// for both (every `BUFFER[n]` either declares, [`BUFFER_BYTES`] each); the buffers are
/// compared word by word afterwards.
fn dispatches(
    a: &Side,
    b: &Side,
    opts: &Options,
    hooks_a: &mut dyn TextureHooks,
    hooks_b: &mut dyn TextureHooks,
    out: &mut Outcome,
) -> Result<(), String> {
    use crate::exec::{dispatch, Resources};
    let mut rng = Rng::new(opts.seed);
    let slots = declared_constants(a, b);
    let mut buffers = std::collections::BTreeSet::new();
    for side in [a, b] {
        for d in side.shader.declarations.iter().filter(|d| d.file == File::Buffer) {
            let last = d.range.last.min(d.range.first.saturating_add(31));
            buffers.extend(d.range.first..=last);
        }
    }
    let run =
        |side: &Side, res: &mut Resources, store: &Constants, hooks: &mut dyn TextureHooks| {
            let mut machine = Machine::with_budget(opts.budget);
            dispatch(&mut machine, &side.program, store, hooks, res, opts.grid, opts.block)
                .err()
                .map(|e| e.diagnostic.message)
        };
    for trial in 1..=opts.trials {
        let mut res = Resources::new();
        for &n in &buffers {
            let words: Vec<u8> =
                (0..BUFFER_BYTES / 4).flat_map(|_| values::pick(&mut rng).to_le_bytes()).collect();
            res.buffers.insert(n, words);
        }
        let (store, listed) = constants(&slots, &mut rng);
        let before = res.buffers.clone();
        let initial = res.clone();
        let mut rb = res.clone();
        let (ea, eb) = (run(a, &mut res, &store, hooks_a), run(b, &mut rb, &store, hooks_b));
        if let (Some(why), true) = (&ea, ea == eb) {
            out.notes.push(format!(
                "both shaders stopped on dispatch {trial} ({why}); the other dispatches were not run"
            ));
            if trial > 1 {
                out.checked.push(format!("{} dispatch(es)", trial - 1));
            }
            return Ok(());
        }
        let mut found = None;
        if ea != eb {
            found = Some((0, 0, Found::Stopped { a: ea, b: eb }));
        } else if ea.is_none() {
            'search: for &n in &buffers {
                let (wa, wb) = (&res.buffers[&n], &rb.buffers[&n]);
                for (w, (x, y)) in wa.chunks(4).zip(wb.chunks(4)).enumerate() {
                    let word = |c: &[u8]| u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                    if !values::same(word(x), word(y), opts.exact_nan) {
                        found = Some((n, w, Found::Word { a: word(x), b: word(y) }));
                        break 'search;
                    }
                }
            }
        }
        if let Some((buffer, word, found)) = found {
            let inputs = before
                .get(&buffer)
                .map(|bytes| {
                    let first = word.saturating_sub(1) & !3;
                    bytes
                        .chunks(16)
                        .enumerate()
                        .skip(first / 4)
                        .take(2)
                        .map(|(k, c)| {
                            let mut v = [0u32; 4];
                            for (i, w) in c.chunks(4).enumerate() {
                                v[i] = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
                            }
                            (format!("BUFFER[{buffer}] words {}..{} before", k * 4, k * 4 + 3), v)
                        })
                        .collect()
                })
                .unwrap_or_default();
            // The invocation of A that stored the word, and the same quad traced in B.
            let found_writer = matches!(found, Found::Word { .. })
                .then(|| writer(a, &initial, &store, hooks_a, opts, buffer, word))
                .flatten();
            let (writer_at, lane, traces) = match found_writer {
                Some((block_id, quad, lane, ta)) => {
                    let mut res = initial.clone();
                    let mut m = Machine::with_budget(opts.budget);
                    let (_, tb) = crate::exec::compute::dispatch_traced(
                        &mut m, &b.program, &store, hooks_b, &mut res, opts.grid, opts.block,
                        block_id, quad,
                    );
                    (Some((block_id, quad * 4 + lane)), lane, tb.map(|tb| (ta, tb)))
                }
                None => (None, 0, None),
            };
            out.difference = Some(Difference {
                place: Place::Dispatch { trial, buffer, word, writer: writer_at },
                lane,
                found,
                inputs,
                constants: listed,
                traces,
            });
            return Ok(());
        }
    }
    let grid = opts.grid;
    out.checked.push(format!(
        "{} dispatches (grid {}x{}x{}) over {} buffer(s) of random words",
        opts.trials,
        grid[0],
        grid[1],
        grid[2],
        buffers.len()
    ));
    Ok(())
}

/// Most quads [`writer`] traces (each a whole dispatch) before giving up.
const MAX_TRACED_QUADS: usize = 64;

/// The invocation of `side`'s dispatch whose STORE or atomic covered byte `4 * word` of
/// `BUFFER[buffer]`, found by running the dispatch from `initial` with one quad after another
/// traced (the address is the step's first non-resource operand, in the lane's x): `(block,
/// quad, lane, that quad's trace)`.
fn writer(
    side: &Side,
    initial: &crate::exec::Resources,
    store: &Constants,
    hooks: &mut dyn TextureHooks,
    opts: &Options,
    buffer: u32,
    word: usize,
) -> Option<([u32; 3], usize, usize, Trace)> {
    let block = opts.block.or_else(|| crate::exec::compute::fixed_block_size(&side.program))?;
    let quads = (block.iter().map(|&v| v as usize).product::<usize>()).div_ceil(4);
    let byte = word as u64 * 4;
    let [gx, gy, gz] = opts.grid;
    let blocks = (0..gz).flat_map(|z| (0..gy).flat_map(move |y| (0..gx).map(move |x| [x, y, z])));
    let tried = blocks.flat_map(|b| (0..quads).map(move |q| (b, q))).take(MAX_TRACED_QUADS);
    for (block_id, quad) in tried {
        let mut res = initial.clone();
        let mut m = Machine::with_budget(opts.budget);
        let (_, trace) = crate::exec::compute::dispatch_traced(
            &mut m,
            &side.program,
            store,
            hooks,
            &mut res,
            opts.grid,
            opts.block,
            block_id,
            quad,
        );
        let trace = trace?;
        let hit = trace.steps.iter().find_map(|step| {
            let text = crate::render::inspect::source_text(side.text, step.span);
            let (count, target) = stored(&text)?;
            if step.opcode != "STORE" && !step.opcode.starts_with("ATOM") || target != buffer {
                return None;
            }
            let address = step.sources.iter().find(|s| !s.operand.contains("BUFFER["))?;
            (0..4).find(|&l| {
                let at = u64::from(address.values[0][l]);
                step.exec_mask >> l & 1 != 0 && at <= byte && byte < at + 4 * count
            })
        });
        if let Some(lane) = hit {
            return Some((block_id, quad, lane, trace));
        }
    }
    None
}

/// The words a STORE or atomic writes and the buffer it writes: `STORE BUFFER[1].xy, …` →
/// (2, 1); an atomic (`ATOMUADD TEMP[0].x, BUFFER[1], …`) writes one word.
fn stored(instruction: &str) -> Option<(u64, u32)> {
    let at = instruction.find("BUFFER[")? + "BUFFER[".len();
    let rest = instruction.get(at..)?;
    let close = rest.find(']')?;
    let index = rest.get(..close)?.parse().ok()?;
    let after = rest.get(close + 1..).unwrap_or("");
    let count = match after.strip_prefix('.') {
        Some(mask) if instruction.starts_with("STORE") => {
            mask.chars().take_while(|c| "xyzw".contains(*c)).count().max(1) as u64
        }
        _ if instruction.starts_with("STORE") => 4,
        _ => 1,
    };
    Some((count, index))
}
