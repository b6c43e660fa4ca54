//! Every memory opcode on every kind of resource with extreme addresses and indices: runs must
//! end without a panic (debug builds also trap integer overflow), reads outside give 0, and
//! resources keep their size.

use crate::support::compile;
use tgsi::exec::{dispatch, Constants, ImageBuffer, ImageFormat, Machine, NoTextures, Resources};

const OPS: &[&str] = &[
    "LOAD TEMP[0], {R}, TEMP[1]",
    "STORE {R}, TEMP[1], TEMP[1]",
    "RESQ TEMP[0], {R}",
    "ATOMUADD TEMP[0], {R}, TEMP[1], TEMP[1]",
    "ATOMCAS TEMP[0], {R}, TEMP[1], TEMP[1], TEMP[1]",
    "ATOMIMAX TEMP[0], {R}, TEMP[1], TEMP[1]",
    "ATOMFADD TEMP[0], {R}, TEMP[1], TEMP[1]",
    "ATOMINC_WRAP TEMP[0], {R}, TEMP[1], TEMP[1]",
    "ATOMDEC_WRAP TEMP[0], {R}, TEMP[1], TEMP[1]",
];

const RESOURCES: &[&str] = &[
    "BUFFER[0]",
    "BUFFER[ADDR[0].x]",
    "BUFFER[5]",
    "IMAGE[0]",
    "IMAGE[1]",
    "IMAGE[2]",
    "IMAGE[ADDR[0].x]",
    "MEMORY[0]",
    "MEMORY[1]",
    "MEMORY[2]",
    "HWATOMIC[0][0]",
    "HWATOMIC[0][3]",
];

const VALUES: &[u32] =
    &[0, 1, 3, 4, 0x7fff_ffff, 0x8000_0000, 0xffff_fffc, 0xffff_fffd, 0xffff_ffff];

#[test]
fn extreme_operands_never_panic() {
    let mut runs = 0;
    for op in OPS {
        for r in RESOURCES {
            for &v in VALUES {
                let text = format!(
                    "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 5\nDCL BUFFER[0]\nDCL BUFFER[5]\nDCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR\n\
DCL IMAGE[1], 3D, PIPE_FORMAT_R8G8B8A8_UNORM, WR\nDCL IMAGE[2], 1D_ARRAY, PIPE_FORMAT_R16G16B16A16_FLOAT, WR\n\
DCL MEMORY[0], GLOBAL\nDCL MEMORY[1], SHARED\nDCL MEMORY[2], PRIVATE\nDCL HWATOMIC[0][0..3]\nDCL ADDR[0]\nDCL TEMP[0..1]\n\
IMM[0] UINT32 {{{v}, {v}, {v}, {v}}}\nMOV TEMP[1], IMM[0]\nUARL ADDR[0].x, IMM[0].xxxx\n{}\nEND\n",
                    op.replace("{R}", r)
                );
                let parsed = tgsi::text::parse(&text);
                let Some(shader) = parsed.shader else {
                    panic!("{text}\n{:?}", parsed.diagnostics)
                };
                // STORE may not name a counter (tgsi.rst: BUFFER, IMAGE or MEMORY): a diagnostic.
                let p = match compile(&shader) {
                    Ok(p) => p,
                    Err(d)
                        if op.starts_with("STORE")
                            && r.starts_with("HWATOMIC")
                            && d.code == "X001" =>
                    {
                        continue
                    }
                    Err(d) => panic!("{text}\n{}", d.message),
                };
                let mut res = Resources::new();
                res.buffers.insert(0, vec![7; 16]);
                res.images.insert(0, ImageBuffer::new(ImageFormat::R32Uint, 2, 2, 1).unwrap());
                res.images.insert(1, ImageBuffer::new(ImageFormat::Rgba8Unorm, 2, 2, 2).unwrap());
                res.images.insert(2, ImageBuffer::new(ImageFormat::Rgba16Float, 2, 3, 1).unwrap());
                res.global = vec![0; 8];
                res.shared = vec![0; 8];
                res.atomic_buffers.insert(0, vec![0; 16]);
                dispatch(
                    &mut Machine::new(),
                    &p,
                    &Constants::new(),
                    &mut NoTextures,
                    &mut res,
                    [2, 1, 1],
                    None,
                )
                .unwrap_or_else(|e| panic!("{text}\n{}", e.diagnostic.message));
                assert_eq!(res.buffers[&0].len(), 16);
                assert_eq!(res.images[&1].data.len(), 2 * 2 * 2 * 4);
                assert_eq!(
                    (res.global.len(), res.shared.len(), res.atomic_buffers[&0].len()),
                    (8, 8, 16)
                );
                runs += 1;
            }
        }
    }
    assert_eq!(runs, (OPS.len() * RESOURCES.len() - 2) * VALUES.len());
}
