//! Clipping of triangles against the view volume `−w ≤ x, y, z ≤ w` (GL's clip space, which is
//! what Gallium uses with `clip_halfz` off), by Sutherland–Hodgman on the polygon, every vertex
//! attribute interpolated linearly in clip space (which is what keeps perspective-correct
//! interpolation right after clipping).

/// A vertex in clip space with all its varyings (vertex-shader output registers).
#[derive(Clone, Debug, PartialEq)]
pub struct ClipVertex {
    pub pos: [f32; 4],
    pub attrs: Vec<[f32; 4]>,
}

/// Signed distances to the six planes; inside when every one is ≥ 0.
fn distances(p: &[f32; 4]) -> [f32; 6] {
    let [x, y, z, w] = *p;
    [w + x, w - x, w + y, w - y, w + z, w - z]
}

/// Whether Mesa's draw module counts a vertex as outside the view volume (draw_cliptest_tmp.h:
/// a plane's `w ± c < 0`; a NaN coordinate is outside no plane, unlike in [`clip_triangle`]).
pub fn outside_view(p: &[f32; 4]) -> bool {
    distances(p).iter().any(|d| *d < 0.0)
}

fn inside_all(p: &[f32; 4]) -> bool {
    distances(p).iter().all(|d| *d >= 0.0)
}

fn lerp_vertex(a: &ClipVertex, b: &ClipVertex, t: f32) -> ClipVertex {
    let mix =
        |u: &[f32; 4], v: &[f32; 4]| -> [f32; 4] { [0, 1, 2, 3].map(|c| u[c] + t * (v[c] - u[c])) };
    ClipVertex {
        pos: mix(&a.pos, &b.pos),
        attrs: a.attrs.iter().zip(b.attrs.iter()).map(|(u, v)| mix(u, v)).collect(),
    }
}

/// Clips one triangle; returns the clipped polygon (empty when nothing is visible, the input
/// itself when it is entirely inside). Vertex order, hence facing, is preserved.
pub fn clip_triangle(tri: [&ClipVertex; 3]) -> Vec<ClipVertex> {
    if tri.iter().all(|v| inside_all(&v.pos)) {
        return tri.iter().map(|v| (*v).clone()).collect();
    }
    let mut poly: Vec<ClipVertex> = tri.iter().map(|v| (*v).clone()).collect();
    for plane in 0..6 {
        if poly.is_empty() {
            break;
        }
        let mut out = Vec::with_capacity(poly.len() + 2);
        for i in 0..poly.len() {
            let a = &poly[i];
            let b = &poly[(i + 1) % poly.len()];
            let da = distances(&a.pos)[plane];
            let db = distances(&b.pos)[plane];
            // NaN distances count as outside, so bad positions disappear instead of spreading.
            let a_in = da >= 0.0;
            let b_in = db >= 0.0;
            if a_in {
                out.push(a.clone());
            }
            if a_in != b_in && da.is_finite() && db.is_finite() {
                let t = da / (da - db);
                out.push(lerp_vertex(a, b, t));
            }
        }
        poly = out;
    }
    if poly.len() < 3 {
        poly.clear();
    }
    poly
}

/// Splits a convex polygon into a fan of triangles (indices into the polygon).
pub fn fan(n: usize) -> impl Iterator<Item = [usize; 3]> {
    (1..n.saturating_sub(1)).map(|i| [0, i, i + 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32, z: f32, w: f32) -> ClipVertex {
        ClipVertex { pos: [x, y, z, w], attrs: vec![[x, y, z, w]] }
    }

    #[test]
    fn inside_triangle_is_unchanged() {
        let (a, b, c) = (v(0.0, 0.0, 0.0, 1.0), v(0.5, 0.0, 0.0, 1.0), v(0.0, 0.5, 0.0, 1.0));
        assert_eq!(clip_triangle([&a, &b, &c]), vec![a, b, c]);
    }

    #[test]
    fn fullscreen_triangle_becomes_the_viewport_square() {
        let (a, b, c) = (v(-1.0, -1.0, 0.0, 1.0), v(3.0, -1.0, 0.0, 1.0), v(-1.0, 3.0, 0.0, 1.0));
        let p = clip_triangle([&a, &b, &c]);
        let mut corners: Vec<[f32; 2]> = p.iter().map(|v| [v.pos[0], v.pos[1]]).collect();
        corners.sort_by(|a, b| a.partial_cmp(b).unwrap());
        corners.dedup();
        assert_eq!(corners, vec![[-1.0, -1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0]]);
    }

    #[test]
    fn entirely_outside_is_empty() {
        let (a, b, c) = (v(2.0, 2.0, 0.0, 1.0), v(3.0, 2.0, 0.0, 1.0), v(2.0, 3.0, 0.0, 1.0));
        assert!(clip_triangle([&a, &b, &c]).is_empty());
    }
}
