//! The claude runner binary: see `repocue_eval::runners::claude`.

fn main() -> std::process::ExitCode {
    repocue_eval::runners::main_with(repocue_eval::runners::claude::observe)
}
