//! Seeded random programs for the differential test: ALU ops of the compiled families with
//! swizzles, modifiers and `_SAT` (derivatives, integer division and the transcendental and
//! legacy lane formulas the module imports among them), IF/UIF/ELSE, loops with BRK/CONT
//! (bounded by a counter, or not, to reach the budget), SWITCH with CASE and DEFAULT in any
//! order (fall-through, BRK, conditional BRK), subroutines called with CAL (from the main
//! program and from each other, with RET inside IFs and loops; the main program returns early
//! too), operands addressed through ADDR[0].x (TEMP, IN, IMM and constant-buffer reads, TEMP
//! and OUT writes, in and out of their files), KILL_IF, and immediates holding NaN, ±Inf, −0
//! and denormals.

use crate::rng::Rng;

/// Float ops (sources, float modifiers and `_SAT` apply).
const FLOAT_OPS: &[(&str, usize)] = &[
    ("MOV", 1),
    ("ADD", 2),
    ("SUB", 2),
    ("MUL", 2),
    ("DIV", 2),
    ("MAD", 3),
    ("LRP", 3),
    ("MIN", 2),
    ("MAX", 2),
    ("SLT", 2),
    ("SGE", 2),
    ("SEQ", 2),
    ("SNE", 2),
    ("SGT", 2),
    ("SLE", 2),
    ("FSLT", 2),
    ("FSGE", 2),
    ("FSEQ", 2),
    ("FSNE", 2),
    ("FLR", 1),
    ("CEIL", 1),
    ("TRUNC", 1),
    ("ROUND", 1),
    ("FRC", 1),
    ("ABS", 1),
    ("SSG", 1),
    ("CMP", 3),
    ("RCP", 1),
    ("RSQ", 1),
    ("SQRT", 1),
    ("DP2", 2),
    ("DP3", 2),
    ("DP4", 2),
    ("DPH", 2),
    ("F2I", 1),
    ("F2U", 1),
    ("ARL", 1),
    ("DDX", 1),
    ("DDY", 1),
    ("DDX_FINE", 1),
    ("DDY_FINE", 1),
    // Through the module's imports (jit::imports): the interpreter's own libm calls.
    ("SIN", 1),
    ("COS", 1),
    ("EX2", 1),
    ("LG2", 1),
    ("POW", 2),
    ("LIT", 1),
    ("EXP", 1),
    ("LOG", 1),
    ("SCS", 1),
    ("RCC", 1),
    ("FMA", 3),
    // The other legacy channel formulas, computed in the module.
    ("DST", 2),
    ("XPD", 2),
    ("RFL", 2),
    ("X2D", 3),
    ("NRM", 1),
    ("NRM4", 1),
];

/// Integer ops (no modifiers).
const INT_OPS: &[(&str, usize)] = &[
    ("UADD", 2),
    ("UMUL", 2),
    ("UMAD", 3),
    ("INEG", 1),
    ("IABS", 1),
    ("ISSG", 1),
    ("IMIN", 2),
    ("IMAX", 2),
    ("UMIN", 2),
    ("UMAX", 2),
    ("ISGE", 2),
    ("ISLT", 2),
    ("USEQ", 2),
    ("USNE", 2),
    ("USGE", 2),
    ("USLT", 2),
    ("AND", 2),
    ("OR", 2),
    ("XOR", 2),
    ("NOT", 1),
    ("SHL", 2),
    ("ISHR", 2),
    ("USHR", 2),
    ("I2F", 1),
    ("U2F", 1),
    ("UCMP", 3),
    ("UDIV", 2),
    ("IDIV", 2),
    ("UMOD", 2),
    ("MOD", 2),
    // A float and an integer source, through an import.
    ("LDEXP", 2),
];

const TEMPS: usize = 6;
/// Subroutines a program may have: subroutine s counts its loop in TEMP[12 + s].x and calls
/// only subroutines after it (no recursion).
const SUBS: usize = 3;

struct Gen<'r> {
    rng: &'r mut Rng,
    out: Vec<String>,
    /// Loops open around the current point (of the current subroutine), counted in
    /// TEMP[counters + k].x.
    loops: usize,
    counters: usize,
    /// Nesting of IFs, loops and switches.
    depth: usize,
    /// Subroutine bodies (lines between BGNSUB and ENDSUB), and the one being generated.
    subs: Vec<Vec<String>>,
    sub: Option<usize>,
    /// Switches open around the current point (of the current subroutine).
    switches: usize,
    budget_lines: usize,
    /// Loops whose trip count comes from the inputs (it differs between lanes and quads), up
    /// to three deep, and breaks and continues inside IF/ELSE bodies.
    divergent: bool,
    /// Texture instructions on SAMP[0] among the ops.
    textures: bool,
    /// The sampler view's target (every texture instruction's).
    target: &'static str,
    /// No flow control at all.
    straight: bool,
}

fn swz(rng: &mut Rng) -> String {
    if rng.below(3) == 0 {
        return String::new();
    }
    let c = ['x', 'y', 'z', 'w'];
    let s: String = (0..4).map(|_| *rng.pick(&c)).collect();
    format!(".{s}")
}

impl Gen<'_> {
    fn src(&mut self, float: bool) -> String {
        let reg = match self.rng.below(25) {
            0..=9 => format!("TEMP[{}]", self.rng.below(TEMPS)),
            10..=13 => format!("IN[{}]", self.rng.below(2)),
            // Indirect: ADDR[0].x is 0 to 7 once set (or any integer an input holds), so these
            // reach registers inside and outside each file (TEMP[0..14], IN[0..1], IMM[0..4]).
            14 => format!("TEMP[ADDR[0].x+{}]", self.rng.below(9)),
            15 => format!("TEMP[ADDR[0].x-{}]", 1 + self.rng.below(2)),
            16 => format!("IN[ADDR[0].x-{}]", 5 + self.rng.below(2)),
            17 => "IMM[ADDR[0].x-3]".to_string(),
            // Constant buffers read through ADDR[0].x (the run binds 0 to 9 registers of
            // CONST[0] and 0 to 3 of CONST[1]: indices inside, past the end and negative) and
            // directly (cached).
            18 => format!("CONST[0][ADDR[0].x+{}]", self.rng.below(7)),
            19 => format!("CONST[1][ADDR[0].x-{}]", self.rng.below(3)),
            20 => format!("CONST[0][{}]", self.rng.below(6)),
            _ => format!("IMM[{}]", self.rng.below(4)),
        };
        let s = format!("{reg}{}", swz(self.rng));
        if !float {
            return s;
        }
        match self.rng.below(6) {
            0 => format!("-{s}"),
            1 => format!("|{s}|"),
            2 => format!("-|{s}|"),
            _ => s,
        }
    }
    fn dst(&mut self) -> String {
        let reg = match self.rng.below(24) {
            0..=3 => format!("OUT[{}]", self.rng.below(2)),
            // Indirect writes: TEMP[0..7] (the loop counters are never reached) and OUT[0..7].
            4 => "TEMP[ADDR[0].x]".to_string(),
            5 => "OUT[ADDR[0].x]".to_string(),
            _ => format!("TEMP[{}]", self.rng.below(TEMPS)),
        };
        let mask: String = ['x', 'y', 'z', 'w'].iter().filter(|_| self.rng.below(2) == 0).collect();
        if mask.is_empty() {
            reg
        } else {
            format!("{reg}.{mask}")
        }
    }
    fn alu(&mut self) {
        if self.textures && self.rng.below(3) == 0 {
            return self.texture();
        }
        let float = self.rng.below(3) != 0;
        let &(op, n) = if float { self.rng.pick(FLOAT_OPS) } else { self.rng.pick(INT_OPS) };
        let sat = if float && self.rng.below(5) == 0 && !op.starts_with('F') && op != "ARL" {
            "_SAT"
        } else {
            ""
        };
        let d = self.dst();
        let srcs: Vec<String> = (0..n).map(|_| self.src(float)).collect();
        self.out.push(format!("{op}{sat} {d}, {}", srcs.join(", ")));
    }
    /// A texture instruction on SAMP[0] (2D) with random float operands.
    /// A texture instruction: its operands are direct (an indirect value operand of a texture
    /// instruction is not compiled).
    fn texture(&mut self) {
        let d = loop {
            let d = self.dst();
            if !d.contains("ADDR") {
                break d;
            }
        };
        let (op, n) = *self.rng.pick(&[
            ("TEX", 1),
            ("TXP", 1),
            ("TXB", 1),
            ("TXL", 1),
            ("TXD", 3),
            ("TXF", 1),
            ("TXQ", 1),
            ("LODQ", 1),
            ("TEX2", 2),
            ("TXB2", 2),
            ("TXL2", 2),
            ("TG4", 2),
        ]);
        let float = op != "TXF" && op != "TXQ";
        let srcs: Vec<String> = (0..n)
            .map(|_| loop {
                let s = self.src(float);
                if !s.contains("ADDR") {
                    break s;
                }
            })
            .collect();
        let sat = if self.rng.below(5) == 0 && op != "TXQ" && op != "TXF" { "_SAT" } else { "" };
        // Texel offsets from a register (lane 0 of each quad, as int8).
        let offset = if self.rng.below(4) == 0 && op != "TXQ" && op != "LODQ" {
            format!(", TEMP[{}].xyz", self.rng.below(16))
        } else {
            String::new()
        };
        let target = self.target;
        self.out.push(format!("{op}{sat} {d}, {}, SAMP[0], {target}{offset}", srcs.join(", ")));
    }
    fn block(&mut self, n: usize) {
        for _ in 0..n {
            if self.out.len() > self.budget_lines {
                return;
            }
            let pick = self.rng.below(16);
            // Straight-line programs: no IF, loop, SWITCH, call or RET.
            let pick =
                if self.straight && matches!(pick, 0 | 1 | 2 | 3 | 5 | 7 | 8) { 15 } else { pick };
            match pick {
                0 | 1 if self.depth < 3 => self.if_block(),
                2 if self.depth < 3 + self.divergent as usize && self.loops < self.max_loops() => {
                    self.loop_block()
                }
                3 if self.loops > 0 && self.divergent && self.rng.below(2) == 0 => {
                    // A break or continue after other work in an IF, or in its ELSE.
                    let c = self.src(false);
                    let what = if self.rng.below(3) == 0 { "CONT" } else { "BRK" };
                    self.out.push(format!("UIF {c}"));
                    self.alu();
                    let in_else = self.rng.below(2) == 0;
                    if in_else {
                        self.out.push("ELSE".to_string());
                        self.alu();
                    }
                    self.out.push(what.to_string());
                    if !in_else && self.rng.below(2) == 0 {
                        self.out.push("ELSE".to_string());
                        self.alu();
                    }
                    self.out.push("ENDIF".to_string());
                }
                3 if self.loops > 0 => {
                    // A conditional break or continue.
                    let c = self.src(false);
                    let what = if self.rng.below(3) == 0 { "CONT" } else { "BRK" };
                    self.out.push(format!("UIF {c}"));
                    self.out.push(what.to_string());
                    self.out.push("ENDIF".to_string());
                }
                4 if self.depth == 0 => {
                    let s = self.src(true);
                    self.out.push(format!("KILL_IF {s}"));
                }
                5 if self.depth < 3 => self.switch_block(),
                6 => {
                    // ADDR[0].x from an input's bits, 0 to 7 (TEMP[8].x is kept for it), or
                    // one time in four all its bits (any integer: far outside every file).
                    let c = *self.rng.pick(&['x', 'y', 'z', 'w']);
                    let r = self.rng.below(2);
                    if self.rng.below(4) == 0 {
                        self.out.push(format!("UARL ADDR[0].x, IN[{r}].{c}{c}{c}{c}"));
                    } else {
                        self.out.push(format!("AND TEMP[8].x, IN[{r}].{c}{c}{c}{c}, IMM[4].xxxx"));
                        self.out.push("UARL ADDR[0].x, TEMP[8].xxxx".to_string());
                    }
                }
                7 => self.call(),
                8 if self.sub.is_some() || self.rng.below(4) == 0 => {
                    // A RET some lanes take (the main program's own too).
                    let c = self.src(false);
                    self.out.push(format!("UIF {c}"));
                    if self.rng.below(2) == 0 {
                        self.alu();
                    }
                    self.out.push("RET".to_string());
                    self.out.push("ENDIF".to_string());
                }
                _ => self.alu(),
            }
        }
    }
    fn max_loops(&self) -> usize {
        if self.sub.is_some() {
            1
        } else {
            2 + self.divergent as usize
        }
    }
    /// SWITCH on an input's bits (0 to 3) or any operand, with up to four labels (CASE 0, 1,
    /// 3, 0xffffffff and DEFAULT, in any order, each at most once); a body may end with BRK,
    /// break when a lane's condition holds, or fall through to the next label.
    fn switch_block(&mut self) {
        let sel = if self.rng.below(3) == 0 {
            self.src(false)
        } else {
            let c = *self.rng.pick(&['x', 'y', 'z', 'w']);
            let r = self.rng.below(2);
            self.out.push(format!("AND TEMP[8].y, IN[{r}].{c}{c}{c}{c}, IMM[0].wwww"));
            "TEMP[8].yyyy".to_string()
        };
        self.out.push(format!("SWITCH {sel}"));
        self.depth += 1;
        self.switches += 1;
        let mut labels = vec![
            "CASE IMM[0].xxxx",
            "CASE IMM[0].yyyy",
            "CASE IMM[0].wwww",
            "CASE IMM[0].zzzz",
            "DEFAULT",
        ];
        for i in (1..labels.len()).rev() {
            let j = self.rng.below(i + 1);
            labels.swap(i, j);
        }
        let n = 1 + self.rng.below(4);
        if self.rng.below(4) == 0 {
            // Code before the first label: no lane runs it.
            self.alu();
        }
        for label in labels.into_iter().take(n) {
            self.out.push(label.to_string());
            let body = self.rng.below(3);
            self.block(body);
            match self.rng.below(4) {
                0 | 1 => self.out.push("BRK".to_string()),
                2 => {
                    let c = self.src(false);
                    self.out.push(format!("UIF {c}"));
                    self.out.push("BRK".to_string());
                    self.out.push("ENDIF".to_string());
                    self.alu();
                }
                _ => {}
            }
        }
        self.switches -= 1;
        self.depth -= 1;
        self.out.push("ENDSWITCH".to_string());
    }
    /// CAL of a subroutine after this one (made on first use), up to three deep.
    fn call(&mut self) {
        let first = self.sub.map_or(0, |s| s + 1);
        if first >= SUBS {
            return self.alu();
        }
        let s = first + self.rng.below(SUBS - first);
        while self.subs.len() <= s {
            self.subs.push(Vec::new());
        }
        if self.subs[s].is_empty() {
            // Its body: a fresh context (its own loop counter, no loop or switch open).
            let saved = (
                std::mem::take(&mut self.out),
                self.loops,
                self.counters,
                self.depth,
                self.sub,
                self.switches,
                self.budget_lines,
            );
            (self.loops, self.counters, self.depth, self.sub, self.switches) =
                (0, 12 + s, 0, Some(s), 0);
            self.budget_lines = 14;
            let n = 2 + self.rng.below(5);
            self.block(n);
            if self.out.is_empty() || self.rng.below(3) == 0 {
                self.alu();
            }
            if self.rng.below(2) == 0 {
                self.out.push("RET".to_string());
            }
            self.subs[s] = std::mem::take(&mut self.out);
            (
                self.out,
                self.loops,
                self.counters,
                self.depth,
                self.sub,
                self.switches,
                self.budget_lines,
            ) = saved;
        }
        self.out.push(format!("CAL @{s}"));
    }
    fn if_block(&mut self) {
        let float = self.rng.below(2) == 0;
        let c = if self.rng.below(3) == 0 {
            // A condition in a row only comparisons write (TEMP[15]: every lane 0 or ~0), which
            // the module uses as its mask as it is.
            let ch = *self.rng.pick(&['x', 'y', 'z', 'w']);
            let cmp = *self.rng.pick(&[
                "FSLT", "FSGE", "FSEQ", "FSNE", "ISGE", "ISLT", "USEQ", "USNE", "USGE", "USLT",
            ]);
            let (a, b) = (self.src(cmp.starts_with('F')), self.src(cmp.starts_with('F')));
            self.out.push(format!("{cmp} TEMP[15].{ch}, {a}, {b}"));
            format!("TEMP[15].{ch}{ch}{ch}{ch}")
        } else {
            self.src(float)
        };
        self.out.push(format!("{} {c}", if float { "IF" } else { "UIF" }));
        self.depth += 1;
        let n = 1 + self.rng.below(4);
        self.block(n);
        if self.rng.below(2) == 0 {
            self.out.push("ELSE".to_string());
            let n = 1 + self.rng.below(4);
            self.block(n);
        }
        self.depth -= 1;
        self.out.push("ENDIF".to_string());
    }
    fn loop_block(&mut self) {
        // TEMP[9 + k].x counts iterations; IMM[0].w is the bound (3), IMM[0].y is 1. One in
        // eight loops has no counter: its CONT/BRK decide, or the budget does.
        let k = self.counters + self.loops;
        let counted = self.rng.below(8) != 0;
        self.loops += 1;
        self.depth += 1;
        if counted {
            self.out.push(format!("MOV TEMP[{k}].x, IMM[0].xxxx"));
        }
        self.out.push("BGNLOOP".to_string());
        if counted && self.divergent {
            // The bound is 0 to 3 from an input channel's bits, per lane.
            let c = *self.rng.pick(&['x', 'y', 'z', 'w']);
            let r = self.rng.below(2);
            self.out.push(format!("AND TEMP[{k}].z, IN[{r}].{c}{c}{c}{c}, IMM[0].wwww"));
            self.out.push(format!("USGE TEMP[{k}].y, TEMP[{k}].xxxx, TEMP[{k}].zzzz"));
            self.out.push(format!("UIF TEMP[{k}].yyyy"));
            self.out.push("BRK".to_string());
            self.out.push("ENDIF".to_string());
            self.out.push(format!("UADD TEMP[{k}].x, TEMP[{k}].xxxx, IMM[0].yyyy"));
        } else if counted {
            self.out.push(format!("USGE TEMP[{k}].y, TEMP[{k}].xxxx, IMM[0].wwww"));
            self.out.push(format!("UIF TEMP[{k}].yyyy"));
            self.out.push("BRK".to_string());
            self.out.push("ENDIF".to_string());
            self.out.push(format!("UADD TEMP[{k}].x, TEMP[{k}].xxxx, IMM[0].yyyy"));
        } else {
            // Leaves when IN[0].x is negative in this lane, after the body ran once.
            self.out.push("UIF IN[1].wwww".to_string());
            self.out.push("BRK".to_string());
            self.out.push("ENDIF".to_string());
        }
        let n = 1 + self.rng.below(5);
        self.block(n);
        self.depth -= 1;
        self.loops -= 1;
        self.out.push("ENDLOOP".to_string());
    }
}

/// A random fragment program (TGSI text).
pub fn gen_program(rng: &mut Rng) -> String {
    generate(rng, false)
}

/// A random fragment program whose loops run a different number of times in each lane and
/// quad, nested up to three deep, with IFs (and breaks in them) inside.
pub fn gen_divergent(rng: &mut Rng) -> String {
    generate(rng, true)
}

/// A random fragment program with texture instructions on SAMP[0] (a 2D view) among the ops,
/// in IFs and divergent loops.
pub fn gen_textured(rng: &mut Rng) -> String {
    generate_with(rng, true, true)
}

/// As [`gen_textured`], without flow control (the programs the JIT samples a batch at a time).
pub fn gen_textured_straight(rng: &mut Rng) -> String {
    generate_full(rng, false, true, true)
}

fn generate(rng: &mut Rng, divergent: bool) -> String {
    generate_with(rng, divergent, false)
}

fn generate_with(rng: &mut Rng, divergent: bool, textures: bool) -> String {
    generate_full(rng, divergent, textures, false)
}

fn generate_full(rng: &mut Rng, divergent: bool, textures: bool, straight: bool) -> String {
    let mut g = Gen {
        rng,
        out: Vec::new(),
        loops: 0,
        counters: 9,
        depth: 0,
        subs: Vec::new(),
        sub: None,
        switches: 0,
        budget_lines: 60,
        divergent,
        textures,
        target: "2D",
        straight,
    };
    if textures && g.rng.below(2) == 0 {
        // Mostly 2D (the bound texture's); the other targets move the shadow reference, the
        // layer and the coordinates' count between the request's slots.
        g.target = *g.rng.pick(&[
            "1D",
            "3D",
            "CUBE",
            "RECT",
            "SHADOW1D",
            "SHADOW2D",
            "SHADOWRECT",
            "2D_ARRAY",
            "SHADOW2D_ARRAY",
            "SHADOWCUBE",
            "CUBEARRAY",
            "SHADOWCUBEARRAY",
        ]);
    }
    let n = 3 + g.rng.below(12);
    g.block(n);
    let mut text = String::from(
        "FRAG\nDCL IN[0..1], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\nDCL TEMP[0..15]\nDCL ADDR[0]\nDCL CONST[0][0..5]\nDCL CONST[1][0..2]\n",
    );
    if textures {
        text.push_str(&format!("DCL SAMP[0]\nDCL SVIEW[0], {}, FLOAT\n", g.target));
    }
    // IMM[0]: integers 0, 1, −1, 3; IMM[1]: floats; IMM[2]: NaN, −0 (INT_MIN as an integer),
    // a denormal, +Inf;
    // IMM[3]: −Inf, −NaN with payload, 2^31, 33.
    text.push_str("IMM[0] UINT32 {0, 1, 4294967295, 3}\n");
    text.push_str("IMM[1] FLT32 {0.5, -1.5, 2.0, 1.0}\n");
    text.push_str("IMM[2] UINT32 {2143289344, 2147483648, 1, 2139095040}\n");
    text.push_str("IMM[3] UINT32 {4286578688, 4290777651, 1325400064, 33}\n");
    // IMM[4]: the mask of ADDR[0].x's values.
    text.push_str("IMM[4] UINT32 {7, 6, 5, 4}\n");
    // The main program, END, then each subroutine; CAL names its BGNSUB's instruction index.
    let mut lines = g.out.clone();
    lines.push("END".to_string());
    let mut starts = Vec::new();
    for body in &g.subs {
        starts.push(lines.len());
        lines.push("BGNSUB".to_string());
        lines.extend(body.iter().cloned());
        lines.push("ENDSUB".to_string());
    }
    for l in &lines {
        match l.strip_prefix("CAL @") {
            Some(k) => {
                let k: usize = k.parse().unwrap_or(0);
                text.push_str(&format!("CAL :{}\n", starts[k]));
            }
            None => {
                text.push_str(l);
                text.push('\n');
            }
        }
    }
    text
}
