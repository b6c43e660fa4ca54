//! `tgsi fmt`.

use super::Args;

pub fn run(_args: &Args) -> i32 {
    eprintln!("tgsi fmt: not implemented yet");
    2
}
