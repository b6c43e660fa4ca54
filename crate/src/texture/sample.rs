//! Filtered sampling of a whole quad: the entry point behind TEX, TXB, TXL, TXP, TXD, TEX_LZ,
//! TEX2/TXB2/TXL2, TG4 and the SAMPLE family (tgsi.rst "Texture Opcodes";
//! tgsi_exec.h `struct tgsi_sampler`). All four lanes come together so the implicit LOD can be
//! taken from their differences, exactly as softpipe's `sp_get_samples` (docs/textures.md "How a sample is computed").

use crate::ir::TextureTarget;

use super::cube;
use super::filter::{self, Point, Taps};
use super::image::{minify, Dim};
use super::lod::{self, LambdaShape};
#[cfg(feature = "fast-sampling")]
use super::one_level;
use super::sampler::{SamplerState, TextureUnit};
use super::shadow;
use super::trace::{LaneTrace, LodSource, SampleTrace};
use super::wrap;

/// How the LOD is obtained (tgsi_exec's `tgsi_sampler_control`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// From the quad's coordinate differences.
    Implicit,
    /// Implicit plus the shader's bias in `c1`.
    Bias,
    /// The shader's LOD in `c1`.
    Explicit,
    /// LOD zero (TEX_LZ, SAMPLE_C_LZ).
    Zero,
    /// From explicit derivatives, per lane (TXD, SAMPLE_D).
    Gradients,
    /// Gather one component (TG4, GATHER4): the 2×2 footprint instead of a filtered colour.
    Gather(u32),
}

/// A gather's component from its c1 lane 0 as an integer: the low two bits (TG4's src1.x;
/// softpipe's `get_gather_component`).
pub fn gather_component(c1: [f32; 4]) -> u32 {
    c1[0].to_bits() & 3
}

/// One sampling request for a quad, in tgsi_exec's argument order.
#[derive(Clone, Copy, Debug)]
pub struct Request {
    /// s, t, r, c0, c1 per lane. How they are read depends on the texture's shape, as in
    /// softpipe: 1D array layer = t; 2D array layer = r; cube array layer = c0; the shadow
    /// reference is r (1D, 2D, RECT, 1D array), c0 (2D array, cube) or c1 (cube array); the
    /// bias or explicit LOD is c1.
    pub coords: [[f32; 4]; 5],
    /// d/dx and d/dy of s, t, r per lane, for [`Control::Gradients`].
    pub derivs: [[[f32; 4]; 2]; 3],
    /// Texel offsets (TGSI immediate offsets).
    pub offsets: [i8; 3],
    pub control: Control,
    /// The instruction's target, when known: TXD returns zeros if its coordinate form does not
    /// match the texture (NVIDIA's SASS TXD description).
    pub target: Option<TextureTarget>,
}

impl Request {
    pub fn new(coords: [[f32; 4]; 5], control: Control) -> Request {
        Request { coords, derivs: [[[0.0; 4]; 2]; 3], offsets: [0; 3], control, target: None }
    }
}

/// Shape classes that must agree between a TXD instruction and its texture.
fn coordinate_class_of_target(t: TextureTarget) -> Option<u8> {
    use TextureTarget::*;
    match t {
        Tex1D | Array1D | Shadow1D | Shadow1DArray => Some(1),
        Tex2D | Array2D | Rect | Shadow2D | ShadowRect | Shadow2DArray | Msaa2D | Msaa2DArray => {
            Some(2)
        }
        Tex3D => Some(3),
        Cube | CubeArray | ShadowCube | ShadowCubeArray => Some(4),
        Buffer | Unknown => None,
    }
}

fn coordinate_class_of_dim(d: Dim) -> Option<u8> {
    match d {
        Dim::D1 | Dim::D1Array => Some(1),
        Dim::D2 | Dim::D2Array | Dim::Rect | Dim::D2Msaa | Dim::D2ArrayMsaa => Some(2),
        Dim::D3 => Some(3),
        Dim::Cube | Dim::CubeArray => Some(4),
        Dim::Buffer => None,
    }
}

/// The λ shape for this texture, with the sizes of the view's base level.
pub fn lambda_shape(unit: &TextureUnit) -> LambdaShape {
    let t = &unit.texture;
    let first = unit.view.first_level;
    let w = minify(t.width, first) as f32;
    let h = minify(t.height, first) as f32;
    match t.dim {
        Dim::Buffer | Dim::D1 | Dim::D1Array => LambdaShape::OneD { width: w },
        Dim::D3 => {
            LambdaShape::ThreeD { width: w, height: h, depth: minify(t.depth, first) as f32 }
        }
        Dim::Cube | Dim::CubeArray => LambdaShape::Cube { width: w },
        _ => LambdaShape::TwoD { width: w, height: h },
    }
}

/// Unclamped λ per lane (softpipe's `compute_lambda_lod_unclamped`): the sampler bias is added
/// to implicit, biased and explicit LODs, not to gradient ones (as softpipe).
pub fn lambda_per_lane(unit: &TextureUnit, sampler: &SamplerState, req: &Request) -> [f32; 4] {
    lambdas_of_shape(lambda_shape(unit), sampler, req)
}

/// [`lambda_per_lane`] with the unit's λ shape already known.
fn lambdas_of_shape(shape: LambdaShape, sampler: &SamplerState, req: &Request) -> [f32; 4] {
    let [s, t, r, _, lod_in] = &req.coords;
    let bias = sampler.lod_bias;
    match req.control {
        Control::Implicit => [lod::lambda_from_quad(shape, [s, t, r]) + bias; 4],
        Control::Bias => {
            let l = lod::lambda_from_quad(shape, [s, t, r]) + bias;
            lod_in.map(|b| l + b)
        }
        Control::Explicit => lod_in.map(|l| l + bias),
        Control::Zero | Control::Gather(_) => [bias; 4],
        Control::Gradients => {
            [0, 1, 2, 3].map(|lane| lod::lambda_from_grad(shape, &req.derivs, lane))
        }
    }
}

/// Clamps λ to the sampler's [min_lod, max_lod]. A NaN LOD (only possible from a NaN explicit
/// LOD or bias) is treated as 0 before clamping.
pub fn clamp_lambda(sampler: &SamplerState, lambda: f32) -> f32 {
    let l = if lambda.is_nan() { 0.0 } else { lambda };
    lod::clamp_lod(l, sampler.min_lod, sampler.max_lod)
}

/// Sign-extends the low 4 bits: the −8..7 texel offset field of explicit-derivative sampling
/// (NVIDIA's SASS TXD description, `.AOFFI`).
fn four_bit_offset(o: i8) -> i32 {
    i32::from(((o as u8) << 4) as i8 >> 4)
}

/// The request's texel offsets as the filters take them (four-bit fields for gradients).
pub(super) fn lane_offsets(req: &Request) -> [i32; 3] {
    if req.control == Control::Gradients {
        req.offsets.map(four_bit_offset)
    } else {
        req.offsets.map(i32::from)
    }
}

/// Samples a quad. Returns `rgba[channel][lane]` after shadow comparison and the view swizzle.
/// Integer textures return their integer bits inside the f32 values.
pub fn sample_quad(
    unit: &TextureUnit,
    sampler: &SamplerState,
    req: &Request,
    trace: Option<&mut SampleTrace>,
) -> [[f32; 4]; 4] {
    Prepared::new(unit, *sampler).sample(req, trace)
}

/// A unit and sampler state ready to sample quads from: what does not change from one quad to
/// the next is worked out once (the λ shape of the view's base level, and the mip level of the
/// last λ the one-level path saw: neighbouring quads of a picture drawn at one scale share their
/// λ). [`sample_quad`] makes one per quad; the texture stage keeps one across the quads of a
/// batch that name the same view and sampler (`TextureHooks::get_samples_batch`). Either way
/// each quad is sampled by [`Prepared::sample`], so the two give the same bits.
pub struct Prepared<'a> {
    unit: &'a TextureUnit,
    sampler: SamplerState,
    shape: LambdaShape,
    #[cfg(feature = "fast-sampling")]
    levels: one_level::LevelCache,
}

impl<'a> Prepared<'a> {
    pub fn new(unit: &'a TextureUnit, sampler: SamplerState) -> Prepared<'a> {
        Prepared {
            unit,
            sampler,
            shape: lambda_shape(unit),
            #[cfg(feature = "fast-sampling")]
            levels: one_level::LevelCache::default(),
        }
    }

    /// Samples one quad (see [`sample_quad`]).
    pub fn sample(&mut self, req: &Request, mut trace: Option<&mut SampleTrace>) -> [[f32; 4]; 4] {
        let unit = self.unit;
        if let Some(t) = trace.as_deref_mut() {
            trace_lod_source(t, req);
        }
        if let Some(why) = gradient_mismatch(unit, req) {
            if let Some(t) = trace {
                t.mismatch = Some(why);
            }
            return [[0.0; 4]; 4];
        }
        let lambdas = lambdas_of_shape(self.shape, &self.sampler, req);
        let offsets = lane_offsets(req);
        #[cfg(feature = "fast-sampling")]
        if trace.is_none() {
            if let Some(rgba) =
                one_level::sample(unit, &self.sampler, req, offsets, lambdas, &mut self.levels)
            {
                return rgba;
            }
        }
        sample_lanes(unit, &self.sampler, req, offsets, lambdas, trace)
    }
}

/// TXD's coordinate form against the texture's shape: zeros are returned when they differ
/// (NVIDIA's SASS TXD description), and this says why.
fn gradient_mismatch(unit: &TextureUnit, req: &Request) -> Option<String> {
    if req.control != Control::Gradients {
        return None;
    }
    let dim = unit.texture.dim;
    let want = req.target.and_then(coordinate_class_of_target);
    (want.is_some() && want != coordinate_class_of_dim(dim)).then(|| {
        format!(
            "{} coordinates on a {} texture: zeros returned",
            req.target.map(|t| t.name()).unwrap_or("?"),
            dim.name()
        )
    })
}

/// Where a traced quad's LOD comes from, and the derivatives behind it.
fn trace_lod_source(t: &mut SampleTrace, req: &Request) {
    t.lod_source = match req.control {
        Control::Implicit | Control::Bias => LodSource::Implicit,
        Control::Gradients => LodSource::Gradients,
        _ => LodSource::Explicit,
    };
    t.derivatives =
        if req.control == Control::Gradients { req.derivs } else { implicit_derivs(&req.coords) };
}

/// The general path of [`Prepared::sample`]: each lane on its own (its level choice, shape,
/// offsets, filter, comparison and swizzle), recording what it did into `trace`.
fn sample_lanes(
    unit: &TextureUnit,
    sampler: &SamplerState,
    req: &Request,
    offsets: [i32; 3],
    lambdas: [f32; 4],
    mut trace: Option<&mut SampleTrace>,
) -> [[f32; 4]; 4] {
    let [s, t, r, c0, c1] = &req.coords;
    let mut out = [[0f32; 4]; 4];
    for lane in 0..4 {
        let lod = clamp_lambda(sampler, lambdas[lane]);
        let (point, face, reference) =
            lane_point(unit, [s[lane], t[lane], r[lane], c0[lane], c1[lane]], offsets);
        let mut lane_trace = trace.as_ref().map(|_| LaneTrace {
            lambda: lambdas[lane],
            lod,
            ..LaneTrace::default()
        });
        let color = match req.control {
            Control::Gather(comp) => {
                gather_lane(unit, sampler, lod, &point, comp, reference, lane_trace.as_mut(), face)
            }
            _ => {
                let (mut color, magnified) = filter::mip_filter(
                    unit,
                    sampler,
                    lod,
                    &point,
                    lane_trace.as_mut().map(|t| &mut t.levels),
                    face,
                );
                if let Some(func) = sampler.compare {
                    let k = shadow::compare(func, reference, color[0], unit.texture.format.kind());
                    color = [k, k, k, 1.0];
                }
                if let Some(lt) = lane_trace.as_mut() {
                    lt.magnified = magnified;
                }
                unit.swizzle(color)
            }
        };
        for c in 0..4 {
            out[c][lane] = color[c];
        }
        if let (Some(tr), Some(mut lt)) = (trace.as_deref_mut(), lane_trace) {
            lt.coords = [point.s, point.t, point.r];
            lt.result = color;
            tr.lanes[lane] = lt;
        }
    }
    out
}

/// The coarse derivatives softpipe's implicit LOD uses, for the trace.
fn implicit_derivs(coords: &[[f32; 4]; 5]) -> [[[f32; 4]; 2]; 3] {
    let mut d = [[[0f32; 4]; 2]; 3];
    for a in 0..3 {
        let c = &coords[a];
        d[a][0] = [c[lod::BOTTOM_RIGHT] - c[lod::BOTTOM_LEFT]; 4];
        d[a][1] = [c[lod::TOP_LEFT] - c[lod::BOTTOM_LEFT]; 4];
    }
    d
}

/// Interprets one lane's arguments for this texture's shape: the point to filter at, the cube
/// face, and the shadow reference.
fn lane_point(unit: &TextureUnit, a: [f32; 5], offset: [i32; 3]) -> (Point, Option<u32>, f32) {
    let [s, t, r, c0, c1] = a;
    let layers = unit.texture.layers;
    let mut p = Point { s, t, r, slice: 0, offset };
    match unit.texture.dim {
        Dim::Buffer | Dim::D1 => (p, None, r),
        Dim::D1Array => {
            p.slice = wrap::layer(t, layers);
            (p, None, r)
        }
        Dim::D2 | Dim::Rect | Dim::D2Msaa | Dim::D3 => (p, None, r),
        Dim::D2Array | Dim::D2ArrayMsaa => {
            p.slice = wrap::layer(r, layers);
            (p, None, c0)
        }
        Dim::Cube | Dim::CubeArray => {
            let (face, fs, ft) = cube::select_face(s, t, r);
            let (layer, reference) = if unit.texture.dim == Dim::CubeArray {
                (wrap::layer(c0, layers), c1)
            } else {
                (0, c0)
            };
            p.s = fs;
            p.t = ft;
            p.r = 0.0;
            p.slice = 6 * layer + face as i32;
            (p, Some(face), reference)
        }
    }
}

/// One lane of a gather: component `comp` (after the view swizzle) of the 2×2 footprint; with
/// depth comparison each texel is compared on its own (docs/textures.md "How a sample is computed": Shadow).
#[allow(clippy::too_many_arguments)]
fn gather_lane(
    unit: &TextureUnit,
    sampler: &SamplerState,
    lod: f32,
    p: &Point,
    comp: u32,
    reference: f32,
    trace: Option<&mut LaneTrace>,
    face: Option<u32>,
) -> [f32; 4] {
    let (levels, _, _) = filter::choose_levels(unit, sampler, lod, true);
    let level = levels[0].0;
    let mut taps = Taps::default();
    let texels = filter::gather_footprint(unit, sampler, level, p, &mut taps);
    let result = texels.map(|tx| {
        let v = unit.swizzle(tx)[comp.min(3) as usize];
        match sampler.compare {
            Some(func) => shadow::compare(func, reference, tx[0], unit.texture.format.kind()),
            None => v,
        }
    });
    if let Some(t) = trace {
        t.levels.push(super::trace::LevelTaps {
            level,
            weight: 1.0,
            face,
            taps: taps.as_slice().to_vec(),
        });
    }
    result
}

/// LODQ / textureQueryLod for a quad: `[x, y]` per lane where y is λ (bias included, before
/// clamping) and x the level actually used relative to the base level: clamped to the
/// sampler's range and to the view's levels, rounded for nearest mip filtering, 0 without
/// mipmapping (tgsi.rst LODQ; softpipe's `sp_tgsi_query_lod`).
pub fn query_lod(
    unit: &TextureUnit,
    sampler: &SamplerState,
    coords: &[[f32; 4]; 5],
) -> [[f32; 4]; 2] {
    let req = Request::new(*coords, Control::Implicit);
    let lambdas = lambda_per_lane(unit, sampler, &req);
    let levels = unit.view.last_level.saturating_sub(unit.view.first_level) as f32;
    // softpipe's `mip_rel_level_*`: none → 0, linear → clamped, nearest → (int)(x + 0.5)
    let used = lambdas.map(|l| {
        let clamped = clamp_lambda(sampler, l).clamp(0.0, levels);
        match sampler.mip_filter {
            super::sampler::MipFilter::None => 0.0,
            super::sampler::MipFilter::Linear => clamped,
            super::sampler::MipFilter::Nearest => ((clamped + 0.5) as i32) as f32,
        }
    });
    [used, lambdas]
}
