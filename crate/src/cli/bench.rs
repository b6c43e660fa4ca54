//! `tgsi bench`.

use super::Args;

pub fn run(_args: &Args) -> i32 {
    eprintln!("tgsi bench: not implemented yet");
    2
}
