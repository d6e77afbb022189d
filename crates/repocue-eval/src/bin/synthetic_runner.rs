//! The synthetic runner binary: see `repocue_eval::runners::synthetic`.

fn main() -> std::process::ExitCode {
    repocue_eval::runners::main_with(repocue_eval::runners::synthetic::observe)
}
