//! Depth comparison for SHADOW targets (tgsi.rst TEX: "shadow comparison"; docs/textures.md "How a sample is computed": Shadow).
//! softpipe filters the depth texels first and compares the filtered depth with the reference,
//! so the result is always 0 or 1; gathers compare each texel on its own.

use super::format::Kind;
use super::sampler::CompareFunc;

/// 1.0 if `reference OP texel` holds, else 0.0. The reference is clamped to [0, 1] for
/// normalised depth formats only (float depth is compared as given).
pub fn compare(func: CompareFunc, reference: f32, texel: f32, kind: Kind) -> f32 {
    let r = if matches!(kind, Kind::Unorm16 | Kind::Unorm8) {
        reference.clamp(0.0, 1.0)
    } else {
        reference
    };
    let pass = match func {
        CompareFunc::Never => false,
        CompareFunc::Less => r < texel,
        CompareFunc::Equal => r == texel,
        CompareFunc::LessEqual => r <= texel,
        CompareFunc::Greater => r > texel,
        CompareFunc::NotEqual => r != texel,
        CompareFunc::GreaterEqual => r >= texel,
        CompareFunc::Always => true,
    };
    if pass {
        1.0
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_function_by_hand() {
        use CompareFunc::*;
        let cases = [
            (Never, [0.0, 0.0, 0.0]),
            (Less, [1.0, 0.0, 0.0]),
            (Equal, [0.0, 1.0, 0.0]),
            (LessEqual, [1.0, 1.0, 0.0]),
            (Greater, [0.0, 0.0, 1.0]),
            (NotEqual, [1.0, 0.0, 1.0]),
            (GreaterEqual, [0.0, 1.0, 1.0]),
            (Always, [1.0, 1.0, 1.0]),
        ];
        // texel 0.5 against references below, equal and above
        for (f, want) in cases {
            let got = [0.25, 0.5, 0.75].map(|r| compare(f, r, 0.5, Kind::Float));
            assert_eq!(got, want, "{f:?}");
        }
    }

    #[test]
    fn reference_clamped_for_unorm_only() {
        assert_eq!(compare(CompareFunc::LessEqual, 1.5, 1.0, Kind::Unorm16), 1.0);
        assert_eq!(compare(CompareFunc::LessEqual, 1.5, 1.0, Kind::Float), 0.0);
        assert_eq!(compare(CompareFunc::LessEqual, f32::NAN, 1.0, Kind::Float), 0.0);
    }
}
