//! Built-in meshes. Attribute `n` of a vertex is the vertex shader's `IN[n]`. Layouts (also in
//! docs/render.md):
//! - `fullscreen`: one triangle, `IN[0]` = clip position (x, y, 0, 1) at (−1,−1), (3,−1), (−1,3).
//! - `quad`: two triangles covering clip space, `IN[0]` = (x, y, 0, 1), `IN[1]` = uv (u, v, 0, 1)
//!   with (0, 0) at the bottom-left corner.
//! - `cube`: 36 vertices (12 counter-clockwise triangles seen from outside), edge length 1
//!   centred on the origin; `IN[0]` = position (x, y, z, 1), `IN[1]` = outward normal
//!   (nx, ny, nz, 0), `IN[2]` = uv of the face (u, v, 0, 1).
//! - `sphere`: radius 1 centred on the origin, 16 stacks × 32 slices; `IN[0]` = position,
//!   `IN[1]` = normal (= position, w = 0), `IN[2]` = uv (u around from +x, v from the −y pole).

/// How the index list forms triangles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topology {
    TriangleList,
    TriangleStrip,
    TriangleFan,
}

/// Vertex data: `vertices[v * attributes + a]` is attribute `a` of vertex `v`.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    pub name: &'static str,
    pub attributes: usize,
    pub vertices: Vec<[f32; 4]>,
    pub indices: Vec<u32>,
    pub topology: Topology,
    /// Whether drawing it needs the depth test (closed 3-D meshes).
    pub wants_depth: bool,
}

impl Mesh {
    pub fn vertex_count(&self) -> usize {
        self.vertices.len().checked_div(self.attributes).unwrap_or(0)
    }

    /// The triangles as triples of vertex indices, in submission order, with the winding of
    /// strips corrected so that every triangle keeps the orientation of the first.
    pub fn triangles(&self) -> Vec<[u32; 3]> {
        let ix = &self.indices;
        match self.topology {
            Topology::TriangleList => ix.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(),
            Topology::TriangleStrip => (2..ix.len())
                .map(|i| {
                    if i % 2 == 0 {
                        [ix[i - 2], ix[i - 1], ix[i]]
                    } else {
                        [ix[i - 1], ix[i - 2], ix[i]]
                    }
                })
                .collect(),
            Topology::TriangleFan => (2..ix.len()).map(|i| [ix[0], ix[i - 1], ix[i]]).collect(),
        }
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
    Mesh {
        name: "fullscreen",
        attributes: 1,
        vertices: vec![[-1.0, -1.0, 0.0, 1.0], [3.0, -1.0, 0.0, 1.0], [-1.0, 3.0, 0.0, 1.0]],
        indices: vec![0, 1, 2],
        topology: Topology::TriangleList,
        wants_depth: false,
    }
}

pub fn quad() -> Mesh {
    let corners = [[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]];
    let mut vertices = Vec::new();
    for [x, y] in corners {
        vertices.push([x, y, 0.0, 1.0]);
        vertices.push([x * 0.5 + 0.5, y * 0.5 + 0.5, 0.0, 1.0]);
    }
    Mesh {
        name: "quad",
        attributes: 2,
        vertices,
        indices: vec![0, 1, 2, 3],
        topology: Topology::TriangleStrip,
        wants_depth: false,
    }
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
    Mesh {
        name: "cube",
        attributes: 3,
        vertices,
        indices,
        topology: Topology::TriangleList,
        wants_depth: true,
    }
}

pub fn sphere(stacks: u32, slices: u32) -> Mesh {
    let mut vertices = Vec::new();
    for i in 0..=stacks {
        let v = i as f32 / stacks as f32;
        let theta = v * std::f32::consts::PI; // from the −y pole
        for j in 0..=slices {
            let u = j as f32 / slices as f32;
            let phi = u * 2.0 * std::f32::consts::PI;
            let (x, y, z) = (theta.sin() * phi.cos(), -theta.cos(), -theta.sin() * phi.sin());
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
    Mesh {
        name: "sphere",
        attributes: 3,
        vertices,
        indices,
        topology: Topology::TriangleList,
        wants_depth: true,
    }
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
        let m =
            Mesh { topology: Topology::TriangleFan, indices: vec![0, 1, 2, 3, 4], ..fullscreen() };
        assert_eq!(m.triangles(), vec![[0, 1, 2], [0, 2, 3], [0, 3, 4]]);
    }

    #[test]
    fn strip_keeps_orientation() {
        let q = quad();
        let t = q.triangles();
        assert_eq!(t, vec![[0, 1, 2], [2, 1, 3]]);
    }
}
