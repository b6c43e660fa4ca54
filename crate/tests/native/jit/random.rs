//! Seeded random programs for the differential test: ALU ops of the compiled families with
//! swizzles, modifiers and `_SAT` (derivatives, integer division and the transcendental and
//! legacy lane formulas the module imports among them), IF/UIF/ELSE, loops with BRK/CONT (bounded by a counter, or
//! not, to reach the budget), KILL_IF, and immediates holding NaN, ±Inf, −0 and denormals.

/// xorshift64*: small, seeded, reproducible.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() >> 33) as usize % n.max(1)
    }
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

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
];

const TEMPS: usize = 6;

struct Gen<'r> {
    rng: &'r mut Rng,
    out: Vec<String>,
    loops: usize,
    /// Loop counters in use (TEMP[6 + k].x).
    depth: usize,
    budget_lines: usize,
    /// Loops whose trip count comes from the inputs (it differs between lanes and quads), up
    /// to three deep, and breaks and continues inside IF/ELSE bodies.
    divergent: bool,
    /// Texture instructions on SAMP[0] among the ops.
    textures: bool,
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
        let reg = match self.rng.below(10) {
            0..=4 => format!("TEMP[{}]", self.rng.below(TEMPS)),
            5..=6 => format!("IN[{}]", self.rng.below(2)),
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
        let reg = if self.rng.below(6) == 0 {
            format!("OUT[{}]", self.rng.below(2))
        } else {
            format!("TEMP[{}]", self.rng.below(TEMPS))
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
    fn texture(&mut self) {
        let d = self.dst();
        let (op, n) = *self.rng.pick(&[
            ("TEX", 1),
            ("TXP", 1),
            ("TXB", 1),
            ("TXL", 1),
            ("TXD", 3),
            ("TXF", 1),
            ("TXQ", 1),
            ("LODQ", 1),
        ]);
        let srcs: Vec<String> = (0..n).map(|_| self.src(op != "TXF" && op != "TXQ")).collect();
        let sat = if self.rng.below(5) == 0 && op != "TXQ" && op != "TXF" { "_SAT" } else { "" };
        self.out.push(format!("{op}{sat} {d}, {}, SAMP[0], 2D", srcs.join(", ")));
    }
    fn block(&mut self, n: usize) {
        for _ in 0..n {
            if self.out.len() > self.budget_lines {
                return;
            }
            match self.rng.below(16) {
                0 | 1 if self.depth < 3 => self.if_block(),
                2 if self.depth < 3 + self.divergent as usize
                    && self.loops < 2 + self.divergent as usize =>
                {
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
                _ => self.alu(),
            }
        }
    }
    fn if_block(&mut self) {
        let float = self.rng.below(2) == 0;
        let c = self.src(float);
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
        // TEMP[6 + k].x counts iterations; IMM[0].w is the bound (3), IMM[0].y is 1. One in
        // eight loops has no counter: its CONT/BRK decide, or the budget does.
        let k = 6 + self.loops;
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

fn generate(rng: &mut Rng, divergent: bool) -> String {
    generate_with(rng, divergent, false)
}

fn generate_with(rng: &mut Rng, divergent: bool, textures: bool) -> String {
    let mut g =
        Gen { rng, out: Vec::new(), loops: 0, depth: 0, budget_lines: 60, divergent, textures };
    let n = 3 + g.rng.below(12);
    g.block(n);
    let mut text = String::from(
        "FRAG\nDCL IN[0..1], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\nDCL TEMP[0..8]\n",
    );
    if textures {
        text.push_str("DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n");
    }
    // IMM[0]: integers 0, 1, −1, 3; IMM[1]: floats; IMM[2]: NaN, −0 (INT_MIN as an integer),
    // a denormal, +Inf;
    // IMM[3]: −Inf, −NaN with payload, 2^31, 33.
    text.push_str("IMM[0] UINT32 {0, 1, 4294967295, 3}\n");
    text.push_str("IMM[1] FLT32 {0.5, -1.5, 2.0, 1.0}\n");
    text.push_str("IMM[2] UINT32 {2143289344, 2147483648, 1, 2139095040}\n");
    text.push_str("IMM[3] UINT32 {4286578688, 4290777651, 1325400064, 33}\n");
    for l in &g.out {
        text.push_str(l);
        text.push('\n');
    }
    text.push_str("END\n");
    text
}
