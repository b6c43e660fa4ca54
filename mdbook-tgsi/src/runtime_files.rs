//! Which files of the `<tgsi-shader>` package a page loads (shared by build.rs and the
//! `assets` folder reader): everything but the package's typings, README and package.json,
//! which are for npm, not for a reader's browser. `rel` is the path inside the package, with `/`.

pub fn is_runtime_file(rel: &str) -> bool {
    !(rel.ends_with(".d.ts") || rel == "README.md" || rel == "package.json")
}
