//! The command line as `clap` (derive) types: every subcommand, option, help text and example.
//! `tgsi --help`, `tgsi SUBCOMMAND --help` and the shell completions are generated from these
//! types, so they cannot drift from what is accepted.
//!
//! Conventions kept from the first hand-written reader: `--name value` and `--name=value`, a
//! repeated single-value option keeps its last value (`args_override_self`), values may start
//! with `-` where a number can be negative (`--time -1`), and a FILE of `-` is standard input.

use clap::{Args, Parser, Subcommand, ValueEnum};

/// `2^k` for a power of two (the budgets' limits are all powers of two).
fn power_of_two(n: u64) -> String {
    format!("2^{}", n.trailing_zeros())
}

/// The budget's limits as `--budget`'s help states them: `[default: … at least 2^20; at most
/// 2^41]`, from `limits` (each help is written from the constants it quotes, so it cannot
/// drift from them).
fn budget_limits(per: &str) -> String {
    use crate::limits::{DEFAULT_WORK_PER_QUAD, MAX_BUDGET, MIN_FRAME_BUDGET};
    format!(
        "[default: {} per {per}, at least {}; at most {}]",
        power_of_two(DEFAULT_WORK_PER_QUAD),
        power_of_two(MIN_FRAME_BUDGET),
        power_of_two(MAX_BUDGET)
    )
}

/// `render` and `trace --budget`: what a quad-instruction is, what the costly instructions
/// count (`exec::work`'s weights) and the limits.
fn frame_budget_help(what: &str) -> String {
    use crate::exec::work::{LIBM_WEIGHT, SAMPLE_WEIGHT, TRIG_WEIGHT};
    format!(
        "Quad-instructions (one instruction run for one 2x2 quad; a texture sample counts \
         {SAMPLE_WEIGHT}, SIN and COS {TRIG_WEIGHT}, EX2, LG2 and POW {LIBM_WEIGHT}) {what} may \
         run {}",
        budget_limits("2x2 quad")
    )
}

/// `run --budget` (compute): the dispatch's quads are groups of four invocations.
fn dispatch_budget_help() -> String {
    format!(
        "Quad-instructions (one instruction run for 4 invocations) the whole dispatch may run {}",
        budget_limits("4 invocations")
    )
}

/// `diff --budget`: each run is one quad's frame, so its default is the least frame budget.
fn run_budget_help() -> String {
    format!(
        "Quad-instructions one run of one shader may take [default: {}; at most {}]",
        power_of_two(crate::limits::MIN_FRAME_BUDGET),
        power_of_two(crate::limits::MAX_BUDGET)
    )
}

/// How diagnostics are printed (`--format`, docs/diagnostics.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiagFormat {
    /// `FILE:LINE:COL: error: MESSAGE [CODE]`, one line each (related places as `note:` lines).
    Short,
    /// A source excerpt with a caret under the span, labelled related places, notes and help.
    Rich,
    /// One JSON object per line (JSON Lines) in the schema of docs/diagnostics.md.
    Json,
}

/// Options every diagnostics-printing subcommand shares.
#[derive(Args, Debug, Clone, Default)]
pub struct DiagOptions {
    /// How diagnostics are printed [default: rich on a terminal, short otherwise]
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<DiagFormat>,
}

const EXAMPLES_TOP: &str = "\
Examples:
  tgsi check shader.tgsi
  tgsi render fs.tgsi --vs vs.tgsi --mesh cube --size 512x512 -o out.png
  tgsi run cs.tgsi --grid 4 --buffer 0=@64 --print
  tgsi completions bash > ~/.local/share/bash-completion/completions/tgsi

A FILE of '-' reads standard input.
Exit status: 0 success, 1 diagnostics with errors (or a stopped frame), 2 usage or I/O problems,
130 after Ctrl-C.";

#[derive(Parser, Debug)]
#[command(
    name = "tgsi-playground",
    bin_name = "tgsi",
    version,
    about = "Parse, validate, run and render Mesa Gallium TGSI shaders; export AGAL",
    after_help = EXAMPLES_TOP,
    arg_required_else_help = true,
    subcommand_value_name = "COMMAND"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print a shader in Mesa's dump format or losslessly
    #[command(
        args_override_self = true,
        after_help = "\
Examples:
  tgsi fmt shader.tgsi
  tgsi fmt --style mesa shader.tgsi > dump.tgsi"
    )]
    Fmt(FmtArgs),
    /// Parse and validate shaders (and the linkage of a vertex/fragment pair)
    #[command(
        args_override_self = true,
        after_help = "\
Examples:
  tgsi check shader.tgsi other.tgsi
  tgsi check --link vs.tgsi fs.tgsi
  tgsi check --format rich shader.tgsi
  cat shader.tgsi | tgsi check --format json -

The rich format ends with a count: \"2 shaders checked: 1 error, 1 warning\" or
\"1 shader checked: no problems\". Short and JSON print diagnostics only.

Exit status: 0 without errors, 1 with at least one error, 2 usage or I/O."
    )]
    Check(CheckArgs),
    /// Render a fragment shader (over a mesh or a vertices file) into an image
    #[command(
        args_override_self = true,
        after_help = "\
Examples:
  tgsi render fs.tgsi -o out.png
  tgsi render fs.tgsi --vs vs.tgsi --mesh cube --size 512x512 --const 0:0=1,0,0,1 -o out.png
  tgsi render fs.tgsi --vs vs.tgsi --vertices tri.json --fs-const 0:1=0.5,0.5,0.5,1 -o out.f32
  tgsi render mrt.tgsi --target 1 --depth depth.png -o color1.png

Exit status: 0 written, 1 diagnostics with errors (parse, validation, linkage, budget,
timeout), 2 usage or I/O, 130 after Ctrl-C (the partial image is written)."
    )]
    Render(RenderArgs),
    /// Measure rendering speed (frames, ms per frame, Mpix/s)
    #[command(
        args_override_self = true,
        after_help = "\
Examples:
  tgsi bench fs.tgsi --vs vs.tgsi --size 512x512 --seconds 5
  tgsi bench fs.tgsi --json > bench.json"
    )]
    Bench(BenchArgs),
    /// Show what the fragment shader did for one pixel, instruction by instruction
    #[command(
        args_override_self = true,
        after_help = "\
Examples:
  tgsi trace fs.tgsi --vs vs.tgsi --size 64x64 --pixel 10,20
  tgsi trace fs.tgsi --pixel 0,0 --lanes
  tgsi trace fs.tgsi --pixel 0,0 --json

Exit status: 0 traced, 1 diagnostics (or a pixel no primitive covers), 2 usage."
    )]
    Trace(TraceArgs),
    /// Do two shaders compute the same? Runs both on the same inputs and shows the first difference
    #[command(
        args_override_self = true,
        after_help = "\
Examples:
  tgsi diff before.tgsi after.tgsi
  tgsi diff a.tgsi b.tgsi --trials 10000 --seed 7
  tgsi diff cs_a.tgsi cs_b.tgsi --grid 2 --block 8

Fragment shaders: the picture both draw, then random quads; vertex shaders: the vertices of the
built-in meshes, then random quads; compute shaders: dispatches over buffers of random words.
Random values mix ordinary numbers with NaN, +-0, +-Inf, denormals, huge values and integer
edges; inputs are matched by semantic. A log holding several shaders: give --index-a/--index-b.

Exit status: 0 no difference found, 1 a difference (or outputs only one shader declares),
2 usage, I/O, or a shader with errors."
    )]
    Diff(DiffArgs),
    /// Run a compute shader on buffers and images read from files
    #[command(
        visible_alias = "compute",
        args_override_self = true,
        after_help = "\
Examples:
  tgsi run cs.tgsi --grid 4 --buffer 0=@64 --print
  tgsi run cs.tgsi --grid 2,2 --block 8,8 --image 0=R8G8B8A8_UNORM,16x16:out.bin
  tgsi run cs.tgsi --grid 1 --buffer 0=in.bin:out.bin --const 0:0=1,2,3,4
  tgsi run cs.tgsi --grid 64 --buffer 0=in.bin:out.bin --threads 4

Standard error says how many threads ran the blocks, and why not more when it used fewer.
Exit status: 0 success, 1 shader errors (parse, compile, run, budget, timeout), 2 usage or I/O,
130 after Ctrl-C."
    )]
    Run(RunArgs),
    /// Export a TGSI shader as AGAL (Adobe Stage3D) bytecode
    #[command(
        args_override_self = true,
        after_help = "\
Examples:
  tgsi agal fs.tgsi -o fs.agalbin
  tgsi agal fs.tgsi --asm --layout
  tgsi agal vs.tgsi --link fs.tgsi --agal-version 2 -o vs.agalbin"
    )]
    Agal(AgalArgs),
    /// Assemble AGAL text into bytecode
    #[command(
        args_override_self = true,
        after_help = "\
Examples:
  tgsi agal-asm fragment shader.agal -o shader.bin
  tgsi agal-asm vertex shader.agal --agal-version 2 -o -"
    )]
    AgalAsm(AgalAsmArgs),
    /// Disassemble AGAL bytecode
    #[command(
        args_override_self = true,
        after_help = "\
Examples:
  tgsi agal-dis shader.bin"
    )]
    AgalDis(AgalDisArgs),
    /// Explain an opcode: formula, operands, edge cases, Mesa's behaviour and AGAL, its lane table run now
    #[command(
        args_override_self = true,
        after_help = "\
Examples:
  tgsi explain UDIV
  tgsi explain udiv --lane '7, 0' --lane '0x80000000, 3 => 715827882'
  tgsi explain --list

A lane is the opcode's sources separated by commas, each one literal (every channel) or
`(x y z w)`, then optionally `=> EXPECTED`: floats as decimals, inf, -inf, nan or -0, integers
as decimals, any type as 0x and raw bits, as in the reference's lane tables (README, \"The
opcode reference\"). The computed column uses the same syntax. Up to four lanes, run as the
four lanes of one quad.

Exit status: 0 every lane as expected (or nothing expected), 1 a lane differs from its
expected value, 2 unknown opcode, a lane that does not parse, or usage."
    )]
    Explain(ExplainArgs),
    /// Write the opcode reference site (index.html and data.json)
    #[command(
        args_override_self = true,
        after_help = "\
Examples:
  tgsi reference --out reference

One opcode's section in the terminal, its lanes run: tgsi explain OPCODE."
    )]
    Reference(ReferenceArgs),
    /// Print a shell completion script
    #[command(after_help = "\
Examples:
  tgsi completions bash > ~/.local/share/bash-completion/completions/tgsi
  tgsi completions zsh > ~/.zfunc/_tgsi
  tgsi completions fish > ~/.config/fish/completions/tgsi.fish")]
    Completions(CompletionsArgs),
    /// Print the version (as --version does)
    #[command(hide = true)]
    Version,
}

#[derive(Args, Debug, Clone)]
pub struct FmtArgs {
    /// The shader, or a log holding shaders ('-' reads standard input)
    pub file: String,
    /// List the shaders the input holds (a log or a paste of several) with their lines
    #[arg(long)]
    pub list: bool,
    /// Which shader of the input to print (1 = the first; see --list)
    #[arg(long, allow_hyphen_values = true, value_name = "N")]
    pub index: Option<String>,
    /// mesa: Mesa's tgsi_dump format; exact: the input as written, normalised losslessly
    #[arg(long, allow_hyphen_values = true, value_name = "mesa|exact")]
    pub style: Option<String>,
    #[command(flatten)]
    pub diag: DiagOptions,
}

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// Shaders, or logs holding shaders, to check ('-' reads standard input); with --link, the
    /// fragment shader
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
    /// Check only this shader of each input that holds several (1 = the first; `tgsi fmt
    /// --list` lists them)
    #[arg(long, allow_hyphen_values = true, value_name = "N")]
    pub index: Option<String>,
    /// Check VS and the one FILE (a fragment shader) as a linked pair
    #[arg(long, allow_hyphen_values = true, value_name = "VS")]
    pub link: Option<String>,
    #[command(flatten)]
    pub diag: DiagOptions,
}

/// The inputs of a frame: shared by `render`, `trace` and `bench` (docs/render.md).
#[derive(Args, Debug, Clone)]
pub struct FrameArgs {
    /// The fragment shader ('-' reads standard input)
    #[arg(value_name = "FS.tgsi")]
    pub fs: String,
    /// Vertex shader (default: a pass-through of the mesh's position)
    #[arg(long, allow_hyphen_values = true, value_name = "VS.tgsi")]
    pub vs: Option<String>,
    /// Geometry shader between the vertex and fragment shaders
    #[arg(long, allow_hyphen_values = true, value_name = "GS.tgsi")]
    pub gs: Option<String>,
    /// Built-in mesh: fullscreen, quad, cube or sphere
    #[arg(long, allow_hyphen_values = true, value_name = "NAME")]
    pub mesh: Option<String>,
    /// Vertices and draws from a JSON file (the oracle's vertex format; docs/render.md)
    #[arg(long, allow_hyphen_values = true, value_name = "FILE.json")]
    pub vertices: Option<String>,
    /// Image size [default: 256x256]
    #[arg(long, allow_hyphen_values = true, value_name = "WxH")]
    pub size: Option<String>,
    /// A constant for every stage: CONST[B][I] = (X, Y, Z, W); repeatable
    #[arg(long = "const", value_name = "B:I=X,Y,Z,W", allow_hyphen_values = true)]
    pub constants: Vec<String>,
    /// A constant for the vertex shader only; repeatable
    #[arg(long, allow_hyphen_values = true, value_name = "B:I=X,Y,Z,W")]
    pub vs_const: Vec<String>,
    /// A constant for the fragment shader only; repeatable
    #[arg(long, allow_hyphen_values = true, value_name = "B:I=X,Y,Z,W")]
    pub fs_const: Vec<String>,
    /// A constant for the geometry shader only; repeatable
    #[arg(long, allow_hyphen_values = true, value_name = "B:I=X,Y,Z,W")]
    pub gs_const: Vec<String>,
    /// Bind an image (PNG or a texture JSON) to sampler unit U; repeatable. WRAP is repeat,
    /// clamp (to edge), border, mirror, mirror-clamp, mirror-edge, mirror-border or gl-clamp
    #[arg(long, allow_hyphen_values = true, value_name = "U=FILE[,nearest|linear][,WRAP]")]
    pub texture: Vec<String>,
    /// The time builtin in seconds [default: 0]
    #[arg(long, allow_hyphen_values = true, value_name = "T")]
    pub time: Option<String>,
}

#[derive(Args, Debug, Clone)]
pub struct RenderArgs {
    #[command(flatten)]
    pub frame: FrameArgs,
    #[arg(long, allow_hyphen_values = true, value_name = "N", help = frame_budget_help("the whole frame"))]
    pub budget: Option<String>,
    /// Stop the frame after this many seconds of wall clock
    #[arg(long, allow_hyphen_values = true, value_name = "SECONDS")]
    pub timeout: Option<String>,
    /// Threads that draw the frame, each a band of rows (the picture is the same with any number) [default: the machine's cores]
    #[arg(long, allow_hyphen_values = true, value_name = "N")]
    pub threads: Option<String>,
    /// Which engine runs the fragment shader: interp or jit (docs/jit.md) [default: jit where the build has it]
    #[arg(long, allow_hyphen_values = true, value_name = "interp|jit")]
    pub engine: Option<String>,
    /// Output image: .png (8-bit RGBA) or .f32 (raw little-endian RGBA floats)
    #[arg(short = 'o', allow_hyphen_values = true, value_name = "OUT.png|OUT.f32")]
    pub output: Option<String>,
    /// Which colour buffer -o writes (COLOR[N] of the fragment shader) [default: 0]
    #[arg(long, allow_hyphen_values = true, value_name = "N")]
    pub target: Option<String>,
    /// Also write the depth buffer: .png (8-bit grey, depth 0 black, 1 white) or .f32 (raw floats)
    #[arg(long, allow_hyphen_values = true, value_name = "FILE.png|FILE.f32")]
    pub depth: Option<String>,
    #[command(flatten)]
    pub diag: DiagOptions,
}

#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    #[command(flatten)]
    pub frame: FrameArgs,
    /// How long to keep rendering frames [default: 2]
    #[arg(long, allow_hyphen_values = true, value_name = "S")]
    pub seconds: Option<String>,
    /// Framebuffer format: rgba32f (like softpipe's oracle) or rgba8 [default: rgba32f]
    #[arg(long, allow_hyphen_values = true, value_name = "rgba32f|rgba8")]
    pub format: Option<String>,
    /// Print one JSON object (Mpix/s, ms per frame, instruction count, engine, threads, machine)
    #[arg(long)]
    pub json: bool,
    /// Threads that draw the frame, each a band of rows (the picture is the same with any number) [default: the machine's cores]
    #[arg(long, allow_hyphen_values = true, value_name = "N")]
    pub threads: Option<String>,
    /// Which engine runs the fragment shader: interp, jit, or both one after the other with a comparison (docs/jit.md) [default: jit where the build has it]
    #[arg(long, allow_hyphen_values = true, value_name = "interp|jit|both")]
    pub engine: Option<String>,
}

#[derive(Args, Debug, Clone)]
pub struct TraceArgs {
    #[command(flatten)]
    pub frame: FrameArgs,
    #[arg(long, allow_hyphen_values = true, value_name = "N", help = frame_budget_help("the traced frame"))]
    pub budget: Option<String>,
    /// The pixel: X from the left, Y from the top, as in the PNG
    #[arg(long, allow_hyphen_values = true, value_name = "X,Y")]
    pub pixel: Option<String>,
    /// Print the trace as JSON
    #[arg(long)]
    pub json: bool,
    /// Show all four lanes of the quad
    #[arg(long)]
    pub lanes: bool,
    /// Then the quad's colour in each engine: the interpreter, the compiling tier and the AGAL export run by the AGAL executor
    #[arg(long)]
    pub backends: bool,
    #[command(flatten)]
    pub diag: DiagOptions,
}

#[derive(Args, Debug, Clone)]
pub struct DiffArgs {
    /// The first shader, or a log holding it ('-' reads standard input)
    #[arg(value_name = "A.tgsi")]
    pub a: String,
    /// The second shader, of the same kind
    #[arg(value_name = "B.tgsi")]
    pub b: String,
    /// Seed of the random values (the same seed gives the same trials)
    #[arg(long, allow_hyphen_values = true, value_name = "N", default_value = "1")]
    pub seed: String,
    /// Random quads (vertex and fragment shaders) or dispatches (compute shaders) [default: 1000, compute 100]
    #[arg(long, allow_hyphen_values = true, value_name = "N")]
    pub trials: Option<String>,
    /// Compare NaNs bit for bit (by default any NaN equals any NaN)
    #[arg(long)]
    pub exact_nan: bool,
    /// Side of the picture two fragment shaders draw
    #[arg(long, allow_hyphen_values = true, value_name = "N", default_value = "32")]
    pub size: String,
    /// Compute: blocks per dispatch, X[,Y[,Z]]
    #[arg(long, allow_hyphen_values = true, value_name = "X[,Y[,Z]]", default_value = "1")]
    pub grid: String,
    /// Compute: threads per block, X[,Y[,Z]] [default: the shaders' properties]
    #[arg(long, allow_hyphen_values = true, value_name = "X[,Y[,Z]]")]
    pub block: Option<String>,
    #[arg(long, allow_hyphen_values = true, value_name = "N", help = run_budget_help())]
    pub budget: Option<String>,
    /// Bind a texture for both shaders, as `tgsi render --texture` does; repeatable
    #[arg(long, allow_hyphen_values = true, value_name = "U=SPEC")]
    pub texture: Vec<String>,
    /// Which shader of A, when A is a log holding several (1 = the first)
    #[arg(long, allow_hyphen_values = true, value_name = "N")]
    pub index_a: Option<String>,
    /// Which shader of B, when B is a log holding several
    #[arg(long, allow_hyphen_values = true, value_name = "N")]
    pub index_b: Option<String>,
    #[command(flatten)]
    pub diag: DiagOptions,
}

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// The compute shader ('-' reads standard input)
    #[arg(value_name = "CS.tgsi")]
    pub file: String,
    /// Number of blocks: X[,Y[,Z]]
    #[arg(long, allow_hyphen_values = true, value_name = "X[,Y[,Z]]")]
    pub grid: Option<String>,
    /// Threads per block: X[,Y[,Z]] [default: the shader's properties]
    #[arg(long, allow_hyphen_values = true, value_name = "X[,Y[,Z]]")]
    pub block: Option<String>,
    /// BUFFER[N] from a file or zeroed, written back to OUT (or IN); repeatable
    #[arg(
        long,
        allow_hyphen_values = true,
        value_name = "N=IN.bin[:OUT.bin] | N=@BYTES[:OUT.bin]"
    )]
    pub buffer: Vec<String>,
    /// IMAGE[N] of a format and size, from a file or zeroed; repeatable
    #[arg(long, allow_hyphen_values = true, value_name = "N=FORMAT,WxH[xD][,IN.bin][:OUT.bin]")]
    pub image: Vec<String>,
    /// HWATOMIC[N], zeroed; repeatable
    #[arg(long, allow_hyphen_values = true, value_name = "N=@BYTES[:OUT.bin]")]
    pub atomic: Vec<String>,
    /// Shared memory per block in bytes
    #[arg(long, allow_hyphen_values = true, value_name = "BYTES")]
    pub shared: Option<String>,
    /// CONST[B][I] = (X, Y, Z, W); repeatable
    #[arg(long = "const", value_name = "B:I=X,Y,Z,W", allow_hyphen_values = true)]
    pub constants: Vec<String>,
    /// Bind an image to sampler unit U; repeatable
    #[arg(long, allow_hyphen_values = true, value_name = "U=FILE[,options]")]
    pub texture: Vec<String>,
    #[arg(long, allow_hyphen_values = true, value_name = "N", help = dispatch_budget_help())]
    pub budget: Option<String>,
    /// Stop after this many seconds of wall clock
    #[arg(long, allow_hyphen_values = true, value_name = "SECONDS")]
    pub timeout: Option<String>,
    /// Threads that run the grid, each a range of blocks (the results are the same with any number; one thread when blocks could see each other's stores or atomics) [default: the machine's cores]
    #[arg(long, allow_hyphen_values = true, value_name = "N")]
    pub threads: Option<String>,
    /// Which engine runs the shader: interp or jit (docs/jit.md) [default: jit where the build has it]
    #[arg(long, allow_hyphen_values = true, value_name = "interp|jit")]
    pub engine: Option<String>,
    /// Print every resource as 32-bit words (also those written to files)
    #[arg(long)]
    pub print: bool,
    #[command(flatten)]
    pub diag: DiagOptions,
}

#[derive(Args, Debug, Clone)]
pub struct AgalArgs {
    /// The TGSI shader ('-' reads standard input)
    #[arg(value_name = "FILE.tgsi")]
    pub file: String,
    /// AGAL version 1, 2 or 3 [default: the lowest that fits]
    #[arg(long, allow_hyphen_values = true, value_name = "N")]
    pub agal_version: Option<String>,
    /// Sampler state of unit N: filter, mipmap and wrap words; repeatable
    #[arg(long, allow_hyphen_values = true, value_name = "N=linear,miplinear,repeat")]
    pub sampler: Vec<String>,
    /// Export as one half of a linked pair with OTHER (varyings packed alike)
    #[arg(long, allow_hyphen_values = true, value_name = "OTHER.tgsi")]
    pub link: Option<String>,
    /// Write the bytecode to OUT ('-' for standard output)
    #[arg(short = 'o', allow_hyphen_values = true, value_name = "OUT")]
    pub output: Option<String>,
    /// Print the AGAL assembly
    #[arg(long)]
    pub asm: bool,
    /// Print where each TGSI register went
    #[arg(long)]
    pub layout: bool,
    /// Print version, kind, assembly and layout as JSON
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub diag: DiagOptions,
}

#[derive(Args, Debug, Clone)]
pub struct AgalAsmArgs {
    /// The program type: vertex or fragment
    #[arg(value_name = "vertex|fragment")]
    pub kind: String,
    /// The AGAL text file ('-' reads standard input)
    #[arg(value_name = "FILE")]
    pub file: String,
    /// AGAL version 1, 2 or 3 [default: 1]
    #[arg(long, allow_hyphen_values = true, value_name = "N")]
    pub agal_version: Option<String>,
    /// Write the bytecode to OUT ('-' for standard output)
    #[arg(short = 'o', allow_hyphen_values = true, value_name = "OUT")]
    pub output: Option<String>,
    /// Skip the AGAL validator
    #[arg(long)]
    pub no_validate: bool,
    #[command(flatten)]
    pub diag: DiagOptions,
}

#[derive(Args, Debug, Clone)]
pub struct AgalDisArgs {
    /// The AGAL bytecode ('-' reads standard input)
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Skip the AGAL validator
    #[arg(long)]
    pub no_validate: bool,
}

#[derive(Args, Debug, Clone)]
pub struct ExplainArgs {
    /// The opcode, in any case (ADD, udiv, …)
    #[arg(value_name = "OPCODE", required_unless_present = "list")]
    pub opcode: Option<String>,
    /// List every opcode instead, by family, as the reference's index does
    #[arg(long, conflicts_with_all = ["opcode", "lane"])]
    pub list: bool,
    /// Run the opcode on these sources instead of the reference's four lanes; up to four times
    #[arg(long, allow_hyphen_values = true, value_name = "SRC0, SRC1, … [=> EXPECTED]")]
    pub lane: Vec<String>,
}

#[derive(Args, Debug, Clone)]
pub struct ReferenceArgs {
    /// The folder to write the site into (created when missing)
    #[arg(long, value_name = "DIR")]
    pub out: String,
}

#[derive(Args, Debug, Clone)]
pub struct CompletionsArgs {
    /// The shell
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn the_budget_helps_quote_the_limits_exactly() {
        use crate::limits::{DEFAULT_WORK_PER_QUAD, MAX_BUDGET, MIN_FRAME_BUDGET};
        // "2^k" is exact only for powers of two.
        for n in [DEFAULT_WORK_PER_QUAD, MIN_FRAME_BUDGET, MAX_BUDGET] {
            assert!(n.is_power_of_two(), "{n}");
            assert_eq!(1u64 << power_of_two(n)[2..].parse::<u32>().unwrap(), n);
        }
        // By hand: the default 32768 per quad, at least 1048576, at most 2199023255552.
        assert_eq!(
            budget_limits("2x2 quad"),
            "[default: 2^15 per 2x2 quad, at least 2^20; at most 2^41]"
        );
    }

    #[test]
    fn reads_options_and_positionals() {
        let cli = Cli::try_parse_from([
            "tgsi",
            "render",
            "fs.tgsi",
            "--size",
            "64x64",
            "--const=0:1=1,2,3,4",
            "--time",
            "-1.5",
            "-o",
            "out.png",
            "--size",
            "8x8",
        ])
        .expect("parses");
        let Command::Render(r) = cli.command else { panic!("not render") };
        assert_eq!(r.frame.fs, "fs.tgsi");
        assert_eq!(r.frame.size.as_deref(), Some("8x8"), "the last value wins");
        assert_eq!(r.frame.constants, vec!["0:1=1,2,3,4"]);
        assert_eq!(r.frame.time.as_deref(), Some("-1.5"));
        assert_eq!(r.output.as_deref(), Some("out.png"));
    }
}
