//! Cube-map face selection (GL 4.6 §8.13 table 8.19, as softpipe's `convert_cube`, README
//! "Cube faces"): the largest-magnitude component of the direction picks the face, the other
//! two become (s, t) in [0, 1]. Ties prefer x, then y. Faces are numbered +X, −X, +Y, −Y, +Z, −Z.

/// Face index and face coordinates (s, t) for a direction.
pub fn select_face(rx: f32, ry: f32, rz: f32) -> (u32, f32, f32) {
    let (ax, ay, az) = (rx.abs(), ry.abs(), rz.abs());
    // The products are written in softpipe's order so the results round identically.
    if ax >= ay && ax >= az {
        let sign = if rx >= 0.0 { 1.0 } else { -1.0 };
        let face = if rx >= 0.0 { 0 } else { 1 };
        let ima = -0.5 / ax;
        (face, sign * rz * ima + 0.5, ry * ima + 0.5)
    } else if ay >= ax && ay >= az {
        let sign = if ry >= 0.0 { 1.0 } else { -1.0 };
        let face = if ry >= 0.0 { 2 } else { 3 };
        let ima = -0.5 / ay;
        (face, -rx * ima + 0.5, sign * -rz * ima + 0.5)
    } else {
        let sign = if rz >= 0.0 { 1.0 } else { -1.0 };
        let face = if rz >= 0.0 { 4 } else { 5 };
        let ima = -0.5 / az;
        (face, sign * -rx * ima + 0.5, ry * ima + 0.5)
    }
}

/// Face names in index order, for traces and docs.
pub const FACE_NAMES: [&str; 6] = ["+X", "-X", "+Y", "-Y", "+Z", "-Z"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_follow_the_gl_table() {
        // GL table: +X: sc = −rz, tc = −ry; s = (sc/|ma| + 1)/2
        assert_eq!(select_face(1.0, 0.5, -0.5), (0, 0.75, 0.25));
        // −X: sc = +rz, tc = −ry
        assert_eq!(select_face(-2.0, 0.0, 1.0), (1, 0.75, 0.5));
        // +Y: sc = +rx, tc = +rz
        assert_eq!(select_face(0.5, 1.0, 0.5), (2, 0.75, 0.75));
        // −Y: sc = +rx, tc = −rz
        assert_eq!(select_face(0.5, -1.0, 0.5), (3, 0.75, 0.25));
        // +Z: sc = +rx, tc = −ry
        assert_eq!(select_face(0.5, 0.5, 1.0), (4, 0.75, 0.25));
        // −Z: sc = −rx, tc = −ry
        assert_eq!(select_face(0.5, 0.5, -1.0), (5, 0.25, 0.25));
    }

    #[test]
    fn degenerate_directions_do_not_panic() {
        let (f, s, t) = select_face(0.0, 0.0, 0.0);
        assert_eq!(f, 0);
        assert!(s.is_nan() && t.is_nan());
        // NaN fails every comparison, so the z branch is taken: +Z for rz = 0
        assert_eq!(select_face(f32::NAN, 1.0, 0.0).0, 4);
    }
}
