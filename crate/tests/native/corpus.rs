//! The one place the tests (and the interpreter benchmark) know where the corpus is:
//! `tests/corpus/` in the repository (see its README for where each set comes from).
//! `corpus!("/softpipe")` is its `softpipe` folder. Beside it, `program!`: the programs the page,
//! the lessons, widget.html and the reference show (`programs/`), for the tests that run them.

/// The path of the corpus (or of something inside it, when given a suffix).
#[macro_export]
macro_rules! corpus {
    () => {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus")
    };
    ($sub:literal) => {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus", $sub)
    };
}

/// The text of a program shown to people, by its name in `programs/` (the one copy of each):
/// `program!("examples/prefix-sum.cs")` is `programs/examples/prefix-sum.cs.tgsi`.
#[macro_export]
macro_rules! program {
    ($name:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../programs/", $name, ".tgsi"))
    };
}
