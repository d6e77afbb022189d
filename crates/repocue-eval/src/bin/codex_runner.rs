//! The codex runner binary: see `repocue_eval::runners::codex`.

fn main() -> std::process::ExitCode {
    repocue_eval::runners::main_with(repocue_eval::runners::codex::observe)
}
