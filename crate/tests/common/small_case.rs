//! The 4x2 oracle cases (`tests/denormal-cases/`, `tests/int64-cases/`, …) compared channel by
//! channel: included by the native test binary and the browser's (`#[path]`), which render the
//! same cases. Ours has row 0 at the top, softpipe's row 0 at the bottom.

/// Every channel where our 4x2 picture and softpipe's differ in bits: `(column, row from the
/// top, channel, ours, softpipe's)`.
pub fn differing_channels(
    ours: &[[f32; 4]],
    theirs: &[[f32; 4]],
) -> Vec<(usize, usize, usize, u32, u32)> {
    let mut out = Vec::new();
    for y in 0..2usize {
        for x in 0..4usize {
            let (Some(a), Some(b)) = (ours.get(y * 4 + x), theirs.get((1 - y) * 4 + x)) else {
                continue;
            };
            for c in 0..4 {
                if a[c].to_bits() != b[c].to_bits() {
                    out.push((x, y, c, a[c].to_bits(), b[c].to_bits()));
                }
            }
        }
    }
    out
}
