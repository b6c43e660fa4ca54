//! Compute shaders through `exec::dispatch`: a prefix sum that needs BARRIER and shared memory,
//! atomics counting into a buffer, and image stores. Expected values are computed here from the
//! definitions (inclusive prefix sum, bin counts), never taken from the interpreter.

use crate::support::compile;
use tgsi::exec::{
    dispatch, Constants, ImageBuffer, ImageFormat, Machine, NoTextures, Program, Resources,
};

fn program(text: &str) -> Program {
    let parsed = tgsi::text::parse(text);
    let shader = parsed.shader.unwrap_or_else(|| panic!("parse: {:?}", parsed.diagnostics));
    compile(&shader).unwrap_or_else(|d| panic!("compile: {}", d.message))
}

fn words(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn unwords(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// The gallery's prefix-sum example: a Hillis–Steele inclusive scan of each block's 16 values in
/// shared memory. Every step reads s[i - d], so all invocations must finish reading before any
/// writes (the BARRIERs). (LOAD's channel c reads the word at address + 4c, so scalars are
/// loaded into .x.)
const PREFIX_SUM: &str = program!("examples/prefix-sum.cs");
const PREFIX_SUM_BLOCK: usize = 16;

#[test]
fn prefix_sum_with_barrier_and_shared_memory() {
    let p = program(PREFIX_SUM);
    let input: Vec<u32> = (0..128u32).map(|i| (i * 7 + 3) % 11).collect();
    let mut res = Resources::new();
    res.buffers.insert(0, words(&input));
    dispatch(
        &mut Machine::new(),
        &p,
        &Constants::new(),
        &mut NoTextures,
        &mut res,
        [(input.len() / PREFIX_SUM_BLOCK) as u32, 1, 1],
        None,
    )
    .unwrap();
    // Inclusive scan restarted at each block.
    let mut want = Vec::new();
    for block in input.chunks(PREFIX_SUM_BLOCK) {
        let mut sum = 0u32;
        for v in block {
            sum += v;
            want.push(sum);
        }
    }
    assert_eq!(unwords(&res.buffers[&0]), want);
}

/// Each invocation adds 1 to bin (value & 3) of BUFFER[1] and keeps the old count in BUFFER[2].
pub(super) const HISTOGRAM: &str = "COMP
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL SV[2], BLOCK_SIZE
DCL BUFFER[0]
DCL BUFFER[1], ATOMIC
DCL BUFFER[2]
DCL TEMP[0..2]
IMM[0] UINT32 {4, 3, 0, 1}
UMAD TEMP[0].x, SV[1].xxxx, SV[2].xxxx, SV[0].xxxx
UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
LOAD TEMP[1].x, BUFFER[0], TEMP[0].xxxx
AND TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy
UMUL TEMP[1].x, TEMP[1].xxxx, IMM[0].xxxx
ATOMUADD TEMP[2].x, BUFFER[1], TEMP[1].xxxx, IMM[0].wwww
STORE BUFFER[2].x, TEMP[0].xxxx, TEMP[2].xxxx
END
";

#[test]
fn atomics_count_into_a_buffer() {
    let p = program(HISTOGRAM);
    // Blocks of 6: the last quad of each block has two padding lanes, which must not count.
    let input: Vec<u32> = (0..18u32).map(|i| i * i + 1).collect();
    let mut res = Resources::new();
    res.buffers.insert(0, words(&input));
    res.buffers.insert(1, vec![0; 16]);
    res.buffers.insert(2, vec![0xEE; 18 * 4]);
    dispatch(
        &mut Machine::new(),
        &p,
        &Constants::new(),
        &mut NoTextures,
        &mut res,
        [3, 1, 1],
        Some([6, 1, 1]),
    )
    .unwrap();
    let want: Vec<u32> =
        (0..4).map(|b| input.iter().filter(|v| *v & 3 == b).count() as u32).collect();
    assert_eq!(unwords(&res.buffers[&1]), want);
    // The old values returned per bin are 0, 1, …, count − 1 once each.
    let olds = unwords(&res.buffers[&2]);
    for b in 0..4u32 {
        let mut got: Vec<u32> =
            input.iter().zip(&olds).filter(|(v, _)| *v & 3 == b).map(|(_, o)| *o).collect();
        got.sort();
        assert_eq!(got, (0..want[b as usize]).collect::<Vec<_>>(), "bin {b}");
    }
}

#[test]
fn every_atomic_opcode_follows_its_formula() {
    // One invocation applies each op to its own word; the formulas of tgsi.rst "Atomic opcodes".
    let ops = [
        ("ATOMUADD", 5u32, 7u32, 12u32),
        ("ATOMXCHG", 5, 7, 7),
        ("ATOMAND", 0b1100, 0b1010, 0b1000),
        ("ATOMOR", 0b1100, 0b1010, 0b1110),
        ("ATOMXOR", 0b1100, 0b1010, 0b0110),
        ("ATOMUMIN", 5, 0xFFFF_FFFF, 5),
        ("ATOMUMAX", 5, 0xFFFF_FFFF, 0xFFFF_FFFF),
        ("ATOMIMIN", 5, 0xFFFF_FFFF, 0xFFFF_FFFF),
        ("ATOMIMAX", 5, 0xFFFF_FFFF, 5),
        ("ATOMFADD", 1.5f32.to_bits(), 2.25f32.to_bits(), 3.75f32.to_bits()),
        ("ATOMINC_WRAP", 3, 4, 4),
        ("ATOMINC_WRAP", 4, 4, 0),
        ("ATOMDEC_WRAP", 3, 4, 2),
        ("ATOMDEC_WRAP", 0, 4, 0),
    ];
    for (op, old, src, new) in ops {
        let text = format!(
            "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nDCL BUFFER[0]\nDCL TEMP[0]\nIMM[0] UINT32 {{0, {src}, 0, 0}}\n{op} TEMP[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].yyyy\nSTORE BUFFER[0].y, IMM[0].xxxx, TEMP[0].xxxx\nEND\n"
        );
        let p = program(&text);
        let mut res = Resources::new();
        res.buffers.insert(0, words(&[old, 0]));
        dispatch(
            &mut Machine::new(),
            &p,
            &Constants::new(),
            &mut NoTextures,
            &mut res,
            [1, 1, 1],
            None,
        )
        .unwrap();
        assert_eq!(unwords(&res.buffers[&0]), vec![new, old], "{op}");
    }
    // ATOMCAS: swaps only when the word equals the comparand.
    for (old, cmp, new) in [(9u32, 9u32, 42u32), (9, 8, 9)] {
        let text = format!("COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nDCL BUFFER[0]\nDCL TEMP[0]\nIMM[0] UINT32 {{0, {cmp}, 42, 0}}\nATOMCAS TEMP[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].yyyy, IMM[0].zzzz\nEND\n");
        let mut res = Resources::new();
        res.buffers.insert(0, words(&[old]));
        dispatch(
            &mut Machine::new(),
            &program(&text),
            &Constants::new(),
            &mut NoTextures,
            &mut res,
            [1, 1, 1],
            None,
        )
        .unwrap();
        assert_eq!(unwords(&res.buffers[&0]), vec![new]);
    }
}

/// Each invocation of a 2-D grid of 4x4 blocks writes its own texel of two 8x8 images.
pub(super) const IMAGE_STORES: &str = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 4
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR
DCL IMAGE[1], 2D, PIPE_FORMAT_R8G8B8A8_UNORM, WR
DCL TEMP[0..2]
IMM[0] UINT32 {4, 100, 0, 0}
IMM[1] FLT32 {0.5, 1.0, 0.0, 0.25}
UMAD TEMP[0].xy, SV[1].xyyy, IMM[0].xxxx, SV[0].xyyy
UMAD TEMP[1].x, TEMP[0].yyyy, IMM[0].yyyy, TEMP[0].xxxx
STORE IMAGE[0].x, TEMP[0], TEMP[1].xxxx, 2D, PIPE_FORMAT_R32_UINT
STORE IMAGE[1], TEMP[0], IMM[1], 2D, PIPE_FORMAT_R8G8B8A8_UNORM
RESQ TEMP[2], IMAGE[0]
END
";

#[test]
fn image_stores_from_a_2d_grid() {
    let p = program(IMAGE_STORES);
    let mut res = Resources::new();
    res.images.insert(0, ImageBuffer::new(ImageFormat::R32Uint, 8, 8, 1).unwrap());
    res.images.insert(1, ImageBuffer::new(ImageFormat::Rgba8Unorm, 8, 8, 1).unwrap());
    dispatch(
        &mut Machine::new(),
        &p,
        &Constants::new(),
        &mut NoTextures,
        &mut res,
        [2, 2, 1],
        None,
    )
    .unwrap();
    let want: Vec<u32> = (0..64u32).map(|i| (i / 8) * 100 + i % 8).collect();
    assert_eq!(unwords(&res.images[&0].data), want);
    // UNORM8 = round(v · 255): 0.5 → 128, 1 → 255, 0 → 0, 0.25 → 64.
    let rgba: Vec<u8> = (0..64).flat_map(|_| [128u8, 255, 0, 64]).collect();
    assert_eq!(res.images[&1].data, rgba);
}

#[test]
fn dispatch_sizes_are_checked() {
    let p = program("COMP\nDCL TEMP[0]\nEND\n");
    let mut res = Resources::new();
    let mut m = Machine::new();
    let e = dispatch(&mut m, &p, &Constants::new(), &mut NoTextures, &mut res, [1, 1, 1], None)
        .unwrap_err();
    assert_eq!(e.diagnostic.code, "X009");
    let e = dispatch(
        &mut m,
        &p,
        &Constants::new(),
        &mut NoTextures,
        &mut res,
        [1, 1, 1],
        Some([2048, 1, 1]),
    )
    .unwrap_err();
    assert_eq!(e.diagnostic.code, "X009");
    let e = dispatch(
        &mut m,
        &p,
        &Constants::new(),
        &mut NoTextures,
        &mut res,
        [u32::MAX, u32::MAX, u32::MAX],
        Some([1, 1, 1]),
    )
    .unwrap_err();
    assert_eq!(e.diagnostic.code, "X009");
    assert!(dispatch(
        &mut m,
        &p,
        &Constants::new(),
        &mut NoTextures,
        &mut res,
        [0, 1, 1],
        Some([1, 1, 1])
    )
    .is_ok());
}
