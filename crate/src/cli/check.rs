//! `tgsi check`.

use super::Args;

pub fn run(_args: &Args) -> i32 {
    eprintln!("tgsi check: not implemented yet");
    2
}
