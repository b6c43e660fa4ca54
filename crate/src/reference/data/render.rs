//! Rendered examples of opcodes whose lane table runs its own program (flow control,
//! discards, address registers, legacy opcodes): a fragment shader over the pixel's (u, v) in
//! which the opcode decides the colour, drawn by the `<tgsi-shader>` widget; and the reason
//! shown for each opcode that cannot have one. The programs are files of
//! `programs/reference/`, named after the example's first opcode. `tests/native/reference`
//! checks that every opcode has a rendered example or a reason, that every example validates
//! cleanly, and that every file there is one of these examples.

use crate::opcode::Opcode as O;

/// A rendered example: the opcodes it shows, its program and what the picture shows.
pub(in crate::reference) struct Render {
    pub ops: &'static [O],
    pub text: &'static str,
    pub shows: &'static str,
}

/// A rendered example's program, `programs/reference/NAME.tgsi` at the repository's root: the
/// one copy of it.
macro_rules! program {
    ($name:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../programs/reference/", $name, ".tgsi"))
    };
}

pub(in crate::reference) static RENDERS: &[Render] = &[
    Render { ops: &[O::IF, O::ELSE, O::ENDIF], text: program!("if"), shows: "left half red, right half blue (u < 0.5 picks the branch), green from v" },
    Render { ops: &[O::UIF], text: program!("uif"), shows: "an integer flag (u < v as ~0 / 0) picks the colour: the diagonal splits red and blue" },
    Render { ops: &[O::BGNLOOP, O::ENDLOOP, O::BRK], text: program!("bgnloop"), shows: "the loop counts to u·8 and breaks: eight red bands, one per iteration count" },
    Render { ops: &[O::CONT], text: program!("cont"), shows: "CONT skips the count of the iterations beyond v·8: eight grey bands up the picture" },
    Render { ops: &[O::SWITCH, O::CASE, O::DEFAULT, O::ENDSWITCH], text: program!("switch"), shows: "the selector floor(u·4) picks red, green, blue; the default case draws grey" },
    Render { ops: &[O::CAL, O::RET, O::BGNSUB, O::ENDSUB], text: program!("cal"), shows: "the subroutine doubles the colour, returning early (RET) left of u = 0.5" },
    Render { ops: &[O::NOP, O::END], text: program!("nop"), shows: "NOP does nothing: the (u, v) gradient as colour" },
    Render { ops: &[O::KILL], text: program!("kill"), shows: "KILL in a branch discards a checkerboard of 8 × 8 cells" },
    Render { ops: &[O::DEMOTE], text: program!("demote"), shows: "DEMOTE in a branch leaves a checkerboard of 8 × 8 cells unwritten" },
    Render { ops: &[O::KILL_IF], text: program!("kill_if"), shows: "KILL_IF discards outside a circle of radius 0.4 (0.16 − r² < 0)" },
    Render { ops: &[O::READ_HELPER], text: program!("read_helper"), shows: "pixels above the diagonal are demoted; live pixels whose quad holds a demoted (helper) lane see a helper flag derivative: the red line along the diagonal" },
    Render { ops: &[O::ARL], text: program!("arl"), shows: "ARL takes floor(u·4) as the address of a five-colour palette of immediates" },
    Render { ops: &[O::ARR], text: program!("arr"), shows: "ARR rounds u·4 to the address of a five-colour palette of immediates" },
    Render { ops: &[O::UARL], text: program!("uarl"), shows: "UARL loads the integer floor(u·4) as the address of a five-colour palette of immediates" },
    Render { ops: &[O::KIL], text: program!("kil"), shows: "KIL discards outside a circle of radius 0.4 (0.16 − r² < 0)" },
    Render { ops: &[O::KILP], text: program!("kilp"), shows: "KILP in a branch discards a checkerboard of 8 × 8 cells" },
    Render { ops: &[O::IFC], text: program!("ifc"), shows: "left half red, right half blue (u < 0.5 picks the branch), green from v" },
    Render { ops: &[O::ARA], text: program!("ara"), shows: "ARL loads floor(u·2), ARA adds it again: palette entries 0 (red) and 2 (green)" },
    Render { ops: &[O::PUSHA, O::POPA], text: program!("pusha"), shows: "the address floor(u·2) is pushed, overwritten with 0, popped back and doubled by ARA: palette entries 0 (red) and 2 (green)" },
    Render { ops: &[O::BREAKC], text: program!("breakc"), shows: "the loop counts to u·8 and leaves through BREAKC: eight red bands" },
    Render { ops: &[O::CALLNZ], text: program!("callnz"), shows: "the subroutine doubling the colour is called only right of u = 0.5" },
];

const BUFFERS: &str = "it reads or writes BUFFER / IMAGE memory, which the widget does not bind: see the compute example";

/// Why an opcode has no rendered example.
pub(in crate::reference) static NO_RENDER: &[(O, &str)] = &[
    (O::EMIT, "geometry shaders only: the widget draws fragment shaders"),
    (O::ENDPRIM, "geometry shaders only: the widget draws fragment shaders"),
    (O::BARRIER, "compute shaders only (it synchronises the threads of a block)"),
    (O::MEMBAR, "it orders memory accesses to buffers and images, which the widget does not bind; see the compute example"),
    (O::SAMPLE_I_MS, "it fetches from a multisampled view, which the widget's built-in textures do not provide"),
    (O::SAMPLE_C, "it samples a depth view with a comparison, which the widget's built-in textures do not provide"),
    (O::SAMPLE_C_LZ, "it samples a depth view with a comparison, which the widget's built-in textures do not provide"),
    (O::TEX2, "it samples a cube-array view, which the widget's built-in textures do not provide"),
    (O::TXB2, "it samples a cube-array view, which the widget's built-in textures do not provide"),
    (O::TXL2, "it samples a cube-array view, which the widget's built-in textures do not provide"),
    (O::IMG2HND, "a bindless handle is only defined where the driver supports bindless resources (X008): the example is shown as text"),
    (O::SAMP2HND, "a bindless handle is only defined where the driver supports bindless resources (X008): the example is shown as text"),
    (O::RESQ, BUFFERS),
    (O::LOAD, BUFFERS),
    (O::STORE, BUFFERS),
    (O::ATOMFADD, BUFFERS),
    (O::ATOMUADD, BUFFERS),
    (O::ATOMXCHG, BUFFERS),
    (O::ATOMCAS, BUFFERS),
    (O::ATOMAND, BUFFERS),
    (O::ATOMOR, BUFFERS),
    (O::ATOMXOR, BUFFERS),
    (O::ATOMUMIN, BUFFERS),
    (O::ATOMUMAX, BUFFERS),
    (O::ATOMIMIN, BUFFERS),
    (O::ATOMIMAX, BUFFERS),
    (O::ATOMINC_WRAP, BUFFERS),
    (O::ATOMDEC_WRAP, BUFFERS),
];
