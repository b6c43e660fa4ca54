//! The options map onto the widget's own words: the attributes `<tgsi-shader>` reads
//! (`ATTRIBUTES` in web/widget/tgsi-shader.js) and its built-in textures (`BUILTIN_TEXTURES` in
//! web/textures.js). A word added to the widget without a matching option here fails this test.

use mdbook_tgsi::options::{attribute_names, BUILTIN_TEXTURES};
use std::path::Path;

/// The quoted words of the JavaScript array `const NAME = [...]` in `file`.
fn js_array(file: &str, name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let start =
        text.find(&format!("const {name} = [")).unwrap_or_else(|| panic!("{file} has no {name}"));
    let body = &text[start..];
    let end = body.find("];").unwrap_or_else(|| panic!("{name} in {file} is not closed"));
    body[..end].split('\'').skip(1).step_by(2).map(str::to_string).collect()
}

#[test]
fn the_options_are_the_widgets_attributes_but_its_urls() {
    let mut widget = js_array("web/widget/tgsi-shader.js", "ATTRIBUTES");
    assert!(widget.len() > 10, "{widget:?}");
    // The shader texts come from the book (the block, {{#tgsi FILE}}, vs=FILE), not URLs.
    widget.retain(|a| a != "src" && a != "vs-src");
    widget.sort();
    let mut ours: Vec<String> = attribute_names().map(str::to_string).collect();
    ours.sort();
    assert_eq!(ours, widget);
}

#[test]
fn the_built_in_textures_are_the_widgets() {
    assert_eq!(js_array("web/textures.js", "BUILTIN_TEXTURES"), BUILTIN_TEXTURES);
}
