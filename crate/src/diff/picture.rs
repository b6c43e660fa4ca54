//! The pictures two fragment shaders draw (each built-in mesh, as `tgsi render --mesh` draws
//! it, with the same ordinary constants), compared pixel by pixel: the map of how far apart each
//! pixel is (the page's Compare mode paints it) and one pixel's difference with both traces.

use super::values::{self, Rng};
use super::{declared_constants, Difference, Found, Options, Place, Side};
use crate::exec::TextureHooks;
use crate::render::framebuffer::Framebuffer;
use crate::render::job::ConstValue;
use crate::render::job::{self, Job};
use serde::Serialize;

/// How far apart each pixel of the two pictures is.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PictureMap {
    pub size: u32,
    /// Row by row from the top: 0 the same, else the largest distance in ulps over the
    /// pixel's channels and colour targets ([`values::distance`]).
    pub ulps: Vec<u32>,
    pub differing: u32,
    pub largest: u32,
    /// The first differing pixel in reading order (x, y from the top).
    pub first: Option<(u32, u32)>,
}

/// Why two pictures were not both drawn.
pub enum NotDrawn {
    /// Neither was, for the same reason (no difference).
    Alike(String),
    /// One was not, or both for different reasons.
    Differ(Found),
}

/// Both pictures, drawn, with their jobs (to trace a pixel in the same draw).
pub struct Pictures {
    /// The built-in mesh drawn (`render::mesh::BUILTIN_MESHES`).
    mesh: &'static str,
    jobs: [Job; 2],
    frames: [Framebuffer; 2],
    size: u32,
    constants: Vec<ConstValue>,
}

impl Pictures {
    /// Draws both; `Err` when one or both cannot be drawn ([`NotDrawn`]).
    pub fn draw(
        a: &Side,
        b: &Side,
        opts: &Options,
        mesh: &'static str,
        hooks_a: &mut dyn TextureHooks,
        hooks_b: &mut dyn TextureHooks,
    ) -> Result<Pictures, NotDrawn> {
        let mut rng = Rng::new(opts.seed ^ 0x5049_4354); // "PICT": apart from the trials
        let constants: Vec<ConstValue> = declared_constants(a, b)
            .iter()
            .map(|&(buffer, index)| ConstValue {
                buffer,
                index,
                bits: [0; 4].map(|_| values::ordinary(&mut rng)),
            })
            .collect();
        let size = opts.size.max(2);
        let vs_a = pass_through(&a.program, mesh);
        let vs_b = pass_through(&b.program, mesh);
        let draw = |side: &Side, vs: &Option<String>, hooks: &mut dyn TextureHooks| {
            let req = job::Request {
                fs: side.text,
                vs: vs.as_deref(),
                width: size,
                height: size,
                constants: constants.clone(),
                // The fragment-only draw is the full-screen triangle; the other meshes go
                // through a vertex shader passing their attributes on ([`pass_through`]).
                mesh: (mesh != "fullscreen").then_some(mesh),
                ..job::Request::default()
            };
            let (job, diags) = job::prepare(&req);
            let job = job.ok_or_else(|| {
                diags.first().map_or("not drawn".to_string(), |d| d.diagnostic.message.clone())
            })?;
            let budget = job.default_budget();
            let drawn = job::run(&job, None, hooks, budget).map_err(|d| d.diagnostic.message)?;
            Ok::<_, String>((job, drawn.framebuffer))
        };
        match (draw(a, &vs_a, hooks_a), draw(b, &vs_b, hooks_b)) {
            (Ok((ja, fa)), Ok((jb, fb))) => {
                Ok(Pictures { mesh, jobs: [ja, jb], frames: [fa, fb], size, constants })
            }
            (Err(ea), Err(eb)) if ea == eb => Err(NotDrawn::Alike(ea)),
            (ea, eb) => Err(NotDrawn::Differ(Found::Stopped { a: ea.err(), b: eb.err() })),
        }
    }

    /// Pixel (x, y from the top) of both pictures: `[target][channel]` bits.
    fn pixel(&self, x: u32, y_top: u32) -> [Vec<[u32; 4]>; 2] {
        let y = self.size - 1 - y_top.min(self.size - 1);
        let targets = self.frames[0].target_count().min(self.frames[1].target_count());
        self.frames
            .each_ref()
            .map(|f| (0..targets).map(|t| f.pixel(t, x, y).map(f32::to_bits)).collect())
    }

    /// The map of the whole picture.
    pub fn map(&self, exact_nan: bool) -> PictureMap {
        let mut map = PictureMap { size: self.size, ..PictureMap::default() };
        for y in 0..self.size {
            for x in 0..self.size {
                let [pa, pb] = self.pixel(x, y);
                let far = pa
                    .iter()
                    .zip(&pb)
                    .flat_map(|(ta, tb)| (0..4).map(|c| values::distance(ta[c], tb[c], exact_nan)))
                    .max()
                    .unwrap_or(0);
                if far > 0 {
                    map.differing += 1;
                    map.largest = map.largest.max(far);
                    map.first = map.first.or(Some((x, y)));
                }
                map.ulps.push(far);
            }
        }
        map
    }

    /// Pixel (x, y from the top): its first differing channel (or [`Found::Same`]) and both
    /// traces, from the same draws.
    pub fn at(
        &self,
        x: u32,
        y: u32,
        exact_nan: bool,
        hooks_a: &mut dyn TextureHooks,
        hooks_b: &mut dyn TextureHooks,
    ) -> Difference {
        let (x, y) = (x.min(self.size - 1), y.min(self.size - 1));
        let [pa, pb] = self.pixel(x, y);
        let found = pa
            .iter()
            .zip(&pb)
            .enumerate()
            .find_map(|(t, (ta, tb))| {
                let c = (0..4).find(|&c| !values::same(ta[c], tb[c], exact_nan))?;
                Some(Found::Output { key: format!("COLOR[{t}]"), channel: c, a: ta[c], b: tb[c] })
            })
            .unwrap_or(Found::Same);
        let trace = |job: &Job, hooks: &mut dyn TextureHooks| {
            crate::render::inspect::trace_pixel(job, x, y, hooks, job.default_budget()).ok()
        };
        let (ta, tb) = (trace(&self.jobs[0], hooks_a), trace(&self.jobs[1], hooks_b));
        let lane = ta.as_ref().map_or(0, |t| t.lane);
        // As the draw fed A's fragment (B's inputs of the same semantics hold the same values).
        let inputs = ta.as_ref().map_or(Vec::new(), |t| {
            self.jobs[0]
                .fs
                .inputs
                .iter()
                .filter_map(|i| {
                    let v = t.inputs.get(i.index as usize)?[lane];
                    Some((super::key("IN", i.index, i.semantic), v))
                })
                .collect()
        });
        Difference {
            place: Place::Pixel { mesh: self.mesh, x, y },
            lane,
            found,
            inputs,
            constants: self
                .constants
                .iter()
                .map(|c| (format!("CONST[{}][{}]", c.buffer, c.index), c.bits))
                .collect(),
            traces: ta.zip(tb).map(|(ta, tb)| (ta.trace, tb.trace)),
        }
    }
}

/// For a mesh other than the full-screen triangle, a vertex shader that passes the mesh's
/// attributes on: its position (attribute 0) to POSITION, and to each other input the fragment
/// shader reads by semantic (GENERIC, TEXCOORD, COLOR, …) one of the others, chosen by the
/// semantic alone (so two shaders that declare their inputs in another order get the same
/// values; the position again for a mesh without other attributes). `None` for the
/// full-screen triangle.
pub fn pass_through(fs: &crate::exec::Program, mesh: &str) -> Option<String> {
    use crate::ir::SemanticName as N;
    let mesh = crate::render::mesh::Mesh::builtin(mesh).filter(|_| mesh != "fullscreen")?;
    let attributes = mesh.attributes.max(1);
    let mut dcl = format!("VERT\nDCL IN[0..{}]\nDCL OUT[0], POSITION\n", attributes - 1);
    let mut code = String::from("  MOV OUT[0], IN[0]\n");
    let read = fs.inputs.iter().filter_map(|i| i.semantic);
    for (k, (name, index)) in read.filter(|(n, _)| !matches!(n, N::Position | N::Face)).enumerate()
    {
        let offset = match name {
            N::Generic => 0,
            N::TexCoord => 1,
            N::Color => 2,
            _ => 3,
        };
        let attribute = match attributes {
            1 => 0,
            n => 1 + (index as usize + offset) % (n - 1),
        };
        dcl.push_str(&format!("DCL OUT[{}], {}[{index}]\n", k + 1, name.name()));
        code.push_str(&format!("  MOV OUT[{}], IN[{attribute}]\n", k + 1));
    }
    Some(format!("{dcl}{code}  END\n"))
}
