//! The `<tgsi-shader>` package's files and how they reach the book.
//!
//! They are embedded in the binary when it is built (build.rs, from `dist/tgsi-shader`), or read
//! from the folder `[preprocessor.tgsi] assets = "DIR"` names. A preprocessor cannot add files
//! to mdBook's output (the HTML renderer empties its output folder before it renders), but the
//! renderer copies every file of the source folder that is not markdown. So the files are
//! written to `SRC/tgsi-shader/`, each only when it is missing or different (so `mdbook serve`,
//! which rebuilds on changes in `src/`, does not loop), and the page loads
//! `tgsi-shader/tgsi-shader.js` from the book's root.

use crate::runtime_files::is_runtime_file;
use std::borrow::Cow;
use std::fs;
use std::io;
use std::path::Path;

include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

/// The folder inside the book's source (and output) that holds the files.
pub const FOLDER: &str = "tgsi-shader";
/// The element's module, which finds the others next to itself.
pub const ENTRY: &str = "tgsi-shader.js";

/// One file: its path inside the package (with `/`) and its bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Asset {
    pub path: String,
    pub bytes: Cow<'static, [u8]>,
}

/// The files built into this binary (none when `dist/tgsi-shader` was missing).
pub fn embedded() -> Vec<Asset> {
    EMBEDDED
        .iter()
        .map(|(path, bytes)| Asset { path: path.to_string(), bytes: Cow::Borrowed(*bytes) })
        .collect()
}

/// The files of a package folder (e.g. `node_modules/tgsi-shader`).
pub fn from_folder(dir: &Path) -> Result<Vec<Asset>, String> {
    if !dir.join(ENTRY).is_file() {
        return Err(format!(
            "{} holds no {ENTRY}: it is not the tgsi-shader package",
            dir.display()
        ));
    }
    let mut out = Vec::new();
    collect(dir, dir, &mut out).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<Asset>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(root, &path, out)?;
            continue;
        }
        let Ok(rel) = path.strip_prefix(root) else { continue };
        let rel: Vec<String> =
            rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        let rel = rel.join("/");
        if is_runtime_file(&rel) {
            out.push(Asset { path: rel, bytes: Cow::Owned(fs::read(&path)?) });
        }
    }
    Ok(())
}

/// What [`install`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Installed {
    pub written: usize,
    pub unchanged: usize,
    pub removed: usize,
}

/// Writes the files into `dest`, each only when missing or different, and removes the
/// `chunk-*.js` files of an earlier package (their names change with their contents).
pub fn install(assets: &[Asset], dest: &Path) -> io::Result<Installed> {
    let mut done = Installed::default();
    for a in assets {
        let path = dest.join(&a.path);
        if fs::read(&path).is_ok_and(|old| old == *a.bytes) {
            done.unchanged += 1;
            continue;
        }
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::write(&path, &a.bytes)?;
        done.written += 1;
    }
    for entry in fs::read_dir(dest)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let stale = name.starts_with("chunk-")
            && name.ends_with(".js")
            && !assets.iter().any(|a| a.path == name);
        if stale && entry.file_type()?.is_file() {
            fs::remove_file(entry.path())?;
            done.removed += 1;
        }
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mdbook-tgsi-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("scratch folder");
        dir
    }

    fn asset(path: &str, text: &str) -> Asset {
        Asset { path: path.to_string(), bytes: Cow::Owned(text.as_bytes().to_vec()) }
    }

    #[test]
    fn install_writes_only_what_changed_and_removes_old_chunks() {
        let dest = scratch("install");
        let first =
            [asset("tgsi-shader.js", "a"), asset("chunk-OLD.js", "c"), asset("pkg/tgsi.js", "p")];
        assert_eq!(
            install(&first, &dest).unwrap(),
            Installed { written: 3, unchanged: 0, removed: 0 }
        );
        fs::write(dest.join("mine.txt"), "not ours").unwrap();
        let second =
            [asset("tgsi-shader.js", "b"), asset("chunk-NEW.js", "d"), asset("pkg/tgsi.js", "p")];
        assert_eq!(
            install(&second, &dest).unwrap(),
            Installed { written: 2, unchanged: 1, removed: 1 }
        );
        assert_eq!(fs::read_to_string(dest.join("tgsi-shader.js")).unwrap(), "b");
        assert!(!dest.join("chunk-OLD.js").exists());
        assert!(dest.join("mine.txt").exists());
        assert_eq!(
            install(&second, &dest).unwrap(),
            Installed { written: 0, unchanged: 3, removed: 0 }
        );
        fs::remove_dir_all(&dest).unwrap();
    }

    #[test]
    fn a_folder_is_read_without_the_npm_only_files() {
        let dir = scratch("folder");
        assert!(from_folder(&dir).unwrap_err().contains("holds no tgsi-shader.js"));
        for (p, t) in [
            ("tgsi-shader.js", "e"),
            ("README.md", "r"),
            ("package.json", "{}"),
            ("engine.d.ts", "t"),
            ("full/tgsi_bg.wasm", "w"),
        ] {
            let path = dir.join(p);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, t).unwrap();
        }
        let got: Vec<String> = from_folder(&dir).unwrap().into_iter().map(|a| a.path).collect();
        assert_eq!(got, ["full/tgsi_bg.wasm", "tgsi-shader.js"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_embedded_set_is_a_package_or_nothing() {
        let set = embedded();
        if !set.is_empty() {
            assert!(set.iter().any(|a| a.path == ENTRY));
            assert!(set.iter().all(|a| is_runtime_file(&a.path)));
        }
    }
}
