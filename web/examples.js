// @ts-check
// The examples gallery: small shaders that each show one thing TGSI can do. Fragment-only
// examples are drawn on the fullscreen triangle, where every GENERIC input carries the
// picture's uv (0,0 at the bottom-left corner, 1,1 at the top-right). The built-in uniforms
// live in CONST[15]: [0] = (width, height, 1/width, 1/height), [1] = (time, delta, frame, 0),
// [2] = (mouse x, mouse y, button down, 0).

const gradient = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
IMM[0] FLT32 { 0.5000, 1.0000, 0.0000, 0.0000 }
  0: MOV OUT[0].xy, IN[0].xyyy
  1: MOV OUT[0].z, IMM[0].xxxx
  2: MOV OUT[0].w, IMM[0].yyyy
  3: END
`;

const rainbow = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL CONST[15][0..1]
DCL TEMP[0..1]
IMM[0] FLT32 { 6.2832, 0.5000, 0.2000, 1.0000 }
IMM[1] FLT32 { 0.0000, 2.0944, 4.1888, 0.0000 }
  0: MAD TEMP[0].x, IN[0].xxxx, IMM[0].xxxx, CONST[15][1].xxxx
  1: ADD TEMP[1].xyz, TEMP[0].xxxx, IMM[1].xyzz
  2: COS TEMP[1].x, TEMP[1].xxxx
  3: COS TEMP[1].y, TEMP[1].yyyy
  4: COS TEMP[1].z, TEMP[1].zzzz
  5: MAD TEMP[1].xyz, TEMP[1].xyzz, IMM[0].yyyy, IMM[0].yyyy
  6: MAD TEMP[0].y, IN[0].yyyy, IMM[0].yyyy, IMM[0].yyyy
  7: MUL OUT[0].xyz, TEMP[1].xyzz, TEMP[0].yyyy
  8: MOV OUT[0].w, IMM[0].wwww
  9: END
`;

const constantsMix = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL CONST[0][0..2]
DCL TEMP[0]
IMM[0] FLT32 { 0.5000, 1.0000, 0.0000, 0.0000 }
  0: ADD TEMP[0].x, IN[0].xxxx, -IMM[0].xxxx
  1: MUL TEMP[0].x, TEMP[0].xxxx, CONST[0][2].xxxx
  2: ADD_SAT TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
  3: LRP OUT[0], TEMP[0].xxxx, CONST[0][1], CONST[0][0]
  4: END
`;

const textureSample = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0]
IMM[0] FLT32 { 3.0000, -1.0000, 0.0000, 1.0000 }
  0: MAD TEMP[0].xy, IN[0].xyyy, IMM[0].xxxx, IMM[0].yyyy
  1: TEX OUT[0], TEMP[0], SAMP[0], 2D
  2: END
`;

const textureLod = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0]
IMM[0] FLT32 { 6.0000, 4.0000, 0.0000, 1.0000 }
  0: MUL TEMP[0].xy, IN[0].xyyy, IMM[0].yyyy
  1: MUL TEMP[0].w, IN[0].xxxx, IMM[0].xxxx
  2: FLR TEMP[0].w, TEMP[0].wwww
  3: TXL OUT[0], TEMP[0], SAMP[0], 2D
  4: END
`;

const edges = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] FLT32 { 0.5000, 12.0000, 40.0000, 1.0000 }
  0: ADD TEMP[0].xy, IN[0].xyyy, -IMM[0].xxxx
  1: DP2 TEMP[0].x, TEMP[0].xyyy, TEMP[0].xyyy
  2: SQRT TEMP[0].x, TEMP[0].xxxx
  3: MUL TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  4: FRC TEMP[0].x, TEMP[0].xxxx
  5: SGE TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
  6: DDX TEMP[1].x, TEMP[0].xxxx
  7: DDY TEMP[1].y, TEMP[0].xxxx
  8: ADD TEMP[1].x, |TEMP[1].xxxx|, |TEMP[1].yyyy|
  9: MOV_SAT OUT[0].xyz, TEMP[1].xxxx
 10: MOV OUT[0].w, IMM[0].wwww
 11: END
`;

const discard = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 8.0000, 0.5000, 0.1600, 1.0000 }
IMM[1] FLT32 { 1.0000, 0.6000, 0.2000, 1.0000 }
  0: MUL TEMP[0].xy, IN[0].xyyy, IMM[0].xxxx
  1: FRC TEMP[0].xy, TEMP[0].xyyy
  2: ADD TEMP[0].xy, TEMP[0].xyyy, -IMM[0].yyyy
  3: DP2 TEMP[0].x, TEMP[0].xyyy, TEMP[0].xyyy
  4: ADD TEMP[0].x, IMM[0].zzzz, -TEMP[0].xxxx
  5: KILL_IF TEMP[0].xxxx
  6: MUL OUT[0], IMM[1], IN[0].xyxx
  7: MOV OUT[0].w, IMM[0].wwww
  8: END
`;

const mandelbrot = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..3]
IMM[0] FLT32 { 3.0000, -2.2000, -1.5000, 4.0000 }
IMM[1] FLT32 { 0.0000, 1.0000, 64.0000, 0.0156 }
IMM[2] FLT32 { 9.0000, 15.0000, 8.5000, 2.0000 }
  0: MAD TEMP[0].xy, IN[0].xyyy, IMM[0].xxxx, IMM[0].yzzz
  1: MOV TEMP[1].xy, IMM[1].xxxx
  2: MOV TEMP[2].x, IMM[1].xxxx
  3: BGNLOOP
  4:   SGE TEMP[3].x, TEMP[2].xxxx, IMM[1].zzzz
  5:   IF TEMP[3].xxxx
  6:     BRK
  7:   ENDIF
  8:   DP2 TEMP[3].y, TEMP[1].xyyy, TEMP[1].xyyy
  9:   SGE TEMP[3].x, TEMP[3].yyyy, IMM[0].wwww
 10:   IF TEMP[3].xxxx
 11:     BRK
 12:   ENDIF
 13:   MUL TEMP[3].z, TEMP[1].xxxx, TEMP[1].xxxx
 14:   MAD TEMP[3].z, -TEMP[1].yyyy, TEMP[1].yyyy, TEMP[3].zzzz
 15:   MUL TEMP[3].w, TEMP[1].xxxx, TEMP[1].yyyy
 16:   MAD TEMP[1].y, TEMP[3].wwww, IMM[2].wwww, TEMP[0].yyyy
 17:   ADD TEMP[1].x, TEMP[3].zzzz, TEMP[0].xxxx
 18:   ADD TEMP[2].x, TEMP[2].xxxx, IMM[1].yyyy
 19: ENDLOOP
 20: MUL TEMP[2].x, TEMP[2].xxxx, IMM[1].wwww
 21: ADD TEMP[3].x, IMM[1].yyyy, -TEMP[2].xxxx
 22: MUL TEMP[0].xyz, TEMP[2].xxxx, TEMP[3].xxxx
 23: MUL TEMP[0].x, TEMP[0].xxxx, IMM[2].xxxx
 24: MUL TEMP[0].y, TEMP[0].yyyy, TEMP[2].xxxx
 25: MUL TEMP[0].y, TEMP[0].yyyy, IMM[2].yyyy
 26: MUL TEMP[0].z, TEMP[0].zzzz, TEMP[3].xxxx
 27: MUL TEMP[0].z, TEMP[0].zzzz, IMM[2].zzzz
 28: MOV_SAT OUT[0].xyz, TEMP[0].xyzz
 29: MOV OUT[0].w, IMM[1].yyyy
 30: END
`;

const bits = `FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] UINT32 { 255, 4, 1, 0 }
IMM[1] FLT32 { 0.0039, 1.0000, 0.0000, 0.0000 }
  0: F2U TEMP[0].xy, IN[0].xyyy
  1: XOR TEMP[0].z, TEMP[0].xxxx, TEMP[0].yyyy
  2: AND TEMP[0].z, TEMP[0].zzzz, IMM[0].xxxx
  3: SHL TEMP[0].w, TEMP[0].zzzz, IMM[0].zzzz
  4: AND TEMP[0].w, TEMP[0].wwww, IMM[0].xxxx
  5: U2F TEMP[1].x, TEMP[0].zzzz
  6: U2F TEMP[1].y, TEMP[0].wwww
  7: USHR TEMP[0].z, TEMP[0].zzzz, IMM[0].yyyy
  8: U2F TEMP[1].z, TEMP[0].zzzz
  9: MUL TEMP[1].xy, TEMP[1].xyyy, IMM[1].xxxx
 10: MUL TEMP[1].z, TEMP[1].zzzz, IMM[1].xxxx
 11: MOV OUT[0].xyz, TEMP[1].xyzz
 12: MOV OUT[0].w, IMM[1].yyyy
 13: END
`;

const cubeVs = `VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL CONST[15][1]
DCL TEMP[0..3]
IMM[0] FLT32 { 0.7000, 0.5000, 2.5000, 1.0000 }
IMM[1] FLT32 { 2.3000, 0.0000, 0.0000, 0.0000 }
IMM[2] FLT32 { 0.6000, 0.4500, 0.0000, 0.0000 }
  0: MAD TEMP[0].x, CONST[15][1].xxxx, IMM[0].xxxx, IMM[2].xxxx
  1: COS TEMP[1].x, TEMP[0].xxxx
  2: SIN TEMP[1].y, TEMP[0].xxxx
  3: MAD TEMP[0].y, CONST[15][1].xxxx, IMM[0].yyyy, IMM[2].yyyy
  4: COS TEMP[1].z, TEMP[0].yyyy
  5: SIN TEMP[1].w, TEMP[0].yyyy
  6: MUL TEMP[2].x, IN[0].xxxx, TEMP[1].xxxx
  7: MAD TEMP[2].x, IN[0].zzzz, TEMP[1].yyyy, TEMP[2].xxxx
  8: MUL TEMP[2].z, IN[0].zzzz, TEMP[1].xxxx
  9: MAD TEMP[2].z, -IN[0].xxxx, TEMP[1].yyyy, TEMP[2].zzzz
 10: MUL TEMP[2].y, IN[0].yyyy, TEMP[1].zzzz
 11: MAD TEMP[2].y, -TEMP[2].zzzz, TEMP[1].wwww, TEMP[2].yyyy
 12: MUL TEMP[0].z, IN[0].yyyy, TEMP[1].wwww
 13: MAD TEMP[2].z, TEMP[2].zzzz, TEMP[1].zzzz, TEMP[0].zzzz
 14: MUL TEMP[3].x, IN[1].xxxx, TEMP[1].xxxx
 15: MAD TEMP[3].x, IN[1].zzzz, TEMP[1].yyyy, TEMP[3].xxxx
 16: MUL TEMP[3].z, IN[1].zzzz, TEMP[1].xxxx
 17: MAD TEMP[3].z, -IN[1].xxxx, TEMP[1].yyyy, TEMP[3].zzzz
 18: MUL TEMP[3].y, IN[1].yyyy, TEMP[1].zzzz
 19: MAD TEMP[3].y, -TEMP[3].zzzz, TEMP[1].wwww, TEMP[3].yyyy
 20: MUL TEMP[0].w, IN[1].yyyy, TEMP[1].wwww
 21: MAD TEMP[3].z, TEMP[3].zzzz, TEMP[1].zzzz, TEMP[0].wwww
 22: MOV OUT[1], TEMP[3]
 23: MUL OUT[0].xy, TEMP[2].xyyy, IMM[1].xxxx
 24: ADD OUT[0].w, IMM[0].zzzz, -TEMP[2].zzzz
 25: MUL OUT[0].z, TEMP[2].zzzz, -IMM[0].yyyy
 26: END
`;

const cubeFs = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 0.3980, 0.5970, 0.6970, 0.0000 }
IMM[1] FLT32 { 0.9000, 0.5500, 0.2000, 1.0000 }
IMM[2] FLT32 { 0.1500, 0.0000, 0.0000, 1.0000 }
  0: DP3 TEMP[0].x, IN[0], IMM[0]
  1: MAX TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww
  2: ADD TEMP[0].x, TEMP[0].xxxx, IMM[2].xxxx
  3: MUL OUT[0].xyz, IMM[1].xyzz, TEMP[0].xxxx
  4: MOV OUT[0].w, IMM[1].wwww
  5: END
`;

const sphereVs = `VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], GENERIC[1]
IMM[0] FLT32 { 0.8000, 0.5000, 1.0000, 0.0000 }
  0: MUL OUT[0].xy, IN[0].xyyy, IMM[0].xxxx
  1: MUL OUT[0].z, IN[0].zzzz, -IMM[0].yyyy
  2: MOV OUT[0].w, IMM[0].zzzz
  3: MOV OUT[1], IN[1]
  4: MOV OUT[2], IN[2]
  5: END
`;

const sphereFs = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL IN[1], GENERIC[1], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 12.0000, 0.5000, 1.0000, 0.2000 }
  0: MUL TEMP[0].x, IN[1].xxxx, IMM[0].xxxx
  1: FRC TEMP[0].x, TEMP[0].xxxx
  2: SGE TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  3: MAD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy, IMM[0].wwww
  4: MAX TEMP[0].y, IN[0].zzzz, -IN[0].zzzz
  5: MUL TEMP[0].x, TEMP[0].xxxx, TEMP[0].yyyy
  6: MUL OUT[0].xyz, TEMP[0].xxxx, IN[1].xyxx
  7: MOV OUT[0].xz, TEMP[0].xxxx
  8: MOV OUT[0].w, IMM[0].zzzz
  9: END
`;

const cubeMapVs = `VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
IMM[0] FLT32 { 0.8000, 0.5000, 1.0000, 0.0000 }
  0: MUL OUT[0].xy, IN[0].xyyy, IMM[0].xxxx
  1: MUL OUT[0].z, IN[0].zzzz, -IMM[0].yyyy
  2: MOV OUT[0].w, IMM[0].zzzz
  3: MOV OUT[1], IN[1]
  4: END
`;

const cubeMapFs = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], CUBE, FLOAT
  0: TEX OUT[0], IN[0], SAMP[0], CUBE
  1: END
`;

const legacy = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 { 0.5000, 0.4500, 2.0000, 1.0000 }
  0: SUB TEMP[0].xy, IN[0].xyyy, IMM[0].xxxx
  1: ABS TEMP[0].xy, TEMP[0].xyyy
  2: ADD TEMP[0].z, TEMP[0].xxxx, TEMP[0].yyyy
  3: SUB TEMP[0].w, IMM[0].yyyy, TEMP[0].zzzz
  4: KIL TEMP[0].wwww
  5: MUL OUT[0].xyz, TEMP[0].xyzz, IMM[0].zzzz
  6: MOV OUT[0].w, IMM[0].wwww
  7: END
`;

const mouse = `FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL CONST[15][0..2]
DCL TEMP[0]
IMM[0] FLT32 { 0.0200, 1.0000, 0.0000, 0.3000 }
  0: ADD TEMP[0].xy, IN[0].xyyy, -CONST[15][2].xyyy
  1: MUL TEMP[0].xy, TEMP[0].xyyy, CONST[15][0].zwww
  2: DP2 TEMP[0].x, TEMP[0].xyyy, TEMP[0].xyyy
  3: MUL TEMP[0].x, TEMP[0].xxxx, -IMM[0].xxxx
  4: RCP TEMP[0].y, IMM[0].xxxx
  5: MUL TEMP[0].x, TEMP[0].xxxx, TEMP[0].yyyy
  6: MUL TEMP[0].x, TEMP[0].xxxx, TEMP[0].yyyy
  7: EX2 TEMP[0].x, TEMP[0].xxxx
  8: MOV OUT[0].xyz, TEMP[0].xxxx
  9: MOV OUT[0].y, IMM[0].wwww
 10: MOV OUT[0].w, IMM[0].yyyy
 11: END
`;

// ---- compute and geometry (the stage selector) ------------------------------------------------

/**
 * Inclusive prefix sums of each block's 16 words (Hillis–Steele in shared memory): step d adds
 * s[i − d] to s[i], with BARRIERs between the reads and the writes.
 */
const prefixSum = `COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 16
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL MEMORY[0], SHARED
DCL TEMP[0..5]
IMM[0] UINT32 {4, 1, 16, 0}
  0: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  1: UMAD TEMP[4].x, SV[1].xxxx, IMM[0].zzzz, SV[0].xxxx
  2: UMUL TEMP[4].x, TEMP[4].xxxx, IMM[0].xxxx
  3: LOAD TEMP[1].x, BUFFER[0], TEMP[4].xxxx
  4: STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[1].xxxx
  5: BARRIER
  6: MOV TEMP[2].x, IMM[0].yyyy
  7: BGNLOOP
  8:   USGE TEMP[3].x, TEMP[2].xxxx, IMM[0].zzzz
  9:   UIF TEMP[3].xxxx
 10:     BRK
 11:   ENDIF
 12:   LOAD TEMP[1].x, MEMORY[0], TEMP[0].xxxx
 13:   USGE TEMP[3].y, SV[0].xxxx, TEMP[2].xxxx
 14:   UIF TEMP[3].yyyy
 15:     UADD TEMP[3].z, SV[0].xxxx, -TEMP[2].xxxx
 16:     UMUL TEMP[3].z, TEMP[3].zzzz, IMM[0].xxxx
 17:     LOAD TEMP[5].x, MEMORY[0], TEMP[3].zzzz
 18:     UADD TEMP[1].x, TEMP[1].xxxx, TEMP[5].xxxx
 19:   ENDIF
 20:   BARRIER
 21:   STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[1].xxxx
 22:   BARRIER
 23:   SHL TEMP[2].x, TEMP[2].xxxx, IMM[0].yyyy
 24: ENDLOOP
 25: LOAD TEMP[1].x, MEMORY[0], TEMP[0].xxxx
 26: STORE BUFFER[0].x, TEMP[4].xxxx, TEMP[1].xxxx
 27: END
`;

/**
 * A histogram: every invocation adds 1 to bin (value & 3) of BUFFER[1] with ATOMUADD, and counts
 * itself in the counter HWATOMIC[0][0].
 */
const histogram = `COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL SV[2], BLOCK_SIZE
DCL BUFFER[0]
DCL BUFFER[1], ATOMIC
DCL HWATOMIC[0][0]
DCL TEMP[0..2]
IMM[0] UINT32 {4, 3, 0, 1}
  0: UMAD TEMP[0].x, SV[1].xxxx, SV[2].xxxx, SV[0].xxxx
  1: UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
  2: LOAD TEMP[1].x, BUFFER[0], TEMP[0].xxxx
  3: AND TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy
  4: UMUL TEMP[1].x, TEMP[1].xxxx, IMM[0].xxxx
  5: ATOMUADD TEMP[2].x, BUFFER[1], TEMP[1].xxxx, IMM[0].wwww
  6: ATOMUADD TEMP[2].x, HWATOMIC[0][0], IMM[0].zzzz, IMM[0].wwww
  7: END
`;

/** Writes an 8×8 RGBA8 image: red from x, green from y, one invocation per texel. */
const imageWrite = `COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
PROPERTY CS_FIXED_BLOCK_HEIGHT 8
DCL SV[0], THREAD_ID
DCL IMAGE[0], 2D, PIPE_FORMAT_R8G8B8A8_UNORM, WR
DCL TEMP[0..1]
IMM[0] FLT32 {0.1429, 0.5000, 1.0000, 0.0000}
  0: U2F TEMP[0].xy, SV[0].xyyy
  1: MUL TEMP[1].xy, TEMP[0].xyyy, IMM[0].xxxx
  2: MOV TEMP[1].z, IMM[0].yyyy
  3: MOV TEMP[1].w, IMM[0].zzzz
  4: STORE IMAGE[0], SV[0].xyyy, TEMP[1]
  5: END
`;

/** The quad mesh's position and uv, unchanged, for the geometry shader. */
const passVs = `VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
`;

/**
 * Each input triangle shrunk to half its size around its centroid c (vertex v becomes
 * (v + c) / 2), coloured by its primitive number: (1 − id, id, 0.5, 1).
 */
const shrinkGs = `GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 3
DCL IN[][0], POSITION
DCL SV[0], PRIM_ID
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0..2]
IMM[0] FLT32 {0.3333333, 0.5000, 1.0000, 0.0000}
IMM[1] INT32 {0, 0, 0, 0}
  0: ADD TEMP[0], IN[0][0], IN[1][0]
  1: ADD TEMP[0], TEMP[0], IN[2][0]
  2: MUL TEMP[0], TEMP[0], IMM[0].xxxx
  3: U2F TEMP[2].y, SV[0].xxxx
  4: ADD TEMP[2].x, IMM[0].zzzz, -TEMP[2].yyyy
  5: MOV TEMP[2].zw, IMM[0].yyyz
  6: MOV OUT[1], TEMP[2]
  7: ADD TEMP[1], IN[0][0], TEMP[0]
  8: MUL OUT[0], TEMP[1], IMM[0].yyyy
  9: EMIT IMM[1].xxxx
 10: ADD TEMP[1], IN[1][0], TEMP[0]
 11: MUL OUT[0], TEMP[1], IMM[0].yyyy
 12: EMIT IMM[1].xxxx
 13: ADD TEMP[1], IN[2][0], TEMP[0]
 14: MUL OUT[0], TEMP[1], IMM[0].yyyy
 15: EMIT IMM[1].xxxx
 16: ENDPRIM IMM[1].xxxx
 17: END
`;

const colorFs = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
`;

/** Two colour targets and the depth: COLOR[1] is the inverse of COLOR[0], depth from uv.x. */
const mrtFs = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR[0]
DCL OUT[1], COLOR[1]
DCL OUT[2], POSITION
IMM[0] FLT32 {1.0000, 0.0000, 0.5000, 0.0000}
  0: MOV OUT[0], IN[0]
  1: MOV OUT[0].w, IMM[0].xxxx
  2: ADD OUT[1].xyz, IMM[0].xxxx, -IN[0]
  3: MOV OUT[1].w, IMM[0].xxxx
  4: MOV OUT[2].z, IN[0].xxxx
  5: END
`;

/** The cube mesh (with its depth test), scaled down; GENERIC[0] carries the normal as a colour. */
const mrtVs = `VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
IMM[0] FLT32 {0.5000, 0.5000, 0.5000, 1.0000}
  0: MUL OUT[0], IN[0], IMM[0]
  1: MAD OUT[1], IN[1], IMM[0], IMM[0]
  2: END
`;

/**
 * The gallery. `constants` maps `buffer:index` to four floats; `textures` maps a unit to a
 * built-in texture name (see textures.js).
 */
export const EXAMPLES = [
  { id: 'gradient', title: 'UV gradient', note: 'Colour from the interpolated texture coordinate.', fs: gradient },
  { id: 'rainbow', title: 'Cosine palette', note: 'Colour math with COS and the time uniform (press play).', fs: rainbow },
  { id: 'constants', title: 'Constant colours', note: 'LRP between two colours set in the Constants panel.', fs: constantsMix,
    constants: { '0:0': [0.1, 0.2, 0.6, 1], '0:1': [1, 0.75, 0.2, 1], '0:2': [4, 0, 0, 0] } },
  { id: 'texture', title: 'Texture sampling', note: 'TEX with repeat wrapping of the checker texture.', fs: textureSample,
    textures: { 0: { name: 'checker' } }, needs: 'texture' },
  { id: 'mip-levels', title: 'Mip levels', note: 'TXL picks a level explicitly: each level has its own colour.', fs: textureLod,
    textures: { 0: { name: 'mip-levels', min: 'linear', mip: 'nearest' } }, needs: 'texture' },
  { id: 'cube-map', title: 'Cube map', note: 'The sphere\u2019s normals look up a cube map: one colour per face.', fs: cubeMapFs, vs: cubeMapVs, mesh: 'sphere',
    textures: { 0: { name: 'cube-faces', min: 'nearest', mag: 'nearest' } }, needs: 'texture' },
  { id: 'edges', title: 'Edge detection', note: 'DDX and DDY find the rings\u2019 edges.', fs: edges },
  { id: 'discard', title: 'Discard', note: 'KILL_IF punches holes outside each dot.', fs: discard },
  { id: 'mandelbrot', title: 'Mandelbrot loop', note: 'BGNLOOP, BRK and ENDLOOP draw a fractal.', fs: mandelbrot },
  { id: 'bits', title: 'Integer bit ops', note: 'F2U, XOR, AND, SHL, USHR on pixel coordinates.', fs: bits },
  { id: 'cube', title: 'Lit rotating cube', note: 'A vertex shader rotates the cube mesh; press play.', fs: cubeFs, vs: cubeVs, mesh: 'cube' },
  { id: 'sphere', title: 'Striped sphere', note: 'The sphere mesh with its normals and uv.', fs: sphereFs, vs: sphereVs, mesh: 'sphere' },
  { id: 'legacy', title: 'Legacy syntax', note: 'SUB, ABS and KIL from 2010-era TGSI (each flagged as legacy).', fs: legacy, expectCodes: ['P106'] },
  { id: 'mouse', title: 'Mouse spot', note: 'Drag on the picture: the mouse uniform.', fs: mouse },
  { id: 'render-targets', title: 'Render targets and depth', note: 'Two COLOR outputs and POSITION on the cube: pick COLOR[1] or Depth above the picture.', fs: mrtFs, vs: mrtVs, mesh: 'cube' },
  { id: 'geometry-shrink', title: 'Geometry: shrunk triangles', note: 'A geometry shader emits each triangle of the quad at half size, coloured by PRIM_ID; the emitted primitives are listed below the picture.',
    stage: 'geometry', fs: colorFs, vs: passVs, mesh: 'quad', gs: shrinkGs },
  { id: 'prefix-sum', title: 'Compute: prefix sums', note: 'Shared memory and BARRIER: each block of 16 invocations sums its words (inclusive scan).',
    stage: 'compute', fs: colorFs, cs: prefixSum,
    compute: { grid: [2, 1, 1], block: null, shared: 0, resources: [{ kind: 'buffer', index: 0, words: Array.from({ length: 32 }, (_, i) => i + 1).join(' '), size: 32 }] } },
  { id: 'histogram', title: 'Compute: histogram with atomics', note: 'ATOMUADD counts each value\u2019s low two bits into BUFFER[1] and every invocation into HWATOMIC[0][0].',
    stage: 'compute', fs: colorFs, cs: histogram,
    compute: { grid: [3, 1, 1], block: null, shared: 0, resources: [
      { kind: 'buffer', index: 0, words: Array.from({ length: 24 }, (_, i) => i * i + 1).join(' '), size: 24 },
      { kind: 'buffer', index: 1, words: '', size: 4 },
      { kind: 'atomic', index: 0, words: '', size: 1 }] } },
  { id: 'image-write', title: 'Compute: write an image', note: 'STORE to an RGBA8 image, one invocation per texel.',
    stage: 'compute', fs: colorFs, cs: imageWrite,
    compute: { grid: [1, 1, 1], block: null, shared: 0, resources: [{ kind: 'image', index: 0, words: '', size: 0, format: 'R8G8B8A8_UNORM', width: 8, height: 8 }] } },
];

export const DEFAULT_EXAMPLE = 'rainbow';
