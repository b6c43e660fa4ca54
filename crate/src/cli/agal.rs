//! `tgsi agal`, `tgsi agal-asm`, `tgsi agal-dis`.

use super::Args;

pub fn run_export(_args: &Args) -> i32 {
    eprintln!("tgsi agal: not implemented yet");
    2
}

pub fn run_asm(_args: &Args) -> i32 {
    eprintln!("tgsi agal-asm: not implemented yet");
    2
}

pub fn run_dis(_args: &Args) -> i32 {
    eprintln!("tgsi agal-dis: not implemented yet");
    2
}
