//! Buffers, images, memory spaces, atomic counters and FBFETCH in a fragment quad, and hostile
//! input: every index past every array gives defined results (0 read, write dropped) without a
//! panic. Expected values are written out from the shader text.

use crate::support::compile;
use tgsi::exec::{
    Batch, Constants, ImageBuffer, ImageFormat, Machine, NoTextures, Program, Resources,
};

fn program(text: &str) -> Program {
    let parsed = tgsi::text::parse(text);
    let shader = parsed.shader.unwrap_or_else(|| panic!("{text}\n{:?}", parsed.diagnostics));
    compile(&shader).unwrap_or_else(|d| panic!("compile: {}", d.message))
}

fn words(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn unwords(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Runs one quad whose IN[0].x holds the lane number as an integer; returns OUT[0] bits per lane.
fn run_quad(text: &str, coverage: u8, res: &mut Resources) -> [[u32; 4]; 4] {
    let p = program(text);
    let mut batch = Batch::new(&p, 1);
    for c in 0..4 {
        batch.set_input(0, c, 0, tgsi::exec::Lanes([0, 1, 2, 3]));
    }
    batch.coverage[0] = coverage;
    Machine::new()
        .run_with_resources(&p, &mut batch, &Constants::new(), &mut NoTextures, res)
        .unwrap_or_else(|e| panic!("{}", e.diagnostic.message));
    [0, 1, 2, 3].map(|l| [0, 1, 2, 3].map(|c| batch.output(0, c, 0).0[l]))
}

const HEAD: &str = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\nDCL TEMP[0..3]\n";

#[test]
fn helper_and_killed_lanes_never_write() {
    // Each lane stores lane + 100 at byte lane·4 and adds 1 to a counter; lane 1 is killed and
    // lane 3 is not covered (a helper).
    let text = format!(
        "{HEAD}DCL BUFFER[0]\nIMM[0] UINT32 {{4, 100, 1, 16}}\nUSEQ TEMP[1].x, IN[0].xxxx, IMM[0].zzzz\nUIF TEMP[1].xxxx\nKILL\nENDIF\n\
UMUL TEMP[0].x, IN[0].xxxx, IMM[0].xxxx\nUADD TEMP[2].x, IN[0].xxxx, IMM[0].yyyy\nSTORE BUFFER[0].x, TEMP[0].xxxx, TEMP[2].xxxx\n\
ATOMUADD TEMP[3].x, BUFFER[0], IMM[0].wwww, IMM[0].zzzz\nEND\n"
    );
    let mut res = Resources::new();
    res.buffers.insert(0, vec![0; 20]);
    run_quad(&text, 0b0111, &mut res);
    assert_eq!(unwords(&res.buffers[&0]), vec![100, 0, 102, 0, 2]);
}

#[test]
fn loads_and_stores_outside_a_buffer() {
    // 8-byte buffer: words at 0 and 4. A read at 6 overlaps the end (0), at 0xFFFFFFFC wraps
    // nowhere (0); stores there are dropped. LOAD .xy at 0 reads words 0 and 1.
    let text = format!(
        "{HEAD}DCL BUFFER[0]\nIMM[0] UINT32 {{6, 4294967292, 0, 77}}\nLOAD TEMP[0].x, BUFFER[0], IMM[0].xxxx\nLOAD TEMP[0].y, BUFFER[0], IMM[0].yyyy\n\
LOAD TEMP[1].xy, BUFFER[0], IMM[0].zzzz\nSTORE BUFFER[0].x, IMM[0].xxxx, IMM[0].wwww\nSTORE BUFFER[0].xyzw, IMM[0].yyyy, IMM[0].wwww\n\
MOV OUT[0].xy, TEMP[0].xyxy\nMOV OUT[0].zw, TEMP[1].xxxy\nEND\n"
    );
    let mut res = Resources::new();
    res.buffers.insert(0, words(&[11, 22]));
    let out = run_quad(&text, 0xF, &mut res);
    assert_eq!(out[0], [0, 0, 11, 22]);
    assert_eq!(unwords(&res.buffers[&0]), vec![11, 22]);
}

#[test]
fn load_swizzle_resq_and_indirect_buffers() {
    // BUFFER[ADDR[0].x]: the quad uses the first active lane's address (lane 0 → 1).
    let text = format!(
        "{HEAD}DCL BUFFER[0..1]\nDCL ADDR[0]\nIMM[0] UINT32 {{1, 0, 0, 0}}\nUARL ADDR[0].x, IMM[0].xxxx\n\
LOAD TEMP[0], BUFFER[ADDR[0].x].wzyx, IMM[0].yyyy\nRESQ TEMP[1], BUFFER[0]\nMOV OUT[0].xyz, TEMP[0].xyzz\nMOV OUT[0].w, TEMP[1].xxxx\nEND\n"
    );
    let mut res = Resources::new();
    res.buffers.insert(0, vec![0; 12]);
    res.buffers.insert(1, words(&[1, 2, 3, 4]));
    let out = run_quad(&text, 0xF, &mut res);
    assert_eq!(out[2], [4, 3, 2, 12]);
}

#[test]
fn images_bounds_and_formats() {
    // 2×2 RGBA32F image; (1, 1) in range, (2, 0) and (−1, 0) outside.
    let text = format!(
        "{HEAD}DCL IMAGE[0], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT, WR\nIMM[0] INT32 {{1, 1, 0, 0}}\nIMM[1] INT32 {{2, 0, 0, 0}}\nIMM[2] INT32 {{-1, 0, 0, 0}}\n\
IMM[3] FLT32 {{1.5, 2.5, 3.5, 4.5}}\nSTORE IMAGE[0].xz, IMM[0], IMM[3], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT\n\
STORE IMAGE[0], IMM[1], IMM[3], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT\nSTORE IMAGE[0], IMM[2], IMM[3], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT\n\
LOAD TEMP[0], IMAGE[0], IMM[0], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT\nLOAD TEMP[1], IMAGE[0], IMM[1], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT\n\
ADD OUT[0], TEMP[0], TEMP[1]\nEND\n"
    );
    let mut res = Resources::new();
    res.images.insert(0, ImageBuffer::new(ImageFormat::Rgba32Float, 2, 2, 1).unwrap());
    let out = run_quad(&text, 0xF, &mut res);
    // Only .xz of texel (1, 1) were written: (1.5, 0, 3.5, 0); the outside load adds 0.
    assert_eq!(out[0], [1.5f32, 0.0, 3.5, 0.0].map(f32::to_bits));
    // Texel (1, 1) is texel 3 (bytes 48..64); every other texel stays zero.
    let texels = unwords(&res.images[&0].data);
    let mut want = vec![0u32; 16];
    want[12] = 1.5f32.to_bits();
    want[14] = 3.5f32.to_bits();
    assert_eq!(texels, want);
}

#[test]
fn memory_spaces_counters_and_fbfetch() {
    // PRIVATE is per lane: each lane writes its number and reads it back; GLOBAL is shared:
    // the lanes' stores to one word leave the last lane's (3). HWATOMIC[0][1] + offset 1 is
    // the third counter word.
    let text = format!(
        "{HEAD}DCL MEMORY[0], PRIVATE\nDCL MEMORY[1], GLOBAL\nDCL HWATOMIC[0][0..3]\nIMM[0] UINT32 {{0, 1, 5, 0}}\n\
STORE MEMORY[0].x, IMM[0].xxxx, IN[0].xxxx\nSTORE MEMORY[1].x, IMM[0].xxxx, IN[0].xxxx\nLOAD TEMP[0].x, MEMORY[0], IMM[0].xxxx\n\
ATOMUADD TEMP[1].x, HWATOMIC[0][1], IMM[0].yyyy, IMM[0].zzzz\nFBFETCH TEMP[2], OUT[0]\n\
MOV OUT[0].x, TEMP[0].xxxx\nMOV OUT[0].y, TEMP[1].xxxx\nF2U OUT[0].zw, TEMP[2].xxxy\nEND\n"
    );
    let mut res = Resources::new();
    res.global = vec![0; 4];
    res.atomic_buffers.insert(0, vec![0; 16]);
    res.framebuffer
        .insert(0, vec![[[7.0, 8.0, 0.0, 0.0], [9.0, 10.0, 0.0, 0.0], [0.0; 4], [0.0; 4]]]);
    let out = run_quad(&text, 0xF, &mut res);
    assert_eq!(out.map(|l| l[0]), [0, 1, 2, 3]);
    assert_eq!(out.map(|l| l[1]), [0, 5, 10, 15], "old counter values in lane order");
    assert_eq!(out[1][2..], [9, 10]);
    assert_eq!(unwords(&res.global), vec![3]);
    assert_eq!(unwords(&res.atomic_buffers[&0]), vec![0, 0, 20, 0]);
}

#[test]
fn hostile_indices_past_every_array() {
    // Unbound and out-of-range resources, huge offsets, negative coordinates, atomics on a
    // non-atomic image format, huge private offsets and indirect indices: all read 0. (Shared
    // memory and BARRIER are compute-only, EMIT geometry-only: the validator refuses them in a
    // fragment shader; the compute tests cover shared memory.)
    let text = format!(
        "{HEAD}DCL BUFFER[7]\nDCL IMAGE[3], 3D, PIPE_FORMAT_R8G8B8A8_UNORM, WR\nDCL IMAGE[4], 2D, PIPE_FORMAT_R8G8B8A8_UNORM, WR\n\
DCL MEMORY[0], PRIVATE\nDCL HWATOMIC[9][100]\nDCL ADDR[0]\n\
IMM[0] UINT32 {{4294967295, 2147483648, 4294967292, 1}}\nIMM[1] INT32 {{-5, -5, -5, 0}}\nUARL ADDR[0].x, IMM[0].yyyy\n\
LOAD TEMP[0].x, BUFFER[7], IMM[0].xxxx\nSTORE BUFFER[7], IMM[0].zzzz, IMM[0]\nLOAD TEMP[0].y, IMAGE[3], IMM[1], 3D, PIPE_FORMAT_R8G8B8A8_UNORM\n\
STORE IMAGE[3], IMM[1], IMM[0], 3D, PIPE_FORMAT_R8G8B8A8_UNORM\nATOMUADD TEMP[0].z, IMAGE[4], IMM[0], IMM[0].wwww, 2D, PIPE_FORMAT_R8G8B8A8_UNORM\n\
LOAD TEMP[1].x, MEMORY[0], IMM[0].zzzz\n\
ATOMUADD TEMP[1].z, HWATOMIC[9][100], IMM[0].xxxx, IMM[0].wwww\nLOAD TEMP[1].w, BUFFER[ADDR[0].x], IMM[0].wwww\n\
RESQ TEMP[2], IMAGE[ADDR[0].x]\nFBFETCH TEMP[3], OUT[0]\nMEMBAR IMM[0].wwww\n\
OR TEMP[0].x, TEMP[0].xxxx, TEMP[0].yyyy\nOR TEMP[0].x, TEMP[0].xxxx, TEMP[0].zzzz\nOR TEMP[0].x, TEMP[0].xxxx, TEMP[1].xxxx\n\
OR TEMP[0].x, TEMP[0].xxxx, TEMP[1].yyyy\nOR TEMP[0].x, TEMP[0].xxxx, TEMP[1].zzzz\nOR TEMP[0].x, TEMP[0].xxxx, TEMP[1].wwww\n\
OR TEMP[0].x, TEMP[0].xxxx, TEMP[2].xxxx\nOR TEMP[0].x, TEMP[0].xxxx, TEMP[3].xxxx\nMOV OUT[0], TEMP[0].xxxx\nEND\n"
    );
    let mut res = Resources::new();
    res.images.insert(4, ImageBuffer::new(ImageFormat::Rgba8Unorm, 1, 1, 1).unwrap());
    res.shared = vec![0; 8];
    let out = run_quad(&text, 0xF, &mut res);
    assert_eq!(out, [[0; 4]; 4]);
    assert_eq!(res.images[&4].data, vec![0; 4]);
    assert_eq!(res.shared, vec![0; 8]);
    // Huge images are refused, not allocated.
    assert!(ImageBuffer::new(ImageFormat::Rgba32Float, u32::MAX, u32::MAX, u32::MAX).is_err());
}
