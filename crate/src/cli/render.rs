//! `tgsi render`.

use super::Args;

pub fn run(_args: &Args) -> i32 {
    eprintln!("tgsi render: not implemented yet");
    2
}
