//! `tgsi run`.

use super::Args;

pub fn run(_args: &Args) -> i32 {
    eprintln!("tgsi run: not implemented yet");
    2
}
