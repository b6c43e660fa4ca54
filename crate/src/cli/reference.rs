//! `tgsi reference --out DIR`: writes the opcode reference site (`reference::site`).

use super::Args;

pub fn run(args: &Args) -> i32 {
    let Some(dir) = args.value("out") else {
        eprintln!("tgsi reference: --out DIR is required");
        return 2;
    };
    let dir = std::path::Path::new(dir);
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("tgsi reference: cannot create {}: {e}", dir.display());
        return 2;
    }
    for (name, text) in crate::reference::site::files() {
        let path = dir.join(name);
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("tgsi reference: cannot write {}: {e}", path.display());
            return 2;
        }
    }
    println!("wrote the opcode reference to {}", dir.display());
    0
}
