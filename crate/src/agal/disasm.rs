//! Disassembler: prints a program in the syntax of Adobe's AGALMiniAssembler (docs/agal.md
//! "Assembler output", "Operands"), chosen so that assembling the text gives back the same bytes.

use super::bytecode::*;

const LANES: [char; 4] = ['x', 'y', 'z', 'w'];

/// Write-mask suffix: empty for `.xyzw`, else the letters in xyzw order (docs/agal.md "Operands").
pub fn mask_text(mask: u8) -> String {
    if mask & 0xF == 0xF {
        return String::new();
    }
    let mut s = String::from(".");
    for (i, c) in LANES.iter().enumerate() {
        if mask & (1 << i) != 0 {
            s.push(*c);
        }
    }
    s
}

/// Swizzle suffix: empty for identity; otherwise the four letters with trailing repeats of the
/// last letter dropped, since the assembler pads a short swizzle by repeating its last letter
/// (docs/agal.md "Operands").
pub fn swizzle_text(swizzle: u8) -> String {
    if swizzle == SWIZZLE_IDENTITY {
        return String::new();
    }
    let letters: Vec<char> = (0..4).map(|i| LANES[((swizzle >> (2 * i)) & 3) as usize]).collect();
    let mut n = 4;
    while n > 1 && letters[n - 1] == letters[n - 2] {
        n -= 1;
    }
    let mut s = String::from(".");
    s.extend(&letters[..n]);
    s
}

/// Register name with number; outputs and depth print without a number when it is 0.
pub fn reg_text(reg: RegType, index: u16, kind: ShaderKind) -> String {
    let name = reg.asm_name(kind);
    match reg {
        RegType::Output | RegType::Depth | RegType::InstanceId if index == 0 => name.to_string(),
        _ => format!("{}{}", name, index),
    }
}

pub fn dest_text(d: &Dest, kind: ShaderKind) -> String {
    format!("{}{}", reg_text(d.reg, d.index, kind), mask_text(d.mask))
}

pub fn source_text(s: &Source, kind: ShaderKind) -> String {
    match s.indirect {
        None => format!("{}{}", reg_text(s.reg, s.index, kind), swizzle_text(s.swizzle)),
        Some(ir) => {
            let offset = if s.index == 0 { String::new() } else { format!("+{}", s.index) };
            format!(
                "{}[{}.{}{}]{}",
                s.reg.asm_name(kind),
                reg_text(ir.reg, ir.index, kind),
                LANES[(ir.component & 3) as usize],
                offset,
                swizzle_text(s.swizzle)
            )
        }
    }
}

/// `<2d,linear,mipnone,repeat>` and any format, special flags and bias (docs/agal.md "Sampler").
pub fn sampler_flags_text(s: &Sampler) -> String {
    let name = |names: &[&'static str], v: u8| names.get(v as usize).copied().unwrap_or("?");
    let mut parts: Vec<String> = vec![name(DIM_NAMES, s.dim).to_string()];
    if s.format != 0 {
        parts.push(name(FORMAT_NAMES, s.format).to_string());
    }
    parts.push(name(FILTER_NAMES, s.filter).to_string());
    parts.push(name(MIP_NAMES, s.mip).to_string());
    parts.push(name(WRAP_NAMES, s.wrap).to_string());
    for (bit, word) in SPECIAL_NAMES {
        if s.special & bit != 0 {
            parts.push(word.to_string());
        }
    }
    if s.bias != 0 {
        // Eighths print exactly in at most three decimals.
        parts.push(format!("{}", s.bias as f64 / 8.0));
    }
    format!("<{}>", parts.join(","))
}

/// One instruction as a line of assembly (without newline).
pub fn instruction_text(ins: &Instruction, kind: ShaderKind) -> String {
    let mut ops: Vec<String> = Vec::new();
    if let Some(d) = &ins.dest {
        ops.push(dest_text(d, kind));
    }
    for s in ins.sources() {
        ops.push(source_text(s, kind));
    }
    let mut line = ins.info().name.to_string();
    if let Some(s) = &ins.sampler {
        ops.push(format!(
            "{} {}",
            reg_text(RegType::Sampler, s.index, kind),
            sampler_flags_text(s)
        ));
    }
    if !ops.is_empty() {
        line.push(' ');
        line.push_str(&ops.join(", "));
    }
    line
}

/// The whole program, one instruction per line. The header (type, version) is not part of
/// Adobe's syntax; it is given to the assembler separately.
pub fn disassemble(p: &Program) -> String {
    let mut out = String::new();
    for ins in &p.code {
        out.push_str(&instruction_text(ins, p.kind));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzle_text_drops_padding() {
        // docs/agal.md "Operands" (a short swizzle repeats its last letter): xyyy = 0x54 prints
        // `.xy`, xyzz = 0xA4 `.xyz`, zwww = 0xFE `.zw`.
        assert_eq!(swizzle_text(0x54), ".xy");
        assert_eq!(swizzle_text(0xA4), ".xyz");
        assert_eq!(swizzle_text(0xFE), ".zw");
        assert_eq!(swizzle_text(0x00), ".x");
        assert_eq!(swizzle_text(0x1B), ".wzyx");
        assert_eq!(swizzle_text(0xE4), "");
    }

    #[test]
    fn bias_prints_in_eighths() {
        let mut s = Sampler::new(0);
        s.bias = -12;
        s.filter = 1;
        s.mip = 2;
        s.wrap = 1;
        assert_eq!(sampler_flags_text(&s), "<2d,linear,miplinear,repeat,-1.5>");
    }
}
