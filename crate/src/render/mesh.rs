//! Meshes: vertices, the draws that make triangles of them, the front face and the provoking
//! vertex. Attribute `n` of a vertex is the vertex shader's `IN[n]`. Vertices files become
//! meshes in `render::vertices`; the built-in meshes are drawn as one run each, counter-clockwise
//! front faces, the last vertex provoking. Their layouts (also in docs/render.md):
//! - `fullscreen`: one triangle, `IN[0]` = clip position (x, y, 0, 1) at (−1,−1), (3,−1), (−1,3).
//! - `quad`: two triangles covering clip space, `IN[0]` = (x, y, 0, 1), `IN[1]` = uv (u, v, 0, 1)
//!   with (0, 0) at the bottom-left corner.
//! - `cube`: 36 vertices (12 counter-clockwise triangles seen from outside), edge length 1
//!   centred on the origin; `IN[0]` = position (x, y, z, 1), `IN[1]` = outward normal
//!   (nx, ny, nz, 0), `IN[2]` = uv of the face (u, v, 0, 1).
//! - `sphere`: radius 1 centred on the origin, 16 stacks × 32 slices; `IN[0]` = position,
//!   `IN[1]` = normal (= position, w = 0), `IN[2]` = uv (u around from +x, v from the −y pole).

/// How a draw's run of indices forms triangles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topology {
    TriangleList,
    TriangleStrip,
    TriangleFan,
}

/// One draw: `count` entries of [`Mesh::indices`] from `first`, taken as `topology`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    pub topology: Topology,
    pub first: usize,
    pub count: usize,
}

/// The winding that faces the viewer (GL's `glFrontFace`), in the picture with y up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontFace {
    Ccw,
    Cw,
}

/// The vertex whose outputs flat (CONSTANT) inputs read (GL's `glProvokingVertex`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provoking {
    First,
    Last,
}

impl Provoking {
    /// Where the provoking vertex sits in the triples of [`Mesh::draw_triangles`].
    pub fn position(self) -> usize {
        match self {
            Provoking::First => 0,
            Provoking::Last => 2,
        }
    }
}

/// Positions (in a draw's run of indices) of triangle `t` of `topology`, in the order Mesa's
/// draw module hands them to the rasterizer: the provoking vertex first or last, and every
/// triangle of a strip or fan with the winding of the first. The order matters beyond winding:
/// it decides ties when set-up sorts the vertices by y, hence the last bits of interpolated
/// values.
pub fn triangle_order(topology: Topology, provoking: Provoking, t: usize) -> [usize; 3] {
    let odd = t & 1;
    match (topology, provoking) {
        (Topology::TriangleList, _) => [3 * t, 3 * t + 1, 3 * t + 2],
        (Topology::TriangleStrip, Provoking::Last) => [t + odd, t + 1 - odd, t + 2],
        (Topology::TriangleStrip, Provoking::First) => [t, t + 1 + odd, t + 2 - odd],
        (Topology::TriangleFan, Provoking::Last) => [0, t + 1, t + 2],
        (Topology::TriangleFan, Provoking::First) => [t + 1, t + 2, 0],
    }
}

/// How many triangles a run of `count` indices makes.
pub fn triangle_count(topology: Topology, count: usize) -> usize {
    match topology {
        Topology::TriangleList => count / 3,
        Topology::TriangleStrip | Topology::TriangleFan => count.saturating_sub(2),
    }
}

/// Vertex data: `vertices[v * attributes + a]` is attribute `a` of vertex `v`, drawn by
/// `draws` in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    pub name: &'static str,
    pub attributes: usize,
    pub vertices: Vec<[f32; 4]>,
    pub indices: Vec<u32>,
    pub draws: Vec<Draw>,
    pub front_face: FrontFace,
    pub provoking: Provoking,
    /// Whether drawing it needs the depth test (closed 3-D meshes).
    pub wants_depth: bool,
}

impl Mesh {
    /// A mesh drawn as one run of `topology` over all its indices, counter-clockwise front
    /// faces, the last vertex provoking, no depth test.
    pub fn new(
        name: &'static str,
        attributes: usize,
        vertices: Vec<[f32; 4]>,
        indices: Vec<u32>,
        topology: Topology,
    ) -> Mesh {
        let draws = vec![Draw { topology, first: 0, count: indices.len() }];
        Mesh {
            name,
            attributes,
            vertices,
            indices,
            draws,
            front_face: FrontFace::Ccw,
            provoking: Provoking::Last,
            wants_depth: false,
        }
    }

    pub fn vertex_count(&self) -> usize {
        self.vertices.len().checked_div(self.attributes).unwrap_or(0)
    }

    /// The triangles of one draw as triples of vertex indices, in submission order (see
    /// [`triangle_order`]); the provoking vertex is at `self.provoking.position()`.
    pub fn draw_triangles(&self, draw: &Draw) -> impl Iterator<Item = [u32; 3]> + '_ {
        let run = draw
            .first
            .checked_add(draw.count)
            .and_then(|end| self.indices.get(draw.first..end))
            .unwrap_or_default();
        let (topology, provoking) = (draw.topology, self.provoking);
        (0..triangle_count(topology, run.len())).filter_map(move |t| {
            let [a, b, c] = triangle_order(topology, provoking, t);
            Some([*run.get(a)?, *run.get(b)?, *run.get(c)?])
        })
    }

    /// The triangles of every draw, in order.
    pub fn triangles(&self) -> Vec<[u32; 3]> {
        self.draws.iter().flat_map(|d| self.draw_triangles(d)).collect()
    }

    /// Looks a built-in mesh up by name.
    pub fn builtin(name: &str) -> Option<Mesh> {
        match name {
            "fullscreen" => Some(fullscreen()),
            "quad" => Some(quad()),
            "cube" => Some(cube()),
            "sphere" => Some(sphere(16, 32)),
            _ => None,
        }
    }
}

/// The names accepted by [`Mesh::builtin`].
pub const BUILTIN_MESHES: &[&str] = &["fullscreen", "quad", "cube", "sphere"];

pub fn fullscreen() -> Mesh {
    Mesh::new(
        "fullscreen",
        1,
        vec![[-1.0, -1.0, 0.0, 1.0], [3.0, -1.0, 0.0, 1.0], [-1.0, 3.0, 0.0, 1.0]],
        vec![0, 1, 2],
        Topology::TriangleList,
    )
}

pub fn quad() -> Mesh {
    let corners = [[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]];
    let mut vertices = Vec::new();
    for [x, y] in corners {
        vertices.push([x, y, 0.0, 1.0]);
        vertices.push([x * 0.5 + 0.5, y * 0.5 + 0.5, 0.0, 1.0]);
    }
    Mesh::new("quad", 2, vertices, vec![0, 1, 2, 3], Topology::TriangleStrip)
}

pub fn cube() -> Mesh {
    // Each face: outward normal n and two in-plane axes (u, v) with u × v = n, so the corners
    // c ± u/2 ± v/2 listed (−,−), (+,−), (+,+), (−,+) run counter-clockwise seen from outside.
    let faces: [([f32; 3], [f32; 3], [f32; 3]); 6] = [
        ([1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]),
        ([-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]),
        ([0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]),
        ([0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
        ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        ([0.0, 0.0, -1.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
    ];
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for (n, u, v) in faces {
        let base = (vertices.len() / 3) as u32;
        for (su, sv) in [(-1.0f32, -1.0f32), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            let p = [0, 1, 2].map(|k| 0.5 * n[k] + 0.5 * su * u[k] + 0.5 * sv * v[k]);
            vertices.push([p[0], p[1], p[2], 1.0]);
            vertices.push([n[0], n[1], n[2], 0.0]);
            vertices.push([su * 0.5 + 0.5, sv * 0.5 + 0.5, 0.0, 1.0]);
        }
        indices.extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    Mesh { wants_depth: true, ..Mesh::new("cube", 3, vertices, indices, Topology::TriangleList) }
}

pub fn sphere(stacks: u32, slices: u32) -> Mesh {
    let mut vertices = Vec::new();
    for i in 0..=stacks {
        let v = i as f32 / stacks as f32;
        let theta = v * std::f32::consts::PI; // from the −y pole
        for j in 0..=slices {
            let u = j as f32 / slices as f32;
            let phi = u * 2.0 * std::f32::consts::PI;
            // The engine's SIN and COS (glibc's bits on every host): the same sphere natively
            // and in the browser.
            use crate::exec::ops::trig::{cos, sin};
            let (x, y, z) = (sin(theta) * cos(phi), -cos(theta), -sin(theta) * sin(phi));
            vertices.push([x, y, z, 1.0]);
            vertices.push([x, y, z, 0.0]);
            vertices.push([u, v, 0.0, 1.0]);
        }
    }
    let row = slices + 1;
    let mut indices = Vec::new();
    for i in 0..stacks {
        for j in 0..slices {
            let (a, b) = (i * row + j, i * row + j + 1);
            let (c, d) = ((i + 1) * row + j, (i + 1) * row + j + 1);
            // Counter-clockwise seen from outside (u runs towards −z from +x, v upwards).
            indices.extend_from_slice(&[a, b, d, a, d, c]);
        }
    }
    Mesh { wants_depth: true, ..Mesh::new("sphere", 3, vertices, indices, Topology::TriangleList) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }

    fn outward_ok(m: &Mesh) {
        for t in m.triangles() {
            let p = t.map(|i| m.vertices[i as usize * m.attributes]);
            let e1 = [0, 1, 2].map(|k| p[1][k] - p[0][k]);
            let e2 = [0, 1, 2].map(|k| p[2][k] - p[0][k]);
            let n = cross(e1, e2);
            let c = [0, 1, 2].map(|k| (p[0][k] + p[1][k] + p[2][k]) / 3.0);
            let dot = n[0] * c[0] + n[1] * c[1] + n[2] * c[2];
            // Skip the sliver triangles at the poles of the sphere (zero area).
            let area2 = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            if area2 > 1e-6 {
                assert!(dot > 0.0, "{}: triangle {:?} faces inwards", m.name, t);
            }
        }
    }

    #[test]
    fn closed_meshes_wind_counter_clockwise_from_outside() {
        outward_ok(&cube());
        outward_ok(&sphere(8, 12));
    }

    #[test]
    fn fans_share_the_first_vertex() {
        let m = Mesh::new("fan", 1, vec![], vec![0, 1, 2, 3, 4], Topology::TriangleFan);
        assert_eq!(m.triangles(), vec![[0, 1, 2], [0, 2, 3], [0, 3, 4]]);
        // First-vertex convention: the first vertex after the hub leads (Mesa's order).
        let m = Mesh { provoking: Provoking::First, ..m };
        assert_eq!(m.triangles(), vec![[1, 2, 0], [2, 3, 0], [3, 4, 0]]);
    }

    #[test]
    fn strips_put_the_provoking_vertex_first_or_last() {
        // GL: strip triangle t has vertices t, t+1, t+2; the provoking one is t (first
        // convention) or t+2 (last), and odd triangles swap the other two to keep the winding.
        let m = Mesh::new("strip", 1, vec![], vec![0, 1, 2, 3, 4], Topology::TriangleStrip);
        assert_eq!(m.triangles(), vec![[0, 1, 2], [2, 1, 3], [2, 3, 4]]);
        let m = Mesh { provoking: Provoking::First, ..m };
        assert_eq!(m.triangles(), vec![[0, 1, 2], [1, 3, 2], [2, 3, 4]]);
    }

    #[test]
    fn draws_take_their_own_run_of_indices() {
        // Two draws over a shared index list: a list from index 1 (one whole triangle, the
        // leftover index ignored) and a fan of the last four.
        let mut m = Mesh::new("two", 1, vec![], (0..9).collect(), Topology::TriangleList);
        m.draws = vec![
            Draw { topology: Topology::TriangleList, first: 1, count: 4 },
            Draw { topology: Topology::TriangleFan, first: 5, count: 4 },
            // Past the end: nothing, never a panic.
            Draw { topology: Topology::TriangleList, first: 8, count: 3 },
        ];
        assert_eq!(m.triangles(), vec![[1, 2, 3], [5, 6, 7], [5, 7, 8]]);
    }

    #[test]
    fn strip_keeps_orientation() {
        let q = quad();
        let t = q.triangles();
        assert_eq!(t, vec![[0, 1, 2], [2, 1, 3]]);
    }
}
