//! Drives `repocue serve` with an MCP client that is not part of this project: the official
//! MCP Python SDK, installed by `scripts/setup-test-deps.sh` into `target/test-venv`.

use std::path::PathBuf;
use std::process::Command;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn official_python_sdk_client_passes_every_check() {
    let root = workspace();
    let setup = Command::new("bash")
        .arg(root.join("scripts/setup-test-deps.sh"))
        .current_dir(&root)
        .output()
        .expect("run setup-test-deps.sh");
    assert!(
        setup.status.success(),
        "setup-test-deps.sh failed:\n{}{}",
        String::from_utf8_lossy(&setup.stdout),
        String::from_utf8_lossy(&setup.stderr)
    );
    let venv = std::env::var_os("REPOCUE_TEST_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/test-venv"));
    let venv = if venv.is_absolute() {
        venv
    } else {
        root.join(venv)
    };
    let out = Command::new(venv.join("bin/python"))
        .arg(root.join("crates/repocue-mcp/tests/mcp_client.py"))
        .args(["--repeat", "1", "--"])
        .arg(env!("CARGO_BIN_EXE_repocue"))
        .args(["--repository", "{repo}", "--cache-dir", "{cache}", "serve"])
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("run the MCP client");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "MCP client failed:\n{stdout}\n{stderr}"
    );
    let last = stdout
        .lines()
        .rev()
        .find(|l| l.contains(" passed, "))
        .unwrap_or_default();
    assert!(
        last.ends_with(" 0 failed"),
        "unexpected summary {last:?}:\n{stdout}"
    );
    let passed: u32 = last
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(passed >= 20, "too few checks ran ({passed}):\n{stdout}");
}
