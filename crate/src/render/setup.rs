//! Triangle set-up: facing, plane equations of attributes, and the rows and columns a triangle
//! covers, all as softpipe's `sp_setup.c` computes them (summarised in docs/render.md), so that
//! the conformance suite is bit-exact, edge pixels included.
//!
//! The vertices are sorted by window y into min/mid/max, the "bottom" edge is mid−min, the
//! "major" edge max−min, the "top" edge max−mid. For values v(min), v(mid), v(max)
//! `dadx = (ebot.dy·(vmax−vmin) − (vmid−vmin)·emaj.dy) / area`,
//! `dady = (emaj.dx·(vmid−vmin) − (vmax−vmin)·ebot.dx) / area`,
//! `a0 = vmin − (dadx·(xmin − ½) + dady·(ymin − ½))`, so that evaluating at integer (x, y)
//! gives the value at the pixel centre (x+½, y+½).
//!
//! Coverage is scan conversion: row r is covered when its centre r+½ lies in [ymin, ymax), and
//! on it the pixels whose centre is right of the left edge and not right of the right edge
//! (`left < x+½ ≤ right`), with each edge's x at the row found by softpipe's float arithmetic
//! (`(int)(sx + y·dx/dy)`). Two triangles sharing an edge therefore cover each pixel centre on
//! it once (up to that arithmetic, as in softpipe).

/// Largest window coordinate accepted (clipping keeps vertices inside the viewport, so this
/// only guards the conversions to integers against absurd viewport sizes).
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

/// One edge as the scan conversion walks it: its x at the first row's centre (plus ½) and its
/// step per row.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct ScanEdge {
    sx: f32,
    dxdy: f32,
}

impl ScanEdge {
    /// softpipe's `setup_tri_edges`: the edge from `from` with steps `(dx, dy)`, starting at the
    /// first row whose centre is at or above `from`.
    fn new(from: WindowPos, dx: f32, dy: f32) -> (ScanEdge, f32) {
        let x = from.x + 0.5;
        let y = from.y - 0.5;
        let sy = y.ceil();
        let dxdy = if dy != 0.0 { dx / dy } else { 0.0 };
        (ScanEdge { sx: x + (sy - y) * dxdy, dxdy }, sy)
    }

    /// The first pixel column at or right of the edge on row `y` (counted from the edge's first
    /// row); a float-to-int conversion that truncates, as C's `(int)`.
    #[inline]
    fn column(&self, y: i64) -> i64 {
        (self.sx + y as f32 * self.dxdy) as i64
    }
}

/// The two halves of a triangle's scan conversion: rows `start..start + lines`, between a left
/// and a right edge.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Half {
    start: i64,
    lines: i64,
    left: ScanEdge,
    right: ScanEdge,
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
    /// The lower half (rows from ymin to ymid) and the upper half (ymid to ymax).
    halves: [Half; 2],
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

impl Triangle {
    /// Sets up a triangle; `None` for degenerate (zero-area), non-finite or absurdly large ones.
    pub fn new(pos: [WindowPos; 3]) -> Option<Triangle> {
        if pos.iter().any(|p| {
            !(p.x.is_finite() && p.y.is_finite() && p.x.abs() < MAX_COORD && p.y.abs() < MAX_COORD)
        }) {
            return None;
        }
        // Facing from the original order: cross product of (v0 − v2) and (v1 − v2); zero is a
        // degenerate triangle, which softpipe culls.
        let (ex, ey) = (pos[0].x - pos[2].x, pos[0].y - pos[2].y);
        let (fx, fy) = (pos[1].x - pos[2].x, pos[1].y - pos[2].y);
        let det = ex * fy - ey * fx;
        if det == 0.0 {
            return None;
        }
        let front = det > 0.0;
        let order = sort_by_y([pos[0].y, pos[1].y, pos[2].y]);
        let [vmin, vmid, vmax] = order.map(|i| pos[i]);
        let ebot = (vmid.x - vmin.x, vmid.y - vmin.y);
        let emaj = (vmax.x - vmin.x, vmax.y - vmin.y);
        let etop = (vmax.x - vmid.x, vmax.y - vmid.y);
        let area = emaj.0 * ebot.1 - ebot.0 * emaj.1;
        let one_over_area = 1.0 / area;
        if !one_over_area.is_finite() {
            return None;
        }

        // Scan conversion (`setup_tri_edges` and `subtriangle`): the major edge runs the whole
        // height, the bottom and top edges one half each; the major edge is on the left when
        // the area is negative. The major edge's start moves up by the lower half's rows.
        let (maj, maj_sy) = ScanEdge::new(vmin, emaj.0, emaj.1);
        let (bot, bot_sy) = ScanEdge::new(vmin, ebot.0, ebot.1);
        let (top, top_sy) = ScanEdge::new(vmid, etop.0, etop.1);
        let bot_lines = ((vmid.y - 0.5) - bot_sy).ceil() as i64;
        let top_lines = ((vmax.y - 0.5) - top_sy).ceil() as i64;
        let maj_upper = ScanEdge { sx: maj.sx + bot_lines as f32 * maj.dxdy, dxdy: maj.dxdy };
        let maj_upper_sy = maj_sy + bot_lines as f32;
        let major_left = one_over_area < 0.0;
        let half = |major: ScanEdge, major_sy: f32, other: ScanEdge, other_sy: f32, lines| {
            let (left, right, sy) =
                if major_left { (major, other, major_sy) } else { (other, major, other_sy) };
            Half { start: sy as i64, lines, left, right }
        };
        let halves = [
            half(maj, maj_sy, bot, bot_sy, bot_lines),
            half(maj_upper, maj_upper_sy, top, top_sy, top_lines),
        ];
        Some(Triangle { order, pos, ebot, emaj, one_over_area, front, halves })
    }

    /// The window rows the triangle may cover: `start..end`.
    pub fn rows(&self) -> (i64, i64) {
        let [lower, upper] = self.halves;
        (lower.start.min(upper.start), (lower.start + lower.lines).max(upper.start + upper.lines))
    }

    /// The pixel columns `left..right` covered on window row `row`, if any.
    #[inline]
    pub fn span(&self, row: i64) -> Option<(i64, i64)> {
        let h = self.halves.iter().find(|h| row >= h.start && row < h.start + h.lines)?;
        let y = row - h.start;
        let (left, right) = (h.left.column(y), h.right.column(y));
        (left < right).then_some((left, right))
    }

    /// Whether the centre of pixel (x, y) is covered.
    #[inline]
    pub fn covers(&self, x: i64, y: i64) -> bool {
        self.span(y).is_some_and(|(l, r)| x >= l && x < r)
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
    fn rows_take_the_bottom_edge_and_columns_the_right_edge() {
        // A right triangle with corners on pixel centres' grid lines: (1.5, 1.5), (5.5, 1.5),
        // (1.5, 5.5). Row centres y+½ in [1.5, 5.5): rows 1..5. On row 1 (centre 1.5) the
        // left edge x = 1.5 excludes column 1 (centre 1.5 is not right of it) and the
        // hypotenuse x = 5.5 includes column 5 (centre 5.5 is not right of it): columns 2..6.
        let t = Triangle::new([wp(1.5, 1.5), wp(5.5, 1.5), wp(1.5, 5.5)]).unwrap();
        assert_eq!(t.rows(), (1, 5));
        assert_eq!(t.span(1), Some((2, 6)));
        // Row 4, centre 4.5: the hypotenuse is at x = 7 − 4.5 = 2.5, column 2 (centre 2.5).
        assert_eq!(t.span(4), Some((2, 3)));
        assert_eq!(t.span(5), None);
        assert_eq!(t.span(0), None);
    }

    #[test]
    fn degenerate_triangles_are_rejected() {
        assert!(Triangle::new([wp(0.0, 0.0), wp(1.0, 1.0), wp(2.0, 2.0)]).is_none());
        assert!(Triangle::new([wp(f32::NAN, 0.0), wp(1.0, 1.0), wp(2.0, 0.0)]).is_none());
    }
}
