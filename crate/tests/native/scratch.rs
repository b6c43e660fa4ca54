//! Scratch folders for tests that hand files to the `tgsi` binary: inside Cargo's folder for
//! integration-test files (`target/tmp`, emptied by `cargo clean`), never the system's temporary
//! folder, and one per test process so that two runs at once do not share files.

use std::path::{Path, PathBuf};

/// The folder `<area>-<this process>` below `target/tmp`, made if missing. The first call of a
/// test process removes the folders that ended processes left (`<area>-<pid>`; Linux tells
/// through `/proc` which have ended, elsewhere they stay), so runs do not pile up folders.
pub fn dir(area: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"));
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(|| sweep(root));
    let dir = root.join(format!("{area}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the scratch folder can be made");
    dir
}

/// Removes the folders `<area>-<pid>` in `root` whose process has ended.
fn sweep(root: &Path) {
    let Ok(entries) = std::fs::read_dir(root) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let pid = name.rsplit_once('-').and_then(|(_, p)| p.parse::<u32>().ok());
        if pid.is_some_and(|p| p != std::process::id() && ended(p)) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// A file `name` in [`dir`]`(area)`, as the string the CLI takes.
pub fn file(area: &str, name: &str) -> String {
    dir(area).join(name).to_string_lossy().into_owned()
}

/// Whether process `pid` has ended (known only where `/proc` lists processes).
fn ended(pid: u32) -> bool {
    Path::new("/proc/self").exists() && !Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn a_folder_left_by_an_ended_process_is_removed() {
    // No Linux process has this id (pids stop at 2^22).
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let stale = root.join("scratch-test-4294967294");
    std::fs::create_dir_all(stale.join("inner")).expect("made");
    // (Other tests of this process may have swept already: sweep as their first call did.)
    let own = dir("scratch-test");
    sweep(root);
    assert_eq!(own.file_name(), Some(format!("scratch-test-{}", std::process::id()).as_ref()));
    assert!(own.is_dir());
    if Path::new("/proc/self").exists() {
        assert!(!stale.exists(), "the ended process's folder is gone");
    }
}
