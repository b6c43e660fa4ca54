//! `IMM` and `PROPERTY` statements (tgsi_text.c `parse_immediate`, `parse_property`).

use super::{codes, PResult, Parser};
use crate::diag::Diagnostic;
use crate::ir::*;
use crate::text::number;

impl<'a> Parser<'a> {
    pub(super) fn immediate(&mut self, start: usize) -> PResult<()> {
        let count = self.imm_count;
        self.imm_count += 1;
        let keyword = Span::new(start, self.cur.last_end);
        let mut written_index = None;
        if self.cur.peek_past_ws() == Some(b'[') {
            self.cur.skip_ws();
            self.cur.eat(b'[');
            let (n, span) = self.uint("the immediate index")?;
            self.expect_char(b']', "`]` after the immediate index")?;
            if n != count {
                return Err(Diagnostic::error(
                    codes::IMM_INDEX,
                    format!("this is immediate number {} but is written `IMM[{}]`: immediates are numbered in order from 0", count, n),
                    span,
                ));
            }
            written_index = Some(n);
        } else {
            self.warn(
                codes::IMM_NO_INDEX,
                format!("`IMM` without its index: write `IMM[{}]`, the form Mesa prints", count),
                keyword,
            );
        }
        let what = "an immediate type (FLT32, UINT32, INT32, FLT64, UINT64 or INT64)";
        self.cur.skip_ws();
        let ty = match self.cur.peek_word().and_then(ImmType::from_name) {
            Some(t) => {
                self.cur.word();
                t
            }
            None => return Err(self.expected(what)),
        };
        self.expect_char(b'{', "`{` and the immediate's values")?;
        let open = self.cur.last_end - 1;
        let wide = matches!(ty, ImmType::Flt64 | ImmType::Uint64 | ImmType::Int64);
        let want = if wide { 2 } else { 4 };
        let mut bits = [0u32; 4];
        let mut n = 0usize;
        loop {
            self.cur.skip_ws();
            let p = self.cur.pos;
            let end = number::scan_number(self.cur.text.as_bytes(), p);
            if end == p {
                return Err(self.expected(&format!("a {} value", ty.name())));
            }
            let tok = &self.cur.text[p..end];
            let span = Span::new(p, end);
            let value =
                parse_value(ty, tok).map_err(|m| Diagnostic::error(codes::NUMBER, m, span))?;
            // tgsi_dump's `%10.4f`: right-aligned in ten columns.
            let aligned =
                self.cur.text.as_bytes()[..p].iter().rev().take_while(|&&b| b == b' ').count()
                    >= 10usize.saturating_sub(tok.len());
            if ty == ImmType::Flt32 && !self.warned_four_decimals && aligned && rounded_by_dump(tok)
            {
                self.warned_four_decimals = true;
                self.warn(
                    codes::FOUR_DECIMALS,
                    format!(
                        "`{tok}` is printed as tgsi_dump prints floats (`%10.4f`) and no float \
                         equals it: the dumped shader may hold other bits (exact dumps: the \
                         TGSI_DUMP_FLOAT_AS_HEX flag)"
                    ),
                    span,
                );
            }
            self.cur.commit(end);
            if n < want {
                if wide {
                    bits[2 * n] = value as u32;
                    bits[2 * n + 1] = (value >> 32) as u32;
                } else {
                    bits[n] = value as u32;
                }
            }
            n += 1;
            match self.cur.peek_past_ws() {
                Some(b',') => {
                    self.cur.skip_ws();
                    self.cur.eat(b',');
                }
                Some(b'}') => {
                    self.cur.skip_ws();
                    self.cur.eat(b'}');
                    break;
                }
                _ => return Err(self.expected("`,` or `}`")),
            }
        }
        if n != want {
            return Err(Diagnostic::error(
                codes::IMM_COUNT,
                format!("{} immediates hold exactly {} values, found {}", ty.name(), want, n),
                Span::new(open, self.cur.last_end),
            ));
        }
        self.end_of_statement(|| "the immediate".into())?;
        let imm = Immediate {
            ty,
            bits,
            count: want as u8,
            written_index,
            span: Span::new(start, self.cur.last_end),
        };
        self.push_statement(Statement::Immediate(self.shader.immediates.len()));
        self.shader.immediates.push(imm);
        Ok(())
    }

    pub(super) fn property(&mut self, start: usize) -> PResult<()> {
        self.cur.skip_ws();
        let Some(s) = self.cur.word_at(self.cur.pos) else {
            return Err(self.expected("a property name"));
        };
        let w = self.cur.slice(s);
        let Some(name) = PropertyName::from_name(w) else {
            return Err(Diagnostic::error(codes::PROPERTY, format!("unknown property `{}`", w), s));
        };
        self.cur.commit(s.end as usize);
        self.cur.skip_ws();
        let value = match name {
            PropertyName::GsInputPrimitive | PropertyName::GsOutputPrimitive => {
                PropertyValue::Primitive(self.named(
                    PrimType::from_name,
                    name,
                    "a primitive (POINTS, LINES, TRIANGLES, LINES_ADJACENCY, …)",
                )?)
            }
            PropertyName::FsCoordOrigin => PropertyValue::Origin(self.named(
                CoordOrigin::from_name,
                name,
                "UPPER_LEFT or LOWER_LEFT",
            )?),
            PropertyName::FsCoordPixelCenter => PropertyValue::Center(self.named(
                PixelCenter::from_name,
                name,
                "HALF_INTEGER or INTEGER",
            )?),
            PropertyName::NextShader => PropertyValue::Shader(self.named(
                ShaderName::from_name,
                name,
                "a stage (VERT, TESS_CTRL, TESS_EVAL, GEOM, FRAG, COMP, TASK, MESH)",
            )?),
            _ => PropertyValue::Uint(
                self.uint(&format!("an unsigned integer value for {}", name.name()))?.0,
            ),
        };
        if let (PropertyName::GsInputPrimitive, PropertyValue::Primitive(p)) = (name, value) {
            if self.shader.processor == Processor::Geometry {
                self.implied_array_size = p.vertices_per_primitive();
            }
        }
        self.end_of_statement(|| "the property".into())?;
        self.push_statement(Statement::Property(self.shader.properties.len()));
        self.shader.properties.push(Property {
            name,
            value,
            span: Span::new(start, self.cur.last_end),
        });
        Ok(())
    }

    /// A named property value.
    fn named<T>(
        &mut self,
        lookup: fn(&str) -> Option<T>,
        name: PropertyName,
        what: &str,
    ) -> PResult<T> {
        let found =
            self.cur.word_at(self.cur.pos).and_then(|s| lookup(self.cur.slice(s)).map(|v| (v, s)));
        match found {
            Some((v, s)) => {
                self.cur.commit(s.end as usize);
                Ok(v)
            }
            None => {
                let mut d = self.expected_code(codes::PROPERTY, what);
                d.message = format!("{} for {}", d.message, name.name());
                Err(d)
            }
        }
    }
}

/// One immediate value as raw bits (the low 32 bits for 32-bit types).
fn parse_value(ty: ImmType, tok: &str) -> Result<u64, String> {
    match ty {
        ImmType::Flt32 => number::parse_f32(tok).map(|b| b as u64),
        ImmType::Uint32 => number::parse_u32(tok).map(|v| v as u64),
        ImmType::Int32 => number::parse_i32(tok).map(|v| v as u32 as u64),
        ImmType::Flt64 => number::parse_f64(tok),
        ImmType::Uint64 => number::parse_u64(tok),
        ImmType::Int64 => number::parse_i64(tok).map(|v| v as u64),
    }
}

/// Whether a FLT32 token has exactly four decimals (`-12.3400`, tgsi_dump's `%10.4f`) and a value
/// no binary32 number has: k/10000 is exact in binary only when k/10000 = m/16, i.e. the four
/// decimals are a multiple of 625 (for the magnitudes a dump prints, below 2^20).
fn rounded_by_dump(tok: &str) -> bool {
    let digits = tok.strip_prefix(['-', '+']).unwrap_or(tok);
    let Some((int, frac)) = digits.split_once('.') else { return false };
    let decimal = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    decimal(int)
        && int.len() <= 6
        && frac.len() == 4
        && decimal(frac)
        && frac.parse::<u32>().is_ok_and(|f| f % 625 != 0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn four_decimal_values_no_float_has() {
        // 0.5, 0.0625 and 0.9375 are sixteenths: exact. 0.3333 and 0.1000 are not.
        for (tok, rounded) in [
            ("0.5000", false),
            ("0.0625", false),
            ("-0.9375", false),
            ("1.0000", false),
            ("0.3333", true),
            ("-0.1000", true),
            ("0.33333334", false),
            ("0.333", false),
            ("1e-4", false),
            ("1234567.1234", false),
        ] {
            assert_eq!(super::rounded_by_dump(tok), rounded, "{tok}");
        }
    }
}
