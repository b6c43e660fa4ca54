//! Triangle set-up: facing, plane equations of attributes, and fixed-point edge functions with
//! a top-left fill rule.
//!
//! The coefficient formulas are softpipe's (`sp_setup.c`, summarised in docs/render.md): the
//! vertices are sorted by window y into min/mid/max, the "bottom" edge is mid−min, the "major"
//! edge max−min, and for values v(min), v(mid), v(max)
//! `dadx = (ebot.dy·(vmax−vmin) − (vmid−vmin)·emaj.dy) / area`,
//! `dady = (emaj.dx·(vmid−vmin) − (vmax−vmin)·ebot.dx) / area`,
//! `a0 = vmin − (dadx·(xmin − ½) + dady·(ymin − ½))`, so that evaluating at integer (x, y)
//! gives the value at the pixel centre (x+½, y+½). Matching the operation order keeps the
//! conformance suite bit-exact.

/// Sub-pixel precision of the rasterizer: window coordinates are snapped to 1/256 pixel, so the
/// edge functions are exact integers and two triangles sharing an edge never both (or neither)
/// cover a pixel centre on it.
pub const SUBPIXEL_BITS: u32 = 8;
const SUBPIXEL: f32 = (1 << SUBPIXEL_BITS) as f32;
/// Largest window coordinate accepted by the fixed-point rasterizer (clipping keeps vertices
/// inside the viewport, so this only guards against absurd viewport sizes).
const MAX_COORD: f32 = (1 << 20) as f32;

/// A vertex after the viewport transform: window x, y (row 0 = bottom), depth z in [0, 1] and
/// 1/w of the clip-space position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindowPos {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub inv_w: f32,
}

/// One edge function `E(p) = a·px + b·py + c` in 1/256-pixel units; inside when `E > 0`, or
/// `E == 0` on a top or left edge.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    pub a: i64,
    pub b: i64,
    pub c: i64,
    /// 0 for top/left edges (a centre exactly on them is inside), 1 otherwise.
    pub bias: i64,
}

impl Edge {
    /// Whether the pixel centre of (px, py) is inside this edge.
    #[inline]
    pub fn inside(&self, px: i64, py: i64) -> bool {
        let fx = px * (1 << SUBPIXEL_BITS) + (1 << (SUBPIXEL_BITS - 1));
        let fy = py * (1 << SUBPIXEL_BITS) + (1 << (SUBPIXEL_BITS - 1));
        self.a * fx + self.b * fy + self.c - self.bias >= 0
    }
}

/// A set-up triangle, ready for rasterization and attribute planes.
#[derive(Clone, Debug)]
pub struct Triangle {
    /// Original vertex indices (0..3) sorted by window y: min, mid, max.
    order: [usize; 3],
    pos: [WindowPos; 3],
    ebot: (f32, f32),
    emaj: (f32, f32),
    one_over_area: f32,
    /// Counter-clockwise in window space with y up (GL's default front face).
    pub front: bool,
    pub edges: [Edge; 3],
    /// Inclusive pixel bounding box (unclamped): x0, y0, x1, y1.
    pub bbox: [i64; 4],
}

/// Sorts three y values as softpipe does (ties resolved in the same order).
fn sort_by_y(y: [f32; 3]) -> [usize; 3] {
    if y[0] <= y[1] {
        if y[1] <= y[2] {
            [0, 1, 2]
        } else if y[2] <= y[0] {
            [2, 0, 1]
        } else {
            [0, 2, 1]
        }
    } else if y[0] <= y[2] {
        [1, 0, 2]
    } else if y[2] <= y[1] {
        [2, 1, 0]
    } else {
        [1, 2, 0]
    }
}

fn snap(v: f32) -> i64 {
    (v * SUBPIXEL).round() as i64
}

impl Triangle {
    /// Sets up a triangle; `None` for degenerate (zero-area), non-finite or absurdly large ones.
    pub fn new(pos: [WindowPos; 3]) -> Option<Triangle> {
        if pos.iter().any(|p| {
            !(p.x.is_finite() && p.y.is_finite() && p.x.abs() < MAX_COORD && p.y.abs() < MAX_COORD)
        }) {
            return None;
        }
        let order = sort_by_y([pos[0].y, pos[1].y, pos[2].y]);
        let [vmin, vmid, vmax] = order.map(|i| pos[i]);
        let ebot = (vmid.x - vmin.x, vmid.y - vmin.y);
        let emaj = (vmax.x - vmin.x, vmax.y - vmin.y);
        let area = emaj.0 * ebot.1 - ebot.0 * emaj.1;
        let one_over_area = 1.0 / area;
        if !one_over_area.is_finite() {
            return None;
        }
        // Facing from the original order: cross product of (v0 − v2) and (v1 − v2).
        let (ex, ey) = (pos[0].x - pos[2].x, pos[0].y - pos[2].y);
        let (fx, fy) = (pos[1].x - pos[2].x, pos[1].y - pos[2].y);
        let det = ex * fy - ey * fx;
        let front = det > 0.0;

        // Fixed-point edges, oriented counter-clockwise so that inside is E > 0.
        let mut p: Vec<(i64, i64)> = pos.iter().map(|v| (snap(v.x), snap(v.y))).collect();
        let fixed_det =
            (p[1].0 - p[0].0) * (p[2].1 - p[0].1) - (p[1].1 - p[0].1) * (p[2].0 - p[0].0);
        if fixed_det == 0 {
            return None;
        }
        if fixed_det < 0 {
            p.swap(1, 2);
        }
        let mut edges = [Edge { a: 0, b: 0, c: 0, bias: 0 }; 3];
        for (k, e) in edges.iter_mut().enumerate() {
            let (ax, ay) = p[k];
            let (bx, by) = p[(k + 1) % 3];
            let (dx, dy) = (bx - ax, by - ay);
            // E(q) = dx·(qy − ay) − dy·(qx − ax): positive on the left of a→b (the inside of a
            // counter-clockwise triangle with y up).
            *e = Edge { a: -dy, b: dx, c: dy * ax - dx * ay, bias: 0 };
            // Top-left rule in picture terms (y up): a left edge runs downwards, a top edge is
            // horizontal and runs right to left.
            let top_left = dy < 0 || (dy == 0 && dx < 0);
            e.bias = if top_left { 0 } else { 1 };
        }
        let minx = pos.iter().map(|v| v.x).fold(f32::INFINITY, f32::min);
        let maxx = pos.iter().map(|v| v.x).fold(f32::NEG_INFINITY, f32::max);
        let miny = pos.iter().map(|v| v.y).fold(f32::INFINITY, f32::min);
        let maxy = pos.iter().map(|v| v.y).fold(f32::NEG_INFINITY, f32::max);
        let bbox = [
            (minx.floor() as i64) - 1,
            (miny.floor() as i64) - 1,
            maxx.ceil() as i64,
            maxy.ceil() as i64,
        ];
        Some(Triangle { order, pos, ebot, emaj, one_over_area, front, edges, bbox })
    }

    /// Whether the centre of pixel (x, y) is covered.
    #[inline]
    pub fn covers(&self, x: i64, y: i64) -> bool {
        self.edges.iter().all(|e| e.inside(x, y))
    }

    /// Plane of a screen-linear value given at the three vertices (original order).
    pub fn linear(&self, v: [f32; 3]) -> crate::render::interp::Coef {
        let [a, b, c] = self.order.map(|i| v[i]);
        self.plane(a, b, c)
    }

    /// Plane of value·(1/w) for perspective-correct interpolation (original vertex order).
    pub fn perspective(&self, v: [f32; 3]) -> crate::render::interp::Coef {
        let [i0, i1, i2] = self.order;
        let a = v[i0] * self.pos[i0].inv_w;
        let b = v[i1] * self.pos[i1].inv_w;
        let c = v[i2] * self.pos[i2].inv_w;
        self.plane(a, b, c)
    }

    /// Plane of the window depth.
    pub fn depth(&self) -> crate::render::interp::Coef {
        self.linear(self.pos.map(|p| p.z))
    }

    /// Plane of 1/w.
    pub fn inv_w(&self) -> crate::render::interp::Coef {
        self.linear(self.pos.map(|p| p.inv_w))
    }

    fn plane(&self, vmin: f32, vmid: f32, vmax: f32) -> crate::render::interp::Coef {
        let botda = vmid - vmin;
        let majda = vmax - vmin;
        let a = self.ebot.1 * majda - botda * self.emaj.1;
        let b = self.emaj.0 * botda - majda * self.ebot.0;
        let dadx = a * self.one_over_area;
        let dady = b * self.one_over_area;
        let p = self.pos[self.order[0]];
        let a0 = vmin - (dadx * (p.x - 0.5) + dady * (p.y - 0.5));
        crate::render::interp::Coef { a0, dadx, dady }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wp(x: f32, y: f32) -> WindowPos {
        WindowPos { x, y, z: 0.5, inv_w: 1.0 }
    }

    #[test]
    fn counter_clockwise_is_front() {
        let t = Triangle::new([wp(0.0, 0.0), wp(4.0, 0.0), wp(0.0, 4.0)]).unwrap();
        assert!(t.front);
        let t = Triangle::new([wp(0.0, 0.0), wp(0.0, 4.0), wp(4.0, 0.0)]).unwrap();
        assert!(!t.front);
    }

    #[test]
    fn plane_reproduces_vertex_values_at_centres() {
        // Value = x + 2y (hand formula) sampled at the vertices; the plane evaluated at integer
        // (x, y) must give the value at the centre (x + 0.5) + 2(y + 0.5).
        let t = Triangle::new([wp(0.0, 0.0), wp(8.0, 0.0), wp(0.0, 8.0)]).unwrap();
        let c = t.linear([0.0, 8.0, 16.0]);
        assert_eq!(c.dadx, 1.0);
        assert_eq!(c.dady, 2.0);
        assert_eq!(c.quad(2.0, 3.0)[0], 2.5 + 2.0 * 3.5);
    }

    #[test]
    fn degenerate_triangles_are_rejected() {
        assert!(Triangle::new([wp(0.0, 0.0), wp(1.0, 1.0), wp(2.0, 2.0)]).is_none());
        assert!(Triangle::new([wp(f32::NAN, 0.0), wp(1.0, 1.0), wp(2.0, 0.0)]).is_none());
    }
}
