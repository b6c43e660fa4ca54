//! `--engine interp|jit` (and `both` for `bench`): which engine runs shaders (docs/jit.md).
//! Default: `jit::DEFAULT_ENGINE` (the JIT where the build has it). When the JIT was asked for by name and cannot run
//! a shader, a note says why and the interpreter runs it.

use crate::jit::Engine;

/// The engines asked for (two for `both`), and whether `--engine` was given.
pub(crate) fn read(engine: Option<&str>, both: bool) -> Result<(Vec<Engine>, bool), String> {
    let Some(v) = engine else {
        return Ok((vec![crate::jit::DEFAULT_ENGINE], false));
    };
    if both && v == "both" {
        return Ok((vec![Engine::Interpreter, Engine::Jit], true));
    }
    match Engine::parse(v) {
        Some(e) => Ok((vec![e], true)),
        None => Err(format!("--engine is interp or jit{}", if both { " or both" } else { "" })),
    }
}

/// Prints why the interpreter runs a shader the JIT was asked for.
pub(crate) fn note(cmd: &str, why: &str) {
    eprintln!("tgsi {cmd}: note: the interpreter runs this shader ({why})");
}
