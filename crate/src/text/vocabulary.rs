//! Every word of the TGSI text language, from the tables the parser reads (the opcode table and
//! the named enumerations of `ir::names`): what the page's highlighter and completion use, so
//! they can never miss a word the parser knows (exported through wasm as `vocabulary()`).

use crate::ir::*;
use crate::opcode::Opcode;
use serde::Serialize;

/// The words of the language, each list in table order.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Vocabulary {
    pub opcodes: Vec<&'static str>,
    pub processors: Vec<&'static str>,
    pub files: Vec<&'static str>,
    pub semantics: Vec<&'static str>,
    pub texture_targets: Vec<&'static str>,
    pub return_types: Vec<&'static str>,
    pub interpolations: Vec<&'static str>,
    pub locations: Vec<&'static str>,
    pub memory_kinds: Vec<&'static str>,
    pub immediate_types: Vec<&'static str>,
    pub properties: Vec<&'static str>,
    /// Values properties take (primitives, coordinate conventions, shader names).
    pub property_values: Vec<&'static str>,
    pub memory_qualifiers: Vec<&'static str>,
    /// Statement and declaration keywords and instruction suffixes.
    pub keywords: Vec<&'static str>,
}

fn names<T: Copy>(all: &[T], name: fn(T) -> &'static str) -> Vec<&'static str> {
    all.iter().map(|&v| name(v)).collect()
}

/// The vocabulary of the parser.
pub fn vocabulary() -> Vocabulary {
    let mut property_values = names(PrimType::ALL, PrimType::name);
    property_values.extend(names(CoordOrigin::ALL, CoordOrigin::name));
    property_values.extend(names(PixelCenter::ALL, PixelCenter::name));
    property_values.extend(names(ShaderName::ALL, ShaderName::name));
    property_values.sort_unstable();
    property_values.dedup();
    Vocabulary {
        opcodes: Opcode::all().map(Opcode::name).collect(),
        processors: names(Processor::ALL, Processor::name),
        // NULL exists in Mesa's enum but cannot be written in text.
        files: names(File::ALL, File::name)
            .into_iter()
            .filter(|f| *f != File::Null.name())
            .collect(),
        semantics: names(SemanticName::ALL, SemanticName::name),
        texture_targets: names(TextureTarget::ALL, TextureTarget::name),
        return_types: names(ReturnType::ALL, ReturnType::name),
        interpolations: names(Interp::ALL, Interp::name),
        locations: names(Location::ALL, Location::name),
        memory_kinds: names(MemoryKind::ALL, MemoryKind::name),
        immediate_types: names(ImmType::ALL, ImmType::name),
        properties: names(PropertyName::ALL, PropertyName::name),
        property_values,
        memory_qualifiers: names(MemoryQualifier::ALL, MemoryQualifier::name),
        keywords: vec!["DCL", "IMM", "PROPERTY", "ARRAY", "LOCAL", "INVARIANT", "STREAM", "_SAT"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every word the vocabulary lists is one the parser accepts in its place (checked by
    /// parsing a statement that uses it), and words the page once missed are there.
    #[test]
    fn the_vocabulary_is_the_parsers() {
        let v = vocabulary();
        for s in ["BLOCK_ID", "GRID_SIZE", "THREAD_ID", "HELPER_INVOCATION"] {
            assert!(v.semantics.contains(&s), "{s}");
        }
        for s in &v.semantics {
            let text = format!("COMP\nDCL SV[0], {s}\nEND\n");
            let parsed = crate::text::parse(&text);
            assert!(parsed.shader.is_some(), "{s}: {:?}", parsed.diagnostics);
        }
        for op in &v.opcodes {
            assert!(Opcode::from_name(op).is_some());
        }
        for f in &v.files {
            assert!(File::from_name(f).is_some());
        }
        assert!(!v.files.contains(&"NULL"));
        assert_eq!(v.opcodes.len(), Opcode::all().count());
    }
}
