//! Embeds the `<tgsi-shader>` package (`../dist/tgsi-shader`, made by
//! `node scripts/build-package.mjs`) in the binary, so a book needs nothing copied by hand: the
//! preprocessor writes these files into the book (src/assets.rs). Without that folder the set is
//! empty and a book with widgets needs `[preprocessor.tgsi] assets = "DIR"`.
//!
//! The package may be rebuilt while this runs (the e2e tests build it again): build-package.mjs
//! removes the folder first and writes `package.json` last. So the files are read into memory,
//! kept only if `package.json` was there before the reading and unchanged after it, and copied
//! into OUT_DIR, which is what the binary includes; otherwise the reading is tried again.
//!
//! Writes `$OUT_DIR/embedded.rs`: `pub static EMBEDDED: &[(&str, &[u8])]`, sorted by path.

use std::env;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

#[path = "src/runtime_files.rs"]
mod runtime_files;

/// How many times a package that is being rebuilt is read again, and how long apart.
const ATTEMPTS: u32 = 60;
const PAUSE: Duration = Duration::from_millis(250);

fn main() -> io::Result<()> {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").ok_or_else(missing_env)?);
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").ok_or_else(missing_env)?);
    let package = manifest.join("..").join("dist").join("tgsi-shader");
    // Cargo scans a watched folder's whole tree; a watched path that does not exist makes the
    // script run on every build, which is what picks the package up once it is built.
    println!("cargo:rerun-if-changed={}", package.display());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/runtime_files.rs");

    let files = read_package(&package);
    if files.is_empty() {
        println!(
            "cargo:warning=dist/tgsi-shader is missing or incomplete: this mdbook-tgsi embeds no \
             widget files (build them with `node scripts/build-package.mjs`, or set \
             [preprocessor.tgsi] assets = \"DIR\" in book.toml)"
        );
    }

    let copies = out_dir.join("tgsi-shader");
    if copies.exists() {
        fs::remove_dir_all(&copies)?;
    }
    let mut out = String::from("pub static EMBEDDED: &[(&str, &[u8])] = &[\n");
    for (rel, bytes) in &files {
        let copy = copies.join(rel);
        if let Some(parent) = copy.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::write(&copy, bytes)?;
        let copy = copy.to_string_lossy().into_owned();
        out.push_str(&format!("    ({:?}, include_bytes!({:?})),\n", rel, copy));
    }
    out.push_str("];\n");
    fs::write(out_dir.join("embedded.rs"), out)
}

fn missing_env() -> io::Error {
    io::Error::other("cargo did not set CARGO_MANIFEST_DIR or OUT_DIR")
}

/// The package's page files, read whole between two looks at `package.json`; none when there
/// is no package (or it stays incomplete).
fn read_package(package: &Path) -> Vec<(String, Vec<u8>)> {
    if !package.is_dir() {
        return Vec::new();
    }
    let stamp = || -> Option<SystemTime> {
        fs::metadata(package.join("package.json")).ok()?.modified().ok()
    };
    for attempt in 0..ATTEMPTS {
        if attempt > 0 {
            std::thread::sleep(PAUSE);
        }
        let Some(before) = stamp() else { continue };
        let mut files = Vec::new();
        if collect(package, package, &mut files).is_err() || stamp() != Some(before) {
            continue;
        }
        if files.iter().any(|(rel, _)| rel == "tgsi-shader.js") {
            files.sort();
            return files;
        }
    }
    Vec::new()
}

/// The files a page loads, as (path inside the package with `/`, bytes).
fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, Vec<u8>)>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(root, &path, files)?;
            continue;
        }
        let Ok(rel) = path.strip_prefix(root) else { continue };
        let rel: Vec<String> =
            rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        let rel = rel.join("/");
        if runtime_files::is_runtime_file(&rel) {
            let bytes = fs::read(&path)?;
            files.push((rel, bytes));
        }
    }
    Ok(())
}
