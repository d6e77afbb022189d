//! Records the Git commit the binary is built from, for `repocue --version`.
//!
//! `REPOCUE_BUILD_COMMIT` overrides it (builds from a source archive); without Git or a
//! `.git` directory the version says `commit unknown`.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (out.status.success() && !text.is_empty()).then(|| text.to_owned())
}

fn main() {
    println!("cargo:rerun-if-env-changed=REPOCUE_BUILD_COMMIT");
    let commit = match std::env::var("REPOCUE_BUILD_COMMIT") {
        Ok(c) if !c.trim().is_empty() => c.trim().to_owned(),
        _ => {
            // Rebuild when HEAD moves: the HEAD file, the branch it names, packed refs.
            // A file that does not exist would make Cargo run this script on every build (and
            // relink the binary and every test that runs it), so only existing files are named.
            let watch = |path: &Path| {
                if path.exists() {
                    println!("cargo:rerun-if-changed={}", path.display());
                }
            };
            if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
                watch(&Path::new(&dir).join("HEAD"));
            }
            if let Some(common) = git(&["rev-parse", "--path-format=absolute", "--git-common-dir"])
            {
                watch(&Path::new(&common).join("packed-refs"));
                if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
                    watch(&Path::new(&common).join(branch));
                }
            }
            git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "commit unknown".into())
        }
    };
    println!("cargo:rustc-env=REPOCUE_COMMIT={commit}");
}
