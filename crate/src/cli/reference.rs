//! `tgsi reference --out DIR`: writes the opcode reference site (`reference::site`).

use super::args::ReferenceArgs;

pub fn run(args: &ReferenceArgs) -> i32 {
    let dir = std::path::Path::new(&args.out);
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
