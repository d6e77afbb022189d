fn main() -> std::process::ExitCode {
    repocue_cli::run(std::env::args_os())
}
