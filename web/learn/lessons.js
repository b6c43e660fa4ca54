// @ts-check
// The "Learn TGSI" lessons: the one place that holds each lesson's text, the names of its
// starting program and reference solution (files of programs/lessons/, read through
// ../programs.js) and its goal. The page (web/learn/main.js) shows them, the checker
// (web/learn/checker.js) evaluates the goals, and the tests (tests/e2e/learn.test.mjs) check that
// every solution passes and no starting program does.
//
// A goal's expected picture is a formula written here by hand (`expect(u, v, x, y)`), never a
// picture our engine drew. Pictures are `size`×`size` pixels; `x` counts columns from the left,
// `y` rows from the top (as the canvas shows them); `u = (x + ½)/size` and `v = (size − y − ½)/size`
// are the texture coordinates every GENERIC input reads on the fullscreen triangle (0,0 at the
// bottom-left corner). A colour is four numbers in 0..1, `null` where the goal does not care
// (pixels on an edge, where a half-pixel difference is not the learner's mistake).

import { program } from '../programs.js';

/**
 * @typedef {[number, number, number, number]} Rgba
 * @typedef {{
 *   size: number,
 *   expect: (u: number, v: number, x: number, y: number) => Rgba | null,
 *   maxInstructions?: number,
 *   minOpcodes?: Record<string, number>,
 *   agalVersion?: number,
 * }} Goal
 * @typedef {{
 *   id: string, title: string, opcodes: string[], text: string, goal: string, hint: string,
 *   success: string, stage?: 'fs' | 'vs', fs?: string, mesh?: string,
 *   textures?: Record<number, Record<string, any>>,
 *   start: string, solution: string, check: Goal,
 * }} Lesson
 */

/** Transparent black: what a pixel holds when no fragment was written there (discard, no triangle). */
export const EMPTY = /** @type {Rgba} */ ([0, 0, 0, 0]);

const RED = /** @type {Rgba} */ ([1, 0, 0, 1]);
const GREEN = /** @type {Rgba} */ ([0, 1, 0, 1]);
const BLUE = /** @type {Rgba} */ ([0, 0, 1, 1]);
const WHITE = /** @type {Rgba} */ ([1, 1, 1, 1]);
const BLACK = /** @type {Rgba} */ ([0, 0, 0, 1]);

/** Distance of (u, v) from the centre of the picture. */
const fromCentre = (/** @type {number} */ u, /** @type {number} */ v) => Math.hypot(u - 0.5, v - 0.5);

/** The mip-levels texture (web/textures.js) paints level k in one colour; levels 0..3 as 8-bit RGBA. */
const MIP_COLOURS = [[230, 60, 60, 255], [60, 200, 80, 255], [60, 110, 240, 255], [240, 210, 50, 255]];

/** @type {Lesson[]} */
export const LESSONS = [
  {
    id: 'registers',
    title: 'Registers and immediates',
    opcodes: ['MOV'],
    text: `<p>A TGSI shader is a list of declarations followed by instructions. Every value lives in a
<em>register</em> of four 32-bit channels, <code>x y z w</code>. Registers come in files:
<code>IN</code> (what the stage receives), <code>OUT</code> (what it produces), <code>TEMP</code>
(scratch space), <code>CONST</code> (uniforms) and <code>IMM</code> (numbers written into the
program). A fragment shader's <code>OUT[0]</code>, declared with the <code>COLOR</code> semantic, is
the pixel's colour: red, green, blue and alpha in its four channels, from 0 to 1.</p>
<p>The program below fills every pixel with the first immediate. <code>MOV</code> copies its
source register into its destination; <code>END</code> finishes the program.</p>`,
    goal: 'Paint the whole picture orange: red 1, green 0.5, blue 0, alpha 1.',
    hint: 'Change the numbers of IMM[0]: its four values are the red, green, blue and alpha that MOV copies into OUT[0].',
    success: 'Orange everywhere. Every pixel ran the same two instructions and got the same immediate.',
    start: program('lessons/registers.start'),
    solution: program('lessons/registers.solution'),
    check: { size: 16, expect: () => [1, 0.5, 0, 1] },
  },
  {
    id: 'swizzle',
    title: 'Swizzles and write masks',
    opcodes: ['MOV'],
    text: `<p>A source operand can pick and repeat its channels: <code>IN[0].yxxx</code> reads y into the
first channel and x into the other three. That is a <em>swizzle</em>. A destination can name the
channels it writes: <code>OUT[0].xy</code> changes only red and green and leaves z and w as they
were. That is a <em>write mask</em>. Channel i of the destination takes channel i of the swizzled
source, so <code>MOV OUT[0].zw, IMM[0].xxxy</code> writes IMM[0].x into z and IMM[0].y into w.</p>
<p>Here <code>IN[0]</code> is the texture coordinate (u, v, 0, 1): u grows from 0 at the left edge to 1
at the right, v from 0 at the bottom to 1 at the top.</p>`,
    goal: 'Red = v, green = u, blue = 0.5, alpha = 1, in at most two instructions (END not counted).',
    hint: 'One MOV with the mask .xy and the swizzle .yx… swaps u and v; a second MOV with the mask .zw fills blue and alpha from an immediate.',
    success: 'Two MOVs, four channels: swizzles choose what is read, masks choose what is written.',
    start: program('lessons/swizzle.start'),
    solution: program('lessons/swizzle.solution'),
    check: { size: 16, maxInstructions: 2, expect: (u, v) => [v, u, 0.5, 1] },
  },
  {
    id: 'arithmetic',
    title: 'Arithmetic: x³ in two instructions',
    opcodes: ['MUL', 'MAD', 'ADD', 'MOV'],
    text: `<p>Arithmetic instructions work on all four channels at once, each channel on its own:
<code>ADD</code> adds, <code>MUL</code> multiplies, <code>MAD a, b, c</code> computes a·b + c.
A result can go to a <code>TEMP</code> register and be read again by a later instruction.</p>
<p>The program computes u² into the red channel. Square numbers grow slowly at first, so the left
side is dark.</p>`,
    goal: 'Red = u³ (green and blue 0, alpha 1) with at most three instructions: one MOV for the other channels and two for the cube.',
    hint: 'Keep u² in TEMP[0].x, then one more MUL of TEMP[0].x by IN[0].x written into OUT[0].x.',
    success: 'u · u · u: each MUL reads the previous result, and the write mask keeps green, blue and alpha from the first MOV.',
    start: program('lessons/arithmetic.start'),
    solution: program('lessons/arithmetic.solution'),
    check: { size: 16, maxInstructions: 3, expect: (u) => [u * u * u, 0, 0, 1] },
  },
  {
    id: 'mix',
    title: 'Mixing colours with LRP',
    opcodes: ['LRP', 'MAD'],
    text: `<p><code>LRP a, b, c</code> is linear interpolation: a·b + (1 − a)·c. With a = 0 it gives c, with
a = 1 it gives b, and in between a blend. Shaders use it for gradients, fades and mixing two
results by a mask.</p>
<p>The program paints everything blue. Both colours you need are already immediates.</p>`,
    goal: 'Blend from blue at the left edge to yellow at the right edge: (u, u, 1 − u, 1).',
    hint: 'LRP OUT[0], IN[0].xxxx, IMM[1], IMM[0]: the weight u takes yellow (IMM[1]) at the right and blue (IMM[0]) at the left.',
    success: 'One LRP, four channels blended by the same weight.',
    start: program('lessons/mix.start'),
    solution: program('lessons/mix.solution'),
    check: { size: 16, minOpcodes: { LRP: 1 }, expect: (u) => [u, u, 1 - u, 1] },
  },
  {
    id: 'compare',
    title: 'Comparisons without branches',
    opcodes: ['SLT', 'SGE', 'CMP', 'ADD'],
    text: `<p>GPUs avoid branches where they can. <code>SLT a, b</code> writes 1.0 where a &lt; b and 0.0
elsewhere (<code>SGE</code> is its opposite); the result can weigh colours like any number.
<code>CMP a, b, c</code> picks per channel: b where a is negative, c where it is not.</p>
<p>A leading minus sign negates a source: <code>-IMM[0].xxxx</code>.</p>`,
    goal: 'Make the left half red and the right half green.',
    hint: 'Compute u − 0.5 (ADD with a negated immediate) into a TEMP, then CMP OUT[0], TEMP[0].xxxx, red, green.',
    success: 'CMP chose a colour per pixel without any branch: every pixel ran every instruction.',
    start: program('lessons/compare.start'),
    solution: program('lessons/compare.solution'),
    check: { size: 16, expect: (u) => (Math.abs(u - 0.5) < 0.05 ? null : u < 0.5 ? RED : GREEN) },
  },
  {
    id: 'integers',
    title: 'Conversions and integer bits',
    opcodes: ['F2U', 'U2F', 'USHR', 'XOR', 'AND'],
    text: `<p>Registers hold 32 bits; whether they are a float or an integer depends on the instruction
that reads them. <code>F2U</code> converts a float to an unsigned integer (dropping the fraction),
<code>U2F</code> converts back. In between, integer instructions work on the bits:
<code>USHR</code> shifts right, <code>AND</code>, <code>OR</code> and <code>XOR</code> combine bit by
bit. Immediates for them are written as <code>UINT32</code>.</p>
<p>The <code>POSITION</code> input of a fragment shader is the pixel's window position: x counts
pixels from the left edge, y from the bottom edge, both at the pixel centre (x + 0.5). The
program turns x into a column of 8-pixel cells (x shifted right by 3) and shows its lowest bit:
vertical stripes.</p>`,
    goal: 'Make a checkerboard of 8×8-pixel cells: white where the column cell and the row cell (counted from the bottom) differ in their lowest bit, black elsewhere.',
    hint: 'The y cell is already in TEMP[0].y. XOR it with the x cell before the AND keeps only the lowest bit of the difference.',
    success: 'F2U, a shift, XOR and AND: integer work on the same registers that held floats a moment before.',
    start: program('lessons/integers.start'),
    solution: program('lessons/integers.solution'),
    check: {
      size: 32,
      // The row counted from the bottom is size − 1 − y; cells are 8 pixels.
      expect: (u, v, x, y) => ((((x >> 3) ^ ((31 - y) >> 3)) & 1) === 1 ? WHITE : BLACK),
    },
  },
  {
    id: 'branches',
    title: 'IF, ELSE and the execution mask',
    opcodes: ['IF', 'ELSE', 'ENDIF', 'DP2', 'SLT'],
    text: `<p>TGSI runs four pixels together, a 2×2 <em>quad</em>, one lane each. When an
<code>IF</code> condition (its x channel, non-zero meaning true) differs between the lanes, the
machine runs <em>both</em> branches: during the first branch the lanes whose condition was false
are switched off in the <em>execution mask</em>, during <code>ELSE</code> the others are. A switched-off
lane writes nothing. So a branch saves work only when all four lanes agree.</p>
<p>The program puts the squared distance from the centre into TEMP[0].x and a flag (1.0 inside a
circle of radius 0.3, whose square is 0.09) into TEMP[0].y, but both branches paint blue.</p>`,
    goal: 'Paint the disc of radius 0.3 around the centre red and the rest blue, using IF.',
    hint: 'The first branch runs where the flag is 1.0 (inside): make its MOV write the red immediate IMM[2].',
    success: 'On the circle\u2019s edge a quad has lanes inside and outside: both branches ran there, each writing only its own lanes.',
    start: program('lessons/branches.start'),
    solution: program('lessons/branches.solution'),
    check: {
      size: 32,
      minOpcodes: { IF: 1 },
      expect: (u, v) => (Math.abs(fromCentre(u, v) - 0.3) < 0.05 ? null : fromCentre(u, v) < 0.3 ? RED : BLUE),
    },
  },
  {
    id: 'loops',
    title: 'Loops: counting iterations',
    opcodes: ['BGNLOOP', 'ENDLOOP', 'BRK', 'SGE', 'ADD'],
    text: `<p><code>BGNLOOP</code> … <code>ENDLOOP</code> repeats its body until every lane has left it.
A lane leaves with <code>BRK</code>, usually inside an <code>IF</code>; from then on the
execution mask switches it off while the other lanes go round again. The quad finishes the loop
when its slowest lane does.</p>
<p>The program counts iterations in TEMP[1].x and stops when the count reaches 4, for every pixel
alike; the red channel shows count / 8. TEMP[0].x already holds 8·u.</p>`,
    goal: 'Count loop iterations into the red channel: stop when the count reaches 8·u (so red = ⌈8u⌉ / 8, eight steps from left to right).',
    hint: 'Compare the count with TEMP[0].xxxx instead of the immediate 4 in the SGE before the IF … BRK.',
    success: 'Pixels on the right went round the loop up to eight times while their neighbours on the left were already masked off.',
    start: program('lessons/loops.start'),
    solution: program('lessons/loops.solution'),
    // 8u = (x + ½)/4 at size 32 is never a whole number, so no pixel sits on a step.
    check: { size: 32, minOpcodes: { BGNLOOP: 1 }, expect: (u) => [Math.ceil(8 * u) / 8, 0, 0, 1] },
  },
  {
    id: 'derivatives',
    title: 'Derivatives and quads',
    opcodes: ['DDX', 'DDY', 'MUL'],
    text: `<p>Because the four pixels of a quad run together, a shader can ask how a value changes from one
pixel to the next. <code>DDX</code> gives the difference between the right and the left column of
the quad, <code>DDY</code> between the upper and the lower row. Softpipe takes both from one pair of
pixels, so all four lanes of a quad get the same derivative. Texture sampling uses this to pick a
mip level; edge detection and anti-aliasing use it too. Pixels outside a triangle still run as
<em>helper lanes</em> so that their neighbours' derivatives exist.</p>
<p>The program shows 16·u² in red.</p>`,
    goal: 'Show 16 × DDX(u²) in red: per quad, 16 × (u² of its right column − u² of its left column). With 32 pixels across that is (x₀ + 1)/32, x₀ the quad\u2019s left column.',
    hint: 'Compute u² into a TEMP, take DDX of it into another TEMP, and multiply that by 16 into OUT[0].x.',
    success: 'The red channel steps every two pixels: both columns of a quad share one derivative.',
    start: program('lessons/derivatives.start'),
    solution: program('lessons/derivatives.solution'),
    check: {
      size: 32,
      // u at the quad's columns x₀ and x₀ + 1 is (x₀ + ½)/32 and (x₀ + 1½)/32; the difference of
      // their squares is (2x₀ + 2)/1024, times 16 is (x₀ + 1)/32.
      expect: (u, v, x) => [((x & ~1) + 1) / 32, 0, 0, 1],
    },
  },
  {
    id: 'textures',
    title: 'Textures and mip levels',
    opcodes: ['TEX', 'TXL', 'FLR', 'MUL'],
    text: `<p>A texture is read through a sampler, declared with <code>DCL SAMP[0]</code> and
<code>DCL SVIEW[0], 2D, FLOAT</code>. <code>TEX dst, coord, SAMP[0], 2D</code> samples at the
coordinate's xy. A texture has <em>mip levels</em>, each half the size of the one before;
<code>TEX</code> picks the level from the derivatives of the coordinate (how many texels one pixel
covers), <code>TXL</code> takes it from <code>coord.w</code> instead, and <code>TXB</code> adds a
bias to the computed one.</p>
<p>The texture here paints each level in its own colour: level 0 red, 1 green, 2 blue, 3 yellow.
The picture and level 0 are both 32 pixels wide, so <code>TEX</code> reads level 0 everywhere.</p>`,
    goal: 'Show the mip levels side by side: four vertical bands, level ⌊4u⌋ in each (red, green, blue, yellow from the left).',
    hint: 'Put 4u into TEMP[0].w, round it down with FLR, and sample with TXL instead of TEX.',
    success: 'TXL ignored the derivatives and read the level you asked for.',
    textures: { 0: { name: 'mip-levels', min: 'linear', mip: 'nearest' } },
    start: program('lessons/textures.start'),
    solution: program('lessons/textures.solution'),
    check: {
      size: 32,
      // 4u = (x + ½)/8 is never whole at size 32.
      expect: (u) => /** @type {Rgba} */ (MIP_COLOURS[Math.floor(4 * u)].map((c) => c / 255)),
    },
  },
  {
    id: 'vertex',
    title: 'Vertex shaders and interpolation',
    opcodes: ['MUL', 'MOV'],
    stage: 'vs',
    mesh: 'quad',
    text: `<p>A vertex shader runs once per vertex. It must write <code>OUT[n], POSITION</code>, the clip-space
position: x and y from −1 to 1 cover the picture (after dividing by w). Its other outputs, here
<code>GENERIC[0]</code>, are <em>interpolated</em> across each triangle and arrive in the fragment
shader's input with the same semantic. <code>PERSPECTIVE</code> interpolation divides by w first;
with w = 1 it is a plain linear blend of the three vertices.</p>
<p>The mesh is a quad covering the whole picture; <code>IN[0]</code> is its corner position and
<code>IN[1]</code> its texture coordinate. The fragment shader (fixed, below) paints its input as a
colour. You edit the vertex shader.</p>`,
    goal: 'Shrink the quad to half its size around the centre, keeping the uv colours: the middle half of the picture shows the full red-green ramp, the border stays empty.',
    hint: 'Multiply IN[0].xy by 0.5 into OUT[0].xy and copy z and w unchanged (MOV OUT[0].zw, IN[0].zzzw).',
    success: 'Four vertices moved; the colours between them were interpolated for every pixel.',
    fs: program('shared/input-colour'),
    start: program('lessons/vertex.start.vs'),
    solution: program('lessons/vertex.solution.vs'),
    check: {
      size: 32,
      expect: (u, v) => {
        const inside = (t) => t > 0.25 && t < 0.75;
        const edge = (t) => Math.abs(t - 0.25) < 0.04 || Math.abs(t - 0.75) < 0.04;
        if (edge(u) || edge(v)) return null;
        // The quad's own uv runs from 0 to 1 across the middle half: (u − ¼)·2.
        return inside(u) && inside(v) ? [(u - 0.25) * 2, (v - 0.25) * 2, 0, 1] : EMPTY;
      },
    },
  },
  {
    id: 'discard',
    title: 'Discarding pixels: KILL_IF',
    opcodes: ['KILL_IF', 'KILL', 'DP2'],
    text: `<p>A fragment shader can refuse to write its pixel. <code>KILL_IF src</code> discards the lanes
where any channel of the source is negative; <code>KILL</code> discards every lane that reaches
it (use it inside an <code>IF</code>). A discarded pixel keeps whatever was there before: here,
the empty (transparent) background.</p>
<p>The program paints the uv ramp everywhere and already has the squared distance from the
centre in TEMP[0].x.</p>`,
    goal: 'Cut out a disc: keep the pixels within 0.4 of the centre, discard the rest.',
    hint: 'Compute 0.16 − distance² (ADD with a negated TEMP) and KILL_IF it: it is negative exactly outside the disc.',
    success: 'Outside the disc the lanes were killed and wrote nothing.',
    start: program('lessons/discard.start'),
    solution: program('lessons/discard.solution'),
    check: {
      size: 32,
      expect: (u, v) => (Math.abs(fromCentre(u, v) - 0.4) < 0.04 ? null : fromCentre(u, v) < 0.4 ? [u, v, 0, 1] : EMPTY),
    },
  },
  {
    id: 'subroutines',
    title: 'Subroutines: CAL, RET, BGNSUB',
    opcodes: ['CAL', 'RET', 'BGNSUB', 'ENDSUB', 'END'],
    text: `<p>A subroutine is a block between <code>BGNSUB</code> and <code>ENDSUB</code> placed after the
main program's <code>END</code>. <code>CAL :n</code> jumps to it, where n is the number of the
<code>BGNSUB</code> instruction counted from 0 (declarations and immediates do not count; the
<code>n:</code> numbers written before instructions are only for reading and are not checked).
<code>RET</code> returns to the instruction after the call. Subroutines share all registers with
the caller: arguments and results are just registers both agree on.</p>
<p>The subroutine here squares TEMP[0].x; the main program calls it once, so red = u².</p>`,
    goal: 'Red = u⁴ (green and blue 0, alpha 1) by calling the subroutine twice.',
    hint: 'Add a second CAL right after the first. The BGNSUB then moves one place down: both calls must name its new number.',
    success: 'Squared twice: u⁴, with one MUL written once.',
    start: program('lessons/subroutines.start'),
    solution: program('lessons/subroutines.solution'),
    check: { size: 16, minOpcodes: { CAL: 2 }, expect: (u) => [u ** 4, 0, 0, 1] },
  },
  {
    id: 'agal',
    title: 'Exporting to AGAL',
    opcodes: ['FLR', 'FRC', 'F2I', 'I2F'],
    text: `<p>AGAL is the shader bytecode of Adobe Stage3D. The playground translates TGSI into it (the
Compiled output panel of the playground, or <code>tgsi agal</code>). AGAL has only float
registers: no integers, no loops, no subroutines. A TGSI program that uses them cannot be
exported, and the exporter says which instruction is the obstacle.</p>
<p>This program draws four grey steps by converting 4u to an integer and back (<code>F2I</code>,
<code>I2F</code>), which AGAL cannot do. <code>FLR</code> rounds down without leaving floats, and
the exporter turns it into AGAL's <code>frc</code> and a subtraction.</p>`,
    goal: 'The same four grey steps, red = green = blue = ⌊4u⌋ / 4 and alpha 1, in a program that exports to AGAL version 1.',
    hint: 'Replace the F2I and I2F pair by one FLR of TEMP[0].x.',
    success: 'The program now exports: check the Compiled output panel of the playground for its AGAL assembly.',
    start: program('lessons/agal.start'),
    solution: program('lessons/agal.solution'),
    // 4u = (x + ½)/4 is never whole at size 16.
    check: { size: 16, agalVersion: 1, expect: (u) => { const g = Math.floor(4 * u) / 4; return [g, g, g, 1]; } },
  },
];
