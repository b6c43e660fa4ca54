//! Rendered examples of opcodes whose lane table runs its own program (flow control,
//! discards, address registers, legacy opcodes): a fragment shader over the pixel's (u, v) in
//! which the opcode decides the colour, drawn by the `<tgsi-shader>` widget; and the reason
//! shown for each opcode that cannot have one. `tests/native/reference` checks that every
//! opcode has a rendered example or a reason, and that every example validates cleanly.

use crate::opcode::Opcode as O;

/// A rendered example: the opcodes it shows, its program and what the picture shows.
pub(in crate::reference) struct Render {
    pub ops: &'static [O],
    pub text: &'static str,
    pub shows: &'static str,
}
const IF: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 0.5, 1.0, 0.0, 0.2 }
  0: SLT TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
  1: IF TEMP[0].xxxx
  2:   MOV OUT[0], IMM[0].yzwy
  3: ELSE
  4:   MOV OUT[0], IMM[0].wzyy
  5: ENDIF
  6: MOV OUT[0].y, IN[0].yyyy
  7: END
";
const UIF: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 0.5, 1.0, 0.0, 0.2 }
  0: FSLT TEMP[0].x, IN[0].xxxx, IN[0].yyyy
  1: UIF TEMP[0].xxxx
  2:   MOV OUT[0], IMM[0].yzwy
  3: ELSE
  4:   MOV OUT[0], IMM[0].wzyy
  5: ENDIF
  6: END
";
const LOOP: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..2]
IMM[0] FLT32 { 8.0, 1.0, 0.125, 0.0 }
  0: MUL TEMP[2].x, IN[0].xxxx, IMM[0].xxxx
  1: MOV TEMP[0], IMM[0].wwww
  2: BGNLOOP
  3:   SGE TEMP[1].x, TEMP[0].xxxx, TEMP[2].xxxx
  4:   IF TEMP[1].xxxx
  5:     BRK
  6:   ENDIF
  7:   ADD TEMP[0], TEMP[0], IMM[0].yyyy
  8: ENDLOOP
  9: MUL OUT[0].xyz, TEMP[0].xxxx, IMM[0].zwzz
 10: MOV OUT[0].w, IMM[0].yyyy
 11: END
";
const CONT: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..3]
IMM[0] FLT32 { 8.0, 1.0, 0.125, 0.0 }
  0: MUL TEMP[2].x, IN[0].yyyy, IMM[0].xxxx
  1: MOV TEMP[0], IMM[0].wwww
  2: MOV TEMP[3], IMM[0].wwww
  3: BGNLOOP
  4:   SGE TEMP[1].x, TEMP[0].xxxx, IMM[0].xxxx
  5:   IF TEMP[1].xxxx
  6:     BRK
  7:   ENDIF
  8:   ADD TEMP[0], TEMP[0], IMM[0].yyyy
  9:   SLT TEMP[1].x, TEMP[2].xxxx, TEMP[0].xxxx
 10:   IF TEMP[1].xxxx
 11:     CONT
 12:   ENDIF
 13:   ADD TEMP[3], TEMP[3], IMM[0].zzzz
 14: ENDLOOP
 15: MOV OUT[0].xyz, TEMP[3].wxxx
 16: MOV OUT[0].w, IMM[0].yyyy
 17: END
";
const SWITCH: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 4.0, 1.0, 0.0, 0.5 }
IMM[1] UINT32 { 0, 1, 2, 0 }
  0: MUL TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
  1: F2U TEMP[0].x, TEMP[0].xxxx
  2: SWITCH TEMP[0].xxxx
  3:   CASE IMM[1].xxxx
  4:     MOV OUT[0], IMM[0].yzzy
  5:     BRK
  6:   CASE IMM[1].yyyy
  7:     MOV OUT[0], IMM[0].zyzy
  8:     BRK
  9:   CASE IMM[1].zzzz
 10:     MOV OUT[0], IMM[0].zzyy
 11:     BRK
 12:   DEFAULT
 13:     MOV OUT[0], IMM[0].wwwy
 14:     BRK
 15: ENDSWITCH
 16: END
";
const SUB: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] FLT32 { 2.0, 0.5, 1.0, 0.25 }
  0: MOV TEMP[0], IN[0].xyww
  1: MOV TEMP[0].z, IMM[0].wwww
  2: CAL :6
  3: MOV OUT[0].xyz, TEMP[0]
  4: MOV OUT[0].w, IMM[0].zzzz
  5: END
  6: BGNSUB
  7:   SLT TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy
  8:   IF TEMP[1].xxxx
  9:     RET
 10:   ENDIF
 11:   MUL TEMP[0], TEMP[0], IMM[0].xxxx
 12: ENDSUB
";
const NOP: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
IMM[0] FLT32 { 1.0, 0.0, 0.0, 0.0 }
  0: NOP
  1: MOV OUT[0].xy, IN[0]
  2: MOV OUT[0].zw, IMM[0].yyyx
  3: END
";
const KILL: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 8.0, 0.5, 1.0, 0.0 }
  0: MUL TEMP[0].xy, IN[0].xyyy, IMM[0].xxxx
  1: FRC TEMP[0].xy, TEMP[0].xyyy
  2: SLT TEMP[0].xy, TEMP[0].xyyy, IMM[0].yyyy
  3: SNE TEMP[0].x, TEMP[0].xxxx, TEMP[0].yyyy
  4: IF TEMP[0].xxxx
  5:   KILL
  6: ENDIF
  7: MOV OUT[0].xy, IN[0]
  8: MOV OUT[0].zw, IMM[0].zzzz
  9: END
";
const DEMOTE: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 8.0, 0.5, 1.0, 0.0 }
  0: MUL TEMP[0].xy, IN[0].xyyy, IMM[0].xxxx
  1: FRC TEMP[0].xy, TEMP[0].xyyy
  2: SLT TEMP[0].xy, TEMP[0].xyyy, IMM[0].yyyy
  3: SNE TEMP[0].x, TEMP[0].xxxx, TEMP[0].yyyy
  4: IF TEMP[0].xxxx
  5:   DEMOTE
  6: ENDIF
  7: MOV OUT[0].xy, IN[0]
  8: MOV OUT[0].zw, IMM[0].zzzz
  9: END
";
const KILL_IF: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 0.5, 0.16, 1.0, 0.0 }
  0: ADD TEMP[0].xy, IN[0].xyyy, -IMM[0].xxxx
  1: DP2 TEMP[0].x, TEMP[0].xyyy, TEMP[0].xyyy
  2: ADD TEMP[0].x, IMM[0].yyyy, -TEMP[0].xxxx
  3: KILL_IF TEMP[0].xxxx
  4: MOV OUT[0].xy, IN[0]
  5: MOV OUT[0].zw, IMM[0].zzzz
  6: END
";
const READ_HELPER: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] FLT32 { 1.0, 0.5, 0.0, 0.0 }
  0: SLT TEMP[0].x, IN[0].xxxx, IN[0].yyyy
  1: IF TEMP[0].xxxx
  2:   DEMOTE
  3: ENDIF
  4: READ_HELPER TEMP[1]
  5: U2F TEMP[1], TEMP[1]
  6: DDX TEMP[0].x, TEMP[1].xxxx
  7: DDY TEMP[0].y, TEMP[1].xxxx
  8: ADD TEMP[0].x, |TEMP[0].xxxx|, |TEMP[0].yyyy|
  9: MUL TEMP[0].y, IN[0].yyyy, IMM[0].yyyy
 10: MOV OUT[0].xy, TEMP[0]
 11: MOV OUT[0].zw, IMM[0].zzzx
 12: END
";
const ARL: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
DCL ADDR[0]
IMM[0] FLT32 { 1.0, 0.0, 0.0, 1.0 }
IMM[1] FLT32 { 1.0, 0.5, 0.0, 1.0 }
IMM[2] FLT32 { 0.0, 1.0, 0.0, 1.0 }
IMM[3] FLT32 { 0.0, 0.5, 1.0, 1.0 }
IMM[4] FLT32 { 0.6, 0.0, 1.0, 1.0 }
IMM[5] FLT32 { 4.0, 0.0, 0.0, 0.0 }
  0: MUL TEMP[0].x, IN[0].xxxx, IMM[5].xxxx
  1: MOV TEMP[0].y, TEMP[0].xxxx
  2: ARL ADDR[0].x, TEMP[0].xxxx
  3: MOV OUT[0], IMM[ADDR[0].x]
  4: END
";
const ARR: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
DCL ADDR[0]
IMM[0] FLT32 { 1.0, 0.0, 0.0, 1.0 }
IMM[1] FLT32 { 1.0, 0.5, 0.0, 1.0 }
IMM[2] FLT32 { 0.0, 1.0, 0.0, 1.0 }
IMM[3] FLT32 { 0.0, 0.5, 1.0, 1.0 }
IMM[4] FLT32 { 0.6, 0.0, 1.0, 1.0 }
IMM[5] FLT32 { 4.0, 0.0, 0.0, 0.0 }
  0: MUL TEMP[0].x, IN[0].xxxx, IMM[5].xxxx
  1: MOV TEMP[0].y, TEMP[0].xxxx
  2: ARR ADDR[0].x, TEMP[0].xxxx
  3: MOV OUT[0], IMM[ADDR[0].x]
  4: END
";
const UARL: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
DCL ADDR[0]
IMM[0] FLT32 { 1.0, 0.0, 0.0, 1.0 }
IMM[1] FLT32 { 1.0, 0.5, 0.0, 1.0 }
IMM[2] FLT32 { 0.0, 1.0, 0.0, 1.0 }
IMM[3] FLT32 { 0.0, 0.5, 1.0, 1.0 }
IMM[4] FLT32 { 0.6, 0.0, 1.0, 1.0 }
IMM[5] FLT32 { 4.0, 0.0, 0.0, 0.0 }
  0: MUL TEMP[0].x, IN[0].xxxx, IMM[5].xxxx
  1: F2I TEMP[0].x, TEMP[0].xxxx
  2: UARL ADDR[0].x, TEMP[0].xxxx
  3: MOV OUT[0], IMM[ADDR[0].x]
  4: END
";
const KIL: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 0.5, 0.16, 1.0, 0.0 }
  0: ADD TEMP[0].xy, IN[0].xyyy, -IMM[0].xxxx
  1: DP2 TEMP[0].x, TEMP[0].xyyy, TEMP[0].xyyy
  2: ADD TEMP[0].x, IMM[0].yyyy, -TEMP[0].xxxx
  3: KIL TEMP[0].xxxx
  4: MOV OUT[0].xy, IN[0]
  5: MOV OUT[0].zw, IMM[0].zzzz
  6: END
";
const KILP: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 8.0, 0.5, 1.0, 0.0 }
  0: MUL TEMP[0].xy, IN[0].xyyy, IMM[0].xxxx
  1: FRC TEMP[0].xy, TEMP[0].xyyy
  2: SLT TEMP[0].xy, TEMP[0].xyyy, IMM[0].yyyy
  3: SNE TEMP[0].x, TEMP[0].xxxx, TEMP[0].yyyy
  4: IF TEMP[0].xxxx
  5:   KILP
  6: ENDIF
  7: MOV OUT[0].xy, IN[0]
  8: MOV OUT[0].zw, IMM[0].zzzz
  9: END
";
const IFC: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 0.5, 1.0, 0.0, 0.2 }
  0: SLT TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
  1: IFC TEMP[0].xxxx
  2:   MOV OUT[0], IMM[0].yzwy
  3: ELSE
  4:   MOV OUT[0], IMM[0].wzyy
  5: ENDIF
  6: MOV OUT[0].y, IN[0].yyyy
  7: END
";
const ARA: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
DCL ADDR[0]
IMM[0] FLT32 { 1.0, 0.0, 0.0, 1.0 }
IMM[1] FLT32 { 1.0, 0.5, 0.0, 1.0 }
IMM[2] FLT32 { 0.0, 1.0, 0.0, 1.0 }
IMM[3] FLT32 { 0.0, 0.5, 1.0, 1.0 }
IMM[4] FLT32 { 0.6, 0.0, 1.0, 1.0 }
IMM[5] FLT32 { 2.0, 0.0, 0.0, 0.0 }
  0: MUL TEMP[0].x, IN[0].xxxx, IMM[5].xxxx
  1: ARL ADDR[0].x, TEMP[0].xxxx
  2: ARA ADDR[0].x, TEMP[0].xxxx
  3: MOV OUT[0], IMM[ADDR[0].x]
  4: END
";
const PUSHA: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
DCL ADDR[0]
IMM[0] FLT32 { 1.0, 0.0, 0.0, 1.0 }
IMM[1] FLT32 { 1.0, 0.5, 0.0, 1.0 }
IMM[2] FLT32 { 0.0, 1.0, 0.0, 1.0 }
IMM[3] FLT32 { 0.0, 0.5, 1.0, 1.0 }
IMM[4] FLT32 { 0.6, 0.0, 1.0, 1.0 }
IMM[5] FLT32 { 2.0, 0.0, 0.0, 0.0 }
  0: MUL TEMP[0].x, IN[0].xxxx, IMM[5].xxxx
  1: ARL ADDR[0].x, TEMP[0].xxxx
  2: PUSHA ADDR[0]
  3: ARL ADDR[0].x, IMM[5].yyyy
  4: POPA ADDR[0]
  5: ARA ADDR[0].x, TEMP[0].xxxx
  6: MOV OUT[0], IMM[ADDR[0].x]
  7: END
";
const BREAKC: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..2]
IMM[0] FLT32 { 8.0, 1.0, 0.125, 0.0 }
  0: MUL TEMP[2].x, IN[0].xxxx, IMM[0].xxxx
  1: MOV TEMP[0], IMM[0].wwww
  2: BGNLOOP
  3:   SGE TEMP[1].x, TEMP[0].xxxx, TEMP[2].xxxx
  4:   BREAKC TEMP[1].xxxx
  5:   ADD TEMP[0], TEMP[0], IMM[0].yyyy
  6: ENDLOOP
  7: MUL OUT[0].xyz, TEMP[0].xxxx, IMM[0].zwzz
  8: MOV OUT[0].w, IMM[0].yyyy
  9: END
";
const CALLNZ: &str = r"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] FLT32 { 2.0, 0.5, 1.0, 0.25 }
  0: MOV TEMP[0], IN[0].xyww
  1: MOV TEMP[0].z, IMM[0].wwww
  2: SGE TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy
  3: CALLNZ TEMP[1].xxxx :7
  4: MOV OUT[0].xyz, TEMP[0]
  5: MOV OUT[0].w, IMM[0].zzzz
  6: END
  7: BGNSUB
  8:   MUL TEMP[0], TEMP[0], IMM[0].xxxx
  9: ENDSUB
";

pub(in crate::reference) static RENDERS: &[Render] = &[
    Render { ops: &[O::IF, O::ELSE, O::ENDIF], text: IF, shows: "left half red, right half blue (u < 0.5 picks the branch), green from v" },
    Render { ops: &[O::UIF], text: UIF, shows: "an integer flag (u < v as ~0 / 0) picks the colour: the diagonal splits red and blue" },
    Render { ops: &[O::BGNLOOP, O::ENDLOOP, O::BRK], text: LOOP, shows: "the loop counts to u·8 and breaks: eight red bands, one per iteration count" },
    Render { ops: &[O::CONT], text: CONT, shows: "CONT skips the count of the iterations beyond v·8: eight grey bands up the picture" },
    Render { ops: &[O::SWITCH, O::CASE, O::DEFAULT, O::ENDSWITCH], text: SWITCH, shows: "the selector floor(u·4) picks red, green, blue; the default case draws grey" },
    Render { ops: &[O::CAL, O::RET, O::BGNSUB, O::ENDSUB], text: SUB, shows: "the subroutine doubles the colour, returning early (RET) left of u = 0.5" },
    Render { ops: &[O::NOP, O::END], text: NOP, shows: "NOP does nothing: the (u, v) gradient as colour" },
    Render { ops: &[O::KILL], text: KILL, shows: "KILL in a branch discards a checkerboard of 8 × 8 cells" },
    Render { ops: &[O::DEMOTE], text: DEMOTE, shows: "DEMOTE in a branch leaves a checkerboard of 8 × 8 cells unwritten" },
    Render { ops: &[O::KILL_IF], text: KILL_IF, shows: "KILL_IF discards outside a circle of radius 0.4 (0.16 − r² < 0)" },
    Render { ops: &[O::READ_HELPER], text: READ_HELPER, shows: "pixels above the diagonal are demoted; live pixels whose quad holds a demoted (helper) lane see a helper flag derivative: the red line along the diagonal" },
    Render { ops: &[O::ARL], text: ARL, shows: "ARL takes floor(u·4) as the address of a five-colour palette of immediates" },
    Render { ops: &[O::ARR], text: ARR, shows: "ARR rounds u·4 to the address of a five-colour palette of immediates" },
    Render { ops: &[O::UARL], text: UARL, shows: "UARL loads the integer floor(u·4) as the address of a five-colour palette of immediates" },
    Render { ops: &[O::KIL], text: KIL, shows: "KIL discards outside a circle of radius 0.4 (0.16 − r² < 0)" },
    Render { ops: &[O::KILP], text: KILP, shows: "KILP in a branch discards a checkerboard of 8 × 8 cells" },
    Render { ops: &[O::IFC], text: IFC, shows: "left half red, right half blue (u < 0.5 picks the branch), green from v" },
    Render { ops: &[O::ARA], text: ARA, shows: "ARL loads floor(u·2), ARA adds it again: palette entries 0 (red) and 2 (green)" },
    Render { ops: &[O::PUSHA, O::POPA], text: PUSHA, shows: "the address floor(u·2) is pushed, overwritten with 0, popped back and doubled by ARA: palette entries 0 (red) and 2 (green)" },
    Render { ops: &[O::BREAKC], text: BREAKC, shows: "the loop counts to u·8 and leaves through BREAKC: eight red bands" },
    Render { ops: &[O::CALLNZ], text: CALLNZ, shows: "the subroutine doubling the colour is called only right of u = 0.5" },
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
