//! The commands a project's continuous integration runs: the `run:` steps of its GitHub
//! Actions workflows (`.github/workflows/*.yml`) and of its CircleCI configuration
//! (`.circleci/config.yml`, where a step's command may be its `command:`). What CI runs is how the maintainers check a
//! change (jsoup's `mvn verify`, rayon's `cargo fmt --all --check`, tmux's `cd regress &&
//! make`), where the commands a manifest implies are only the ecosystem's defaults.
//!
//! Read line by line, not as YAML: a step's `run:` value on its line, or the block under
//! `run: |` (a folded `>` block is one command). Only commands a contributor can run as they
//! are come out: none with a workflow expression (`${{ matrix.os }}`) or a shell variable
//! left after its environment assignments, none that installs, releases, publishes or sets
//! the machine up, none over [`MAX_COMMAND`] characters, none whose words name a secret.
//! Workflows named for releases, publishing, security scans or issue housekeeping are not
//! read at all.

/// Longest command kept: a line a contributor would type.
const MAX_COMMAND: usize = 80;
/// Most commands kept per workflow.
const MAX_PER_WORKFLOW: usize = 8;

/// Whether a path is a GitHub Actions workflow whose commands are read, or a composite action
/// of the repository's own that workflows use (`.github/actions/<name>/action.yml`: guice's
/// CI runs `mvn verify` and `bazel test` there, and its overview fell back to `mvn test`).
pub fn is_workflow(path: &[u8]) -> bool {
    if is_circleci(path) {
        return true;
    }
    if let Some(action) = path.strip_prefix(b".github/actions/") {
        let mut parts = action.split(|&b| b == b'/');
        let (dir, file) = (parts.next(), parts.next());
        let named = matches!(file, Some(b"action.yml" | b"action.yaml"));
        return parts.next().is_none() && named && dir.is_some_and(|d| !d.is_empty()) && {
            let dir = String::from_utf8_lossy(dir.unwrap_or_default()).to_ascii_lowercase();
            !SKIPPED.iter().any(|s| dir.contains(s))
        };
    }
    let Some(name) = path.strip_prefix(b".github/workflows/") else {
        return false;
    };
    if name.contains(&b'/') || !(name.ends_with(b".yml") || name.ends_with(b".yaml")) {
        return false;
    }
    let name = String::from_utf8_lossy(name).to_ascii_lowercase();
    !SKIPPED.iter().any(|s| name.contains(s))
}

/// Whether a path is CircleCI's configuration (`.circleci/config.yml`), read as a workflow is:
/// its `run:` steps, or their `command:` (gorilla/websocket's `go test -v -race ./...` and `go
/// vet` ran there only, and its overview offered the Go defaults).
fn is_circleci(path: &[u8]) -> bool {
    matches!(path, b".circleci/config.yml" | b".circleci/config.yaml")
}

/// Words of a workflow's or action's name that say it releases, publishes, scans or keeps
/// house: its commands are no check of a change.
const SKIPPED: &[&str] = &[
    "release",
    "publish",
    "deploy",
    "codeql",
    "scorecard",
    "label",
    "stale",
    "lock",
    "triage",
    "dependabot",
    "dependency-review",
    "greetings",
    "welcome",
    "reminder",
    "sponsor",
    "pages",
    "coverity",
    "fuzz",
    "zizmor",
];

/// The commands a GitHub Actions workflow's steps run ([`commands_of`]).
#[cfg(test)]
fn commands(text: &str) -> Vec<(String, &'static str)> {
    commands_in(text, false)
}

/// The commands of the workflow at `path`, in file order, each once, with their purpose
/// (`build`, `test`, `lint`, `format`, `docs` or `other`): at most [`MAX_PER_WORKFLOW`].
/// CircleCI's configuration is read too.
pub fn commands_of(path: &[u8], text: &str) -> Vec<(String, &'static str)> {
    commands_in(text, is_circleci(path))
}

/// [`commands_of`], for CircleCI's dialect when `circleci`: a step's command may be the
/// `command:` of its `run:` map, in the `working_directory:` it names; one with a pipeline
/// parameter (`<< parameters.go >>`) is no command a contributor can run as it is.
fn commands_in(text: &str, circleci: bool) -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str)> = Vec::new();
    let matrix = matrix_firsts(text);
    // A step for another platform than a contributor's Linux checkout (`if: matrix.os ==
    // 'windows-latest'`) comes after the others: NSubstitute's Windows-only `dotnet test -f
    // net462` came first and hid the `dotnet test -f net8.0` every platform runs.
    let (general, other): (Vec<_>, Vec<_>) = run_lines(text, circleci)
        .into_iter()
        .filter(|(line, _)| !(circleci && line.contains("<<") && line.contains(">>")))
        .partition(|(_, p)| !p);
    for (line, _) in general.into_iter().chain(other) {
        let Some(command) = runnable(&with_matrix(&line, &matrix)) else {
            continue;
        };
        // One of each (program, subcommand): rayon's CI builds and tests each package, for
        // other targets too; the first says how.
        if out
            .iter()
            .any(|(c, _)| command_key(c) == command_key(&command))
        {
            continue;
        }
        let purpose = purpose(&command);
        out.push((command, purpose));
    }
    first_of_each_purpose(out, MAX_PER_WORKFLOW)
}

/// At most `n` of the commands, in their order: the first of each purpose, then the others
/// from the top. regex's CI formats its code in its last job, after eight of building and
/// testing: the first eight had no `cargo fmt --all -- --check`.
fn first_of_each_purpose(
    commands: Vec<(String, &'static str)>,
    n: usize,
) -> Vec<(String, &'static str)> {
    if commands.len() <= n {
        return commands;
    }
    let mut keep = vec![false; commands.len()];
    let mut seen: Vec<&str> = Vec::new();
    for (i, (_, purpose)) in commands.iter().enumerate() {
        if !seen.contains(purpose) && seen.len() < n {
            seen.push(purpose);
            keep[i] = true;
        }
    }
    let mut left = n - seen.len();
    for k in keep.iter_mut().filter(|k| !**k) {
        if left == 0 {
            break;
        }
        *k = true;
        left -= 1;
    }
    commands
        .into_iter()
        .zip(keep)
        .filter_map(|(c, k)| k.then_some(c))
        .collect()
}

/// The first value of each list a workflow's `matrix:` gives (`workspace: [".", examples]`,
/// or a block of `- ` items): the variant a contributor runs first, on a checkout of one
/// machine. Keys whose values are maps (`include:`) give none.
fn matrix_firsts(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    // The `matrix:` line's indent and the indent of its keys, once seen.
    let mut matrix: Option<(usize, Option<usize>)> = None;
    let mut pending: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = line.len() - trimmed.len();
        if trimmed.trim_end() == "matrix:" {
            matrix = Some((indent, None));
            continue;
        }
        let Some((at, keys)) = matrix else {
            continue;
        };
        if indent <= at {
            matrix = None;
            continue;
        }
        if let (Some(key), Some(item)) = (pending.take(), trimmed.strip_prefix("- ")) {
            let item = unquoted(item.trim());
            if !item.contains(':') && !item.is_empty() {
                out.push((key, item.to_owned()));
            }
            continue;
        }
        let keys = keys.unwrap_or(indent);
        matrix = Some((at, Some(keys)));
        if indent != keys {
            continue;
        }
        let Some((key, value)) = trimmed.split_once(':') else {
            continue;
        };
        let value = value.trim();
        let first = value
            .strip_prefix('[')
            .and_then(|v| v.strip_suffix(']'))
            .and_then(|v| v.split(',').next())
            .map(|v| unquoted(v.trim()));
        match first {
            Some(v) if !v.is_empty() => out.push((key.trim().to_owned(), v.to_owned())),
            _ if value.is_empty() => pending = Some(key.trim().to_owned()),
            _ => {}
        }
    }
    out
}

/// A shell line with its `${{ matrix.key }}` expressions replaced by the first value the
/// matrix gives the key (axum's checks run `cargo clippy --manifest-path ${{
/// matrix.workspace }}/Cargo.toml … -- -D warnings` for `.` first): left as it is when some
/// key has none, so [`runnable`] drops it.
fn with_matrix(line: &str, matrix: &[(String, String)]) -> String {
    let mut out = line.to_owned();
    for (key, value) in matrix {
        for spaced in [
            format!("${{{{ matrix.{key} }}}}"),
            format!("${{{{matrix.{key}}}}}"),
        ] {
            out = out.replace(&spaced, value);
        }
    }
    out
}

/// The shell lines of every `run:` step: its inline value, or its block's lines (dedented;
/// `\` continuations joined; a folded block joined into one line). A line that runs in
/// another directory says so (`cd build && make`): the step's `working-directory`, or a
/// `cd` on an earlier line of its block (spdlog's `mkdir -p build && cd build`, then `make
/// -j2`); after a `cd` whose directory is not plain, the block's lines are left out. Each
/// line says whether its step runs on another platform only ([`for_another_platform`]).
fn run_lines(text: &str, circleci: bool) -> Vec<(String, bool)> {
    let lines: Vec<&str> = text.lines().collect();
    // A `defaults: run: working-directory:` of the workflow or a job: where steps without
    // their own run (read as the workflow's; none is read when it is no plain path).
    let default_dir = match defaults_directory(&lines) {
        Some(Some(dir)) => dir,
        Some(None) => return Vec::new(),
        None => String::new(),
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let at = i;
        let line = lines[i];
        i += 1;
        let trimmed = line.trim_start();
        let dashed = trimmed.strip_prefix("- ");
        let key = dashed.unwrap_or(trimmed).trim_start();
        let value = key
            .strip_prefix("run:")
            .or_else(|| key.strip_prefix("command:").filter(|_| circleci));
        let Some(value) = value else {
            continue;
        };
        let value = value.trim();
        let indent = line.len() - trimmed.len();
        let column = line.len() - key.len();
        let keys = step_keys(&lines, at, column);
        let mut dir = working_directory(&keys, &default_dir);
        let platform = keys
            .iter()
            .find_map(|k| k.strip_prefix("if:"))
            .is_some_and(for_another_platform);
        let mut commands: Vec<String> = Vec::new();
        if let Some(style) = value.chars().next().filter(|c| matches!(c, '|' | '>')) {
            let mut block: Vec<&str> = Vec::new();
            while i < lines.len() {
                let next = lines[i];
                let body = next.trim_start();
                if !body.is_empty() && next.len() - body.len() <= indent {
                    break;
                }
                block.push(body);
                i += 1;
            }
            if style == '>' {
                commands.push(block.join(" "));
            } else {
                commands.extend(joined_continuations(&block));
            }
        } else if !value.is_empty() {
            commands.push(unquoted(value).to_owned());
        }
        for command in commands {
            let command = from_the_checkout(command.trim());
            let command = command.as_str();
            let Some(here) = &dir else {
                break;
            };
            if !here.is_empty() && !command.is_empty() && !command.starts_with('#') {
                out.push((format!("cd {here} && {command}"), platform));
            } else {
                out.push((command.to_owned(), platform));
            }
            // The directory the next lines run in.
            if let Some(target) = changed_directory(command) {
                dir = target.and_then(|t| joined_directory(dir.as_deref().unwrap_or(""), t));
            }
        }
    }
    out
}

/// A command with the checkout's path written as the runner's variable read as from the
/// checkout: `$GITHUB_WORKSPACE/test.sh` (hiredis's whole test run) is `./test.sh`, and so is
/// `${GITHUB_WORKSPACE}/test.sh` or `${{ github.workspace }}/test.sh`.
fn from_the_checkout(command: &str) -> String {
    const WORKSPACE: &[&str] = &[
        "$GITHUB_WORKSPACE/",
        "${GITHUB_WORKSPACE}/",
        "${{ github.workspace }}/",
        "${{github.workspace}}/",
    ];
    let mut out = command.to_owned();
    for w in WORKSPACE {
        out = out.replace(w, "./");
    }
    out
}

/// The `working-directory` of a `defaults:` block: `None` when there is none, `Some(None)`
/// when it is no plain relative path (`${{ runner.workspace }}/build`, fmt's).
fn defaults_directory(lines: &[&str]) -> Option<Option<String>> {
    let mut defaults: Option<usize> = None;
    for line in lines {
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            continue;
        }
        let indent = line.len() - trimmed.len();
        if trimmed.trim_end() == "defaults:" {
            defaults = Some(indent);
            continue;
        }
        match defaults {
            Some(d) if indent <= d => defaults = None,
            Some(_) => {
                if let Some(value) = trimmed.strip_prefix("working-directory:") {
                    return Some(joined_directory("", unquoted(value.trim())));
                }
            }
            None => {}
        }
    }
    None
}

/// The step's `working-directory` (`default` when it has none; `""` for the root), from its
/// keys ([`step_keys`]); `None` when it is no plain relative path.
fn working_directory(keys: &[String], default: &str) -> Option<String> {
    let value = keys.iter().find_map(|k| {
        k.strip_prefix("working-directory:")
            .or_else(|| k.strip_prefix("working_directory:"))
    });
    let Some(value) = value else {
        return Some(default.to_owned());
    };
    joined_directory("", unquoted(value.trim()))
}

/// Whether a step's `if:` condition runs it on Windows or macOS only (`matrix.os ==
/// 'windows-latest'`, `runner.os == 'macOS'`), not on the Linux a contributor's checkout is
/// read as.
fn for_another_platform(condition: &str) -> bool {
    let c = condition.to_ascii_lowercase();
    (c.contains("windows") || c.contains("macos"))
        && c.contains("==")
        && !c.contains("!=")
        && !c.contains("linux")
        && !c.contains("ubuntu")
}

/// The keys of the step whose `run:` key is line `at` at `column`, each with its value as
/// written (`working-directory: web`, `if: matrix.os == 'windows-latest'`): the step's lines,
/// back to its `- ` and forward while indented at least as its keys.
fn step_keys(lines: &[&str], at: usize, column: usize) -> Vec<String> {
    let key_at = |line: &str| -> Option<String> {
        let trimmed = line.trim_start();
        let key = trimmed.strip_prefix("- ").unwrap_or(trimmed).trim_start();
        (line.len() - key.len() == column).then(|| key.to_owned())
    };
    // The step's lines: back to its `- `, forward while indented at least as its keys.
    let mut siblings: Vec<String> = Vec::new();
    for line in lines[..at].iter().rev() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            continue;
        }
        let indent = line.len() - trimmed.len();
        if indent < column.saturating_sub(2) || (indent < column && !trimmed.starts_with("- ")) {
            break;
        }
        siblings.extend(key_at(line));
        if trimmed.starts_with("- ") && indent + 2 == column {
            break;
        }
    }
    for line in &lines[at + 1..] {
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            continue;
        }
        if line.len() - trimmed.len() < column {
            break;
        }
        siblings.extend(key_at(line));
    }
    siblings
}

/// The directory a shell line changes to: `Some(Some(dir))` for a final `cd dir` (alone or
/// after `&&`), `Some(None)` for any other `cd` (a variable, `cd -`, inside a subshell),
/// `None` when it changes none.
fn changed_directory(command: &str) -> Option<Option<&str>> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let at = words.iter().rposition(|w| *w == "cd")?;
    let last = at + 2 == words.len() && (at == 0 || words[at - 1] == "&&");
    Some(last.then(|| words[at + 1]))
}

/// `base` joined with a relative directory `dir`, `""` for the root; `None` when `dir` is
/// absolute, holds a variable or leaves the repository.
fn joined_directory(base: &str, dir: &str) -> Option<String> {
    if dir.starts_with('/') || dir.starts_with('~') || dir.contains('$') || dir == "-" {
        return None;
    }
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in dir.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// The lines of a literal block with `\`-continued lines joined.
fn joined_continuations(block: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in block {
        let line = line.trim();
        match line.strip_suffix('\\') {
            Some(head) => {
                current.push_str(head.trim_end());
                current.push(' ');
            }
            None => {
                current.push_str(line);
                out.push(std::mem::take(&mut current));
            }
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// A YAML scalar without the quotes around it.
fn unquoted(value: &str) -> &str {
    for q in ['"', '\''] {
        if let Some(inner) = value.strip_prefix(q).and_then(|v| v.strip_suffix(q)) {
            return inner;
        }
    }
    value
}

/// The command a shell line runs when a contributor can run it as it is (see the module
/// documentation): environment assignments before it left out, whitespace collapsed.
fn runnable(line: &str) -> Option<String> {
    let line = line.split(" #").next().unwrap_or(line).trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let words: Vec<&str> = line
        .split_whitespace()
        .skip_while(|w| is_assignment(w))
        .collect();
    // A tool CI runs through uv's or pipx's runner without installing it (urllib3's `uvx nox
    // -s lint`) is the tool a contributor runs.
    let words = match words.as_slice() {
        ["uvx" | "pipx", tool, ..] if is_project_tool(tool) => words[1..].to_vec(),
        ["pipx", "run", tool, ..] if is_project_tool(tool) => words[2..].to_vec(),
        _ => words,
    };
    // The job count CI gives a parallel build (`make -j 4 check`, `ctest -j `nproc``) goes
    // with its flag: what is left is what a contributor types.
    let words = without_job_counts(&words);
    // A workflow expression, a command substitution, PowerShell's line continuation: no
    // line a contributor types as it is. Nor a step allowed to fail (`… || :`, `… || true`:
    // tqdm's `bash codacy final || :` uploads coverage), which checks nothing.
    if words
        .iter()
        .any(|w| w.contains("${{") || w.contains('`') || w.contains("||"))
    {
        return None;
    }
    let first = *words.first()?;
    if words.iter().any(|w| w.contains('$') || names_a_secret(w)) {
        return None;
    }
    // `cd dir && make`: the step after the directory change says what runs.
    let (tool, rest) = match (first, words.get(2).copied()) {
        ("cd", Some("&&")) => (*words.get(3)?, &words[3..]),
        _ => (first, &words[..]),
    };
    // A path above the directory it runs in is a directory this reading lost (a job's
    // default `working-directory`).
    let above = rest.iter().any(|w| w.starts_with("../"));
    if !is_project_tool(tool) || above || rest.split(|w| *w == "&&").any(sets_up) {
        return None;
    }
    let command = without_ci_flags(&words).join(" ");
    (command.len() <= MAX_COMMAND).then_some(command)
}

/// Build tools CI runs with a job count for its machine.
const PARALLEL: &[&str] = &["make", "gmake", "ninja", "ctest", "cmake"];

/// The program a command's words run: after a `cd dir &&`, the one it changes to run.
fn program_of<'w>(words: &[&'w str]) -> &'w str {
    match words {
        ["cd", _, "&&", program, ..] => program,
        [program, ..] => program,
        [] => "",
    }
}

/// The words without a parallel build tool's job count ([`PARALLEL`]), its value with it:
/// `-j4`, `-j 4`, `-j`, `--jobs=4`, `--parallel 4`, and a count the shell works out
/// (`-j$(nproc)`, `` -j `nproc` ``, `-j $(getconf _NPROCESSORS_ONLN)`). Catch2's CI runs `ctest
/// -C Debug -j `nproc``, which read as a command substitution hid its only `ctest`; curl's
/// `make -j 4 check` read as `make 4 check`.
fn without_job_counts<'w>(words: &[&'w str]) -> Vec<&'w str> {
    // Each command of a `&&` chain on its own (`./configure && make -j 4`).
    if words.contains(&"&&") {
        let mut out = Vec::with_capacity(words.len());
        for (i, part) in words.split(|w| *w == "&&").enumerate() {
            if i > 0 {
                out.push("&&");
            }
            out.extend(without_job_counts(part));
        }
        return out;
    }
    if !PARALLEL.contains(&program_of(words)) {
        return words.to_vec();
    }
    let is_count = |v: &str| {
        (!v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
            || v.starts_with("$(")
            || v.starts_with('`')
            || (v.starts_with('$') && v.len() > 1)
    };
    // How far a word leaves a substitution open: `$(` against `)`, and an odd count of `` ` ``.
    let opens = |v: &str| {
        let parens = v.matches("$(").count() as isize - v.matches(')').count() as isize;
        (parens, v.matches('`').count() % 2 == 1)
    };
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        i += 1;
        let value = match w {
            "-j" | "--jobs" | "--parallel" => match words.get(i) {
                Some(v) if is_count(v) => {
                    i += 1;
                    Some(*v)
                }
                _ => Some(""),
            },
            _ => ["-j", "--jobs=", "--parallel="]
                .iter()
                .find_map(|f| w.strip_prefix(f))
                .filter(|v| is_count(v)),
        };
        let Some(value) = value else {
            out.push(w);
            continue;
        };
        // A substitution the whitespace split: the words up to the one that closes it.
        let (mut parens, mut tick) = opens(value);
        while (parens > 0 || tick) && i < words.len() {
            let (p, t) = opens(words[i]);
            parens += p;
            tick ^= t;
            i += 1;
        }
    }
    out
}

/// The words without the options CI sets for its logs and machines, which a contributor
/// does not type: colours, progress output, parallel jobs of `make`-like tools, and each build
/// tool's own (Maven's batch mode and default `--file pom.xml`: jsoup's `mvn -X verify -B
/// --file pom.xml` is `mvn verify`; Gradle's `--no-daemon`). Only the program's own: `-e`
/// is Maven's `--errors` and tox's environment (`tox -e py313`).
fn without_ci_flags<'w>(words: &[&'w str]) -> Vec<&'w str> {
    const ANY: &[&str] = &[
        "--verbose",
        "--color=always",
        "--colour=always",
        "--show-diff-on-failure",
        "--no-interaction",
        "--no-progress",
        "--output-format=github",
        "--error-format=github",
        "--format=github",
    ];
    const MAVEN: &[&str] = &[
        "-B",
        "--batch-mode",
        "-X",
        "--debug",
        "-e",
        "--errors",
        "-V",
        "--show-version",
        "-ntp",
        "--no-transfer-progress",
        "-q",
        "--quiet",
    ];
    const GRADLE: &[&str] = &["--no-daemon", "--stacktrace", "--info", "--console=plain"];
    let program = program_of(words);
    let own: &[&str] = match program {
        "mvn" | "./mvnw" | "mvnw" => MAVEN,
        "gradle" | "./gradlew" | "gradlew" => GRADLE,
        _ => &[],
    };
    let maven = own == MAVEN;
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        i += 1;
        if ANY.contains(&w) || own.contains(&w) {
            continue;
        }
        if maven && matches!(w, "--file" | "-f") && words.get(i) == Some(&"pom.xml") {
            i += 1;
            continue;
        }
        // A nox session of one Python version (`nox -s test-3.12`) is the session
        // (`nox -s test`, every version), as the noxfile defines it.
        if program == "nox" && matches!(w, "-s" | "--session" | "--sessions" | "-e") {
            if let Some(session) = words.get(i) {
                out.extend([w, without_python_version(session)]);
                i += 1;
                continue;
            }
        }
        // Cargo's own manifest named (a matrix's `.` workspace: `--manifest-path
        // ./Cargo.toml`).
        if program == "cargo"
            && w == "--manifest-path"
            && words
                .get(i)
                .is_some_and(|m| matches!(*m, "Cargo.toml" | "./Cargo.toml"))
        {
            i += 1;
            continue;
        }
        // Settings kept for CI beside its workflows (junit4's `--settings
        // .github/workflows/settings.xml`): its repositories, not the project's build.
        if maven
            && matches!(w, "--settings" | "-s")
            && words.get(i).is_some_and(|f| f.starts_with(".github/"))
        {
            i += 1;
            continue;
        }
        out.push(w);
    }
    out
}

/// A nox session's name without the Python version it was parametrised with (`test-3.12`
/// is `test`; `test-pypy3.10` is `test`); any other name as it is.
fn without_python_version(session: &str) -> &str {
    match session.rsplit_once('-') {
        Some((name, version))
            if !name.is_empty()
                && version
                    .trim_start_matches("pypy")
                    .split('.')
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())) =>
        {
            name
        }
        _ => session,
    }
}

/// Whether `command` runs what `step` runs, and more: every word of `step` that is no option
/// is a word of `command` (a build tool's wrapper as the tool). flask's CI runs `uv run
/// --locked --group dev tox run`, which is its `tox`; gson's `mvn clean test --projects
/// gson` is its `mvn test`; jsoup's `mvn verify` is neither `mvn test` nor `mvn package`.
pub fn runs_within(step: &str, command: &str) -> bool {
    let words = |text: &str| -> Vec<String> {
        text.split_whitespace()
            .filter(|w| !w.starts_with('-'))
            .map(|w| match w {
                "./mvnw" | "mvnw" => "mvn".to_owned(),
                "./gradlew" | "gradlew" => "gradle".to_owned(),
                w => w.to_owned(),
            })
            .collect()
    };
    let step = words(step);
    let command = words(command);
    match (step.as_slice(), command.first()) {
        // Elsewhere: tmux's `cd regress && make` is not its root's `make`.
        (_, Some(cd)) if cd == "cd" => false,
        ([], _) => false,
        // A program run without arguments is its default: `make test` is not `make`, but a
        // wrapper's `uv run tox` is `tox`.
        ([program], Some(first)) if program == first => command.len() == 1,
        _ => step.iter().all(|w| command.contains(w)),
    }
}

/// Whether `command` is `listed` with options added, and nothing else (testify's CI `go test
/// -v -race ./...` of `go test ./...`): the same words in the same order once its options
/// (words that start with `-`) are left out; one `&&` step only.
pub fn only_options_added(listed: &str, command: &str) -> bool {
    if listed.contains("&&") || command.contains("&&") || listed == command {
        return false;
    }
    let plain = |text: &str| -> Vec<String> {
        text.split_whitespace()
            .filter(|w| !w.starts_with('-'))
            .map(|w| match w {
                "./mvnw" | "mvnw" => "mvn".to_owned(),
                "./gradlew" | "gradlew" => "gradle".to_owned(),
                w => w.to_owned(),
            })
            .collect()
    };
    let (a, b) = (listed.split_whitespace(), command.split_whitespace());
    plain(listed) == plain(command) && b.count() > a.count()
}

/// What a command runs, for telling two commands the same: its program (a build tool's
/// wrapper as the tool: `./mvnw` is `mvn`) and its first word that is no option (a
/// subcommand, a target, a script), after a `cd dir &&`. Also for a step of a manifest's
/// command (`cmake -B build && cmake --build build`: each `&&` step).
pub fn command_key(command: &str) -> (String, String) {
    let words: Vec<&str> = command.split_whitespace().collect();
    let (dir, words) = match words.as_slice() {
        ["cd", dir, "&&", rest @ ..] => (Some(*dir), rest),
        all => (None, all),
    };
    // A runner that runs another program in the project's environment keys as that program:
    // `bundle exec rake test` and `bundle exec rake lint:herb` are two (sidekiq's CI test
    // command was dropped as a repeat of its lint).
    if let [runner, "exec" | "run", program, rest @ ..] = words {
        if matches!(
            *runner,
            "bundle" | "poetry" | "uv" | "pipenv" | "pdm" | "hatch" | "rye"
        ) {
            let inner = command_key(&[&[*program], rest].concat().join(" "));
            let tool = match dir {
                Some(dir) => format!("cd {dir} && {}", inner.0),
                None => inner.0,
            };
            return (tool, inner.1);
        }
    }
    let tool = match words.first().copied().unwrap_or("") {
        "./mvnw" | "mvnw" => "mvn",
        "./gradlew" | "gradlew" => "gradle",
        t => t,
    };
    let tool = match dir {
        Some(dir) => format!("cd {dir} && {tool}"),
        None => tool.to_owned(),
    };
    let rest = words.iter().skip(1);
    // `npm run build`, `pnpm run lint`, `bundle exec rake`: the word after them.
    let mut rest = rest.skip_while(|w| matches!(**w, "run" | "exec" | "-m"));
    let sub = rest.find(|w| !w.starts_with('-')).copied().unwrap_or("");
    (tool, sub.to_owned())
}

/// `NAME=value`, a variable set for the command.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    })
}

/// Whether a word names a secret, whose value a command line may hold.
fn names_a_secret(word: &str) -> bool {
    let w = word.to_ascii_lowercase();
    [
        "token",
        "secret",
        "password",
        "passwd",
        "apikey",
        "api_key",
        "api-key",
        "credential",
    ]
    .iter()
    .any(|s| w.contains(s))
}

/// Whether a program is a build, test or check tool a contributor runs, or the project's
/// own script (`./ci/run-style-check.sh`, `bash scripts/test.sh`).
fn is_project_tool(tool: &str) -> bool {
    const TOOLS: &[&str] = &[
        // Not `cross`: Cargo for another machine's target (regex's `cross test --target
        // i686-unknown-linux-gnu`), which CI runs and a contributor runs as `cargo`.
        "cargo",
        "mvn",
        "./mvnw",
        "mvnw",
        "gradle",
        "./gradlew",
        "gradlew",
        "npm",
        "pnpm",
        "yarn",
        "bun",
        "deno",
        "npx",
        "make",
        "gmake",
        "cmake",
        "ctest",
        "meson",
        "ninja",
        "go",
        "golangci-lint",
        "gofmt",
        "python",
        "python3",
        "pytest",
        "tox",
        "nox",
        "uv",
        "poetry",
        "hatch",
        "pdm",
        "ruff",
        "mypy",
        "flake8",
        "black",
        "isort",
        "pyright",
        "dotnet",
        "composer",
        "php",
        "bundle",
        "rake",
        "rspec",
        "ruby",
        "rubocop",
        "swift",
        "zig",
        "bazel",
        "bazelisk",
        "just",
        "task",
        "scons",
        "sh",
        "bash",
        "pre-commit",
        "prettier",
        "eslint",
        "tsc",
        "vitest",
        "jest",
    ];
    if TOOLS.contains(&tool) {
        return true;
    }
    // A script of the project's, by its path: `./ci/test.sh`, `ci/run.sh`, `vendor/bin/x`.
    (tool.starts_with("./") || tool.contains('/'))
        && !tool.starts_with('/')
        && !tool.contains("..")
        && tool
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-'))
}

/// Whether a command sets a machine up or ships a release rather than checks the code: a
/// subcommand that installs or downloads (`npm ci`, `dotnet restore`, `uv sync`, `npm
/// config`), or any word of installing, releasing, publishing or deploying
/// (`ci/install-dependencies.sh`, `rake release:gem`); or one that only prints what is
/// installed (`go version`, `cargo -V`, `node --version`, `go env`): the logs' record, no check.
fn sets_up(words: &[&str]) -> bool {
    let informs = words.len() >= 2
        && words[1..].iter().all(|w| {
            matches!(
                *w,
                "version" | "--version" | "-V" | "-v" | "-vV" | "env" | "info" | "--help" | "-h"
            )
        });
    if informs {
        return true;
    }
    // The subcommand: the word after the program and a toolchain (`cargo +nightly`) or a
    // group (`dotnet tool restore`, `go mod download`).
    let subcommands: Vec<String> = words
        .iter()
        .skip(1)
        .filter(|w| !w.starts_with('+'))
        .take(2)
        .map(|w| w.to_ascii_lowercase())
        .collect();
    let installs = |s: &str| {
        matches!(
            s,
            "ci" | "i"
                | "restore"
                | "download"
                | "sync"
                | "config"
                | "login"
                | "add"
                | "get"
                | "require"
                | "update"
                | "upgrade"
                | "outdated"
                | "generate-lockfile"
        )
    };
    // A package manager alone, or with options only, installs (`yarn`, `yarn
    // --frozen-lockfile`, `bundle`).
    let bare = matches!(
        words.first(),
        Some(&("yarn" | "bundle" | "composer" | "pnpm"))
    ) && words.get(1).is_none_or(|w| w.starts_with('-'));
    if bare || subcommands.iter().any(|s| installs(s)) {
        return true;
    }
    // Not an option or a build configuration's name (`cargo build --release`, `dotnet pack -c
    // Release`: what is built, not shipped).
    let configuration = |i: usize| {
        words[i].eq_ignore_ascii_case("release") && i > 0 && words[i - 1].starts_with('-')
    };
    (0..words.len()).any(|i| {
        if words[i].starts_with('-') || configuration(i) {
            return false;
        }
        let w = words[i].to_ascii_lowercase();
        [
            "install",
            "release",
            "publish",
            "deploy",
            "upload",
            "setup",
            "dependencies",
            "update",
            // An environment made for the job (`python3 -m venv ~/venv`, curl's CI).
            "venv",
            "virtualenv",
        ]
        .iter()
        .any(|s| w.contains(s))
    })
}

/// What a command is for, by its words: formatting first (`cargo fmt --check` checks
/// formatting), then linting, testing, building and documentation; `other` for the rest.
fn purpose(command: &str) -> &'static str {
    // A session runner's sessions say what it runs (`nox -s docs`, `tox -e typing`); sessions
    // that say nothing run the tests (`tox -e py313`).
    if let Some(sessions) = ["nox ", "tox "]
        .iter()
        .find_map(|r| command.strip_prefix(r))
    {
        return match purpose(sessions) {
            "other" | "build" => "test",
            p => p,
        };
    }
    // The directory a command runs in says nothing of what it does (`cd build && make`),
    // unless it holds the tests (tmux's `cd regress && make`).
    let (dir, command) = match command.split_once(" && ") {
        Some((cd, rest)) if cd.starts_with("cd ") => (&cd[3..], rest),
        _ => ("", command),
    };
    let tests_dir = dir.split('/').any(|d| {
        matches!(
            d,
            "test" | "tests" | "regress" | "regression" | "spec" | "t"
        )
    });
    let words: Vec<String> = command
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    if has(&[
        "fmt",
        "format",
        "prettier",
        "black",
        "isort",
        "rustfmt",
        "gofmt",
        "whitespace",
    ]) {
        "format"
    } else if has(&[
        "lint",
        "clippy",
        "vet",
        "style",
        "checkstyle",
        "spotbugs",
        "pmd",
        "eslint",
        "ruff",
        "mypy",
        "flake8",
        "typecheck",
        "typing",
        "phpstan",
        "psalm",
        "rubocop",
        "pyright",
        "golangci",
        "tsc",
    ]) {
        "lint"
    } else if has(&[
        "test",
        "tests",
        "check",
        "verify",
        "spec",
        "rspec",
        "pytest",
        "ctest",
        "tox",
        "nox",
        "regress",
        "richtest",
        "jest",
        "vitest",
        "nextest",
        "phpunit",
        "pest",
        "mocha",
        "ava",
        "karma",
        "cypress",
        "playwright",
        "minitest",
        "prove",
    ]) || words.iter().any(|w| w.starts_with("test"))
        || tests_dir
    {
        "test"
    } else if has(&["build", "compile", "package", "assemble"]) {
        "build"
    } else if has(&["doc", "docs", "rdoc", "javadoc", "rustdoc", "html", "site"]) {
        "docs"
    } else if words.first().is_some_and(|w| {
        ["make", "gmake", "ninja", "cmake", "meson", "scons", "bazel"].contains(&w.as_str())
    }) && command
        .split_whitespace()
        .skip(1)
        .all(|w| w.starts_with('-') || w.contains(['/', '.', '=']))
    {
        // A build tool run without a target builds (`make`, `cmake .. -DX=ON`).
        "build"
    } else {
        "other"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflows_are_read_unless_named_for_releases_or_housekeeping() {
        assert!(is_workflow(b".github/workflows/ci.yml"));
        assert!(is_workflow(b".github/actions/maven-test/action.yml"));
        assert!(!is_workflow(b".github/actions/release/action.yml"));
        assert!(!is_workflow(b".github/actions/x/script.yml"));
        assert!(!is_workflow(b".github/actions/x/y/action.yml"));
        assert!(is_workflow(b".github/workflows/Tests.yaml"));
        assert!(!is_workflow(b".github/workflows/release.yml"));
        assert!(!is_workflow(b".github/workflows/codeql-analysis.yml"));
        assert!(!is_workflow(b".github/workflows/sub/ci.yml"));
        assert!(!is_workflow(b".github/ci.yml"));
        assert!(!is_workflow(b"ci.yml"));
    }

    /// A script run by the checkout's path in the runner's variable is the project's own:
    /// hiredis's `run: $GITHUB_WORKSPACE/test.sh` is its whole test run.
    #[test]
    fn a_script_under_the_workspace_variable_is_the_checkouts() {
        let workflow = "jobs:\n  t:\n    steps:\n      - run: make\n      - run: $GITHUB_WORKSPACE/test.sh\n      - run: ${{ github.workspace }}/ci/lint.sh --all\n";
        let listed: Vec<String> = commands(workflow).into_iter().map(|(c, _)| c).collect();
        assert!(listed.contains(&"./test.sh".to_owned()), "{listed:?}");
        assert!(
            listed.contains(&"./ci/lint.sh --all".to_owned()),
            "{listed:?}"
        );
    }

    /// A matrix's expressions read as its first values (axum's checks run for the workspace
    /// `.` first): its clippy, fmt and test commands were all dropped. A key with no list
    /// leaves its lines out.
    #[test]
    fn a_matrix_expression_reads_as_the_matrix_first_value() {
        let workflow = "jobs:\n  check:\n    strategy:\n      matrix:\n        workspace: [\".\", examples]\n        rust:\n          - stable\n          - beta\n        include:\n          - os: windows\n    steps:\n      - run: cargo clippy --manifest-path ${{ matrix.workspace }}/Cargo.toml -- -D warnings\n      - run: cargo +${{matrix.rust}} test --workspace\n      - run: cargo build --target ${{ matrix.os }}\n";
        assert_eq!(
            commands(workflow),
            [
                ("cargo clippy -- -D warnings".to_owned(), "lint"),
                ("cargo +stable test --workspace".to_owned(), "test"),
            ]
        );
    }

    /// A runner's program keys the command: `bundle exec rake test` after `bundle exec rake
    /// lint:herb` is another (sidekiq's CI test command was dropped as a repeat).
    #[test]
    fn commands_run_through_a_runner_are_told_by_their_program() {
        let workflow = "jobs:\n  test:\n    steps:\n      - run: bundle exec rake lint:herb\n      - run: bundle exec rake test\n      - run: uv run pytest tests\n      - run: uv run ruff check\n      - run: bundle exec rake test TEST=a\n";
        assert_eq!(
            commands(workflow),
            [
                ("bundle exec rake lint:herb".to_owned(), "lint"),
                ("bundle exec rake test".to_owned(), "test"),
                ("uv run pytest tests".to_owned(), "test"),
                ("uv run ruff check".to_owned(), "lint"),
            ]
        );
    }

    /// Maven settings kept for CI beside its workflows are no part of the command: junit4's
    /// `./mvnw verify … --settings .github/workflows/settings.xml` was over the length limit
    /// and dropped.
    #[test]
    fn maven_settings_for_ci_are_left_out() {
        let workflow = "jobs:\n  b:\n    steps:\n      - run: ./mvnw verify javadoc:javadoc site:site --batch-mode --errors --settings .github/workflows/settings.xml\n      - run: mvn -s ci/settings.xml deploy\n";
        assert_eq!(
            commands(workflow),
            [("./mvnw verify javadoc:javadoc site:site".to_owned(), "test")]
        );
    }

    /// A line that only prints what is installed is the logs' record, no check: logrus's and
    /// fd's overviews listed `go version [ci]` and `cargo -V [ci]`. Nor is one allowed to
    /// fail (tqdm's `bash codacy final || :`).
    #[test]
    fn a_version_print_is_no_command() {
        let workflow = "jobs:\n  test:\n    steps:\n      - run: go version\n      - run: cargo -V\n      - run: node --version\n      - run: go env\n      - run: bash codacy final || :\n      - run: make lint || true\n      - run: go test -race ./...\n";
        assert_eq!(
            commands(workflow),
            [("go test -race ./...".to_owned(), "test")]
        );
    }

    #[test]
    fn the_commands_a_contributor_can_run_come_out_with_their_purpose() {
        let workflow = r#"name: ci
on: [push]
jobs:
  test:
    runs-on: ${{ matrix.os }}
    steps:
      - uses: actions/checkout@v4
      - run: npm ci
      - run: sudo apt-get install -y libevent-dev
      - name: Build
        run: ./mvnw -B verify
      - run: "cargo fmt --all --check"
      - run: |
          cargo test --workspace
          # a comment
          cargo clippy --all-targets \
            -- -D warnings
          echo done
          cd regress && make
      - run: cargo build --target ${{ matrix.target }}
      - run: RUSTFLAGS=-Dwarnings cargo check --no-default-features
      - run: cargo test $FLAGS
      - run: npm publish --token abc
      - run: >-
          bash ci/test.sh
          --all
      - run: ci/install-dependencies.sh
      - run: bundle exec rake release:gem
      - run: cargo test --verbose --package rayon-core
      - run: mvn -X compile -B --file pom.xml
"#;
        assert_eq!(
            commands(workflow),
            [
                ("./mvnw verify".to_owned(), "test"),
                ("cargo fmt --all --check".to_owned(), "format"),
                ("cargo test --workspace".to_owned(), "test"),
                (
                    "cargo clippy --all-targets -- -D warnings".to_owned(),
                    "lint"
                ),
                ("cd regress && make".to_owned(), "test"),
                ("cargo check --no-default-features".to_owned(), "test"),
                ("bash ci/test.sh --all".to_owned(), "test"),
                ("mvn compile".to_owned(), "build"),
            ]
        );
        // A build in the release configuration is no release (commandline's CI `dotnet pack
        // -c Release` was dropped).
        let release = "jobs:\n  a:\n    steps:\n      - run: cargo build --release\n      - run: dotnet pack src/Lib -c Release\n      - run: cargo release\n";
        let commands: Vec<String> = commands(release).into_iter().map(|(c, _)| c).collect();
        assert_eq!(
            commands,
            ["cargo build --release", "dotnet pack src/Lib -c Release"]
        );
        // Test runners by name: tracing's `cargo nextest run` was an `other` command, listed
        // after every other.
        for runner in [
            "cargo nextest run --profile ci --workspace",
            "vendor/bin/phpunit --colors",
            "npx mocha",
            "npx playwright test",
        ] {
            assert_eq!(purpose(runner), "test", "{runner}");
        }
    }

    #[test]
    fn a_line_that_runs_in_another_directory_says_so() {
        let workflow = r#"jobs:
  test:
    steps:
      - name: build
        run: |
          mkdir -p build && cd build
          cmake .. -DTESTS=ON
          make -j2
          ctest -j2 --output-on-failure
      - run: make test
        working-directory: ./regress
      - working-directory: web
        name: lint
        run: npm run lint
      - run: |
          cd "$DIR"
          make check
      - run: |
          cd docs
          cd ..
          make html
"#;
        assert_eq!(
            commands(workflow),
            [
                ("cd build && cmake .. -DTESTS=ON".to_owned(), "build"),
                ("cd build && make".to_owned(), "build"),
                ("cd build && ctest --output-on-failure".to_owned(), "test"),
                ("cd regress && make test".to_owned(), "test"),
                ("cd web && npm run lint".to_owned(), "lint"),
                ("make html".to_owned(), "docs"),
            ]
        );
    }

    #[test]
    fn a_command_that_runs_a_manifests_command_and_more_is_told() {
        assert!(runs_within("tox", "uv run --locked --group dev tox run"));
        assert!(runs_within("mvn test", "mvn clean test --projects gson"));
        assert!(runs_within("mvn test", "./mvnw -B test"));
        assert!(!runs_within("mvn test", "mvn verify"));
        assert!(!runs_within(
            "cargo build --workspace",
            "cargo fmt --all --check"
        ));
        assert!(!runs_within("", "make"));
        assert!(!runs_within("make", "make test"));
        assert!(runs_within("make", "make"));
        assert!(!runs_within("make", "cd regress && make"));
    }

    #[test]
    fn a_default_directory_holds_for_the_steps_and_setup_lines_are_left_out() {
        let plain = "defaults:\n  run:\n    working-directory: docs\njobs:\n  a:\n    steps:\n      - run: make html\n      - run: make linkcheck\n        working-directory: .\n";
        assert_eq!(
            commands(plain),
            [
                ("cd docs && make html".to_owned(), "docs"),
                ("make linkcheck".to_owned(), "other"),
            ]
        );
        let lost = "jobs:\n  a:\n    defaults:\n      run:\n        working-directory: ${{ runner.workspace }}/build\n    steps:\n      - run: ctest -C Debug\n";
        assert!(commands(lost).is_empty());
        let setup = "jobs:\n  a:\n    steps:\n      - run: cd website && yarn && yarn build\n      - run: yarn --frozen-lockfile\n      - run: dotnet tool restore\n      - run: composer bin phpstan update --no-progress\n      - run: cargo +nightly generate-lockfile -Z minimal-versions\n      - run: go get -d ./...\n      - run: ctest `nproc` --test-dir ../build\n      - run: cmake ../build -DX=ON\n      - run: vendor/bin/psalm --no-progress --output-format=github\n";
        assert_eq!(commands(setup), [("vendor/bin/psalm".to_owned(), "lint")]);
    }

    #[test]
    fn a_programs_own_options_are_left_out_and_no_other() {
        let workflow = "jobs:\n  a:\n    steps:\n      - run: tox -e py313\n      - run: uv run --locked tox run -e typing\n      - run: mvn -e -B verify\n      - run: node -v\n      - run: make -j4 check\n      - run: cargo test -j2\n      - run: cross test --target i686-unknown-linux-gnu\n";
        assert_eq!(
            commands(workflow),
            [
                ("tox -e py313".to_owned(), "test"),
                ("uv run --locked tox run -e typing".to_owned(), "lint"),
                ("mvn verify".to_owned(), "test"),
                ("make check".to_owned(), "test"),
                ("cargo test -j2".to_owned(), "test"),
            ]
        );
    }

    #[test]
    fn a_job_count_goes_with_its_flag_whatever_its_spelling() {
        let workflow = "jobs:\n  a:\n    steps:\n      - run: make -j 4 check\n      - run: ctest --test-dir build -j `nproc` --output-on-failure\n      - run: make -j$(nproc) lint\n      - run: cmake --build build --parallel $(getconf _NPROCESSORS_ONLN) --target all\n      - run: ninja -j -C out\n      - run: make -C docs -j4\n      - run: ./run.sh -j 4\n      - run: ./configure && make -j 4 all\n";
        assert_eq!(
            commands(workflow),
            [
                ("make check".to_owned(), "test"),
                (
                    "ctest --test-dir build --output-on-failure".to_owned(),
                    "test"
                ),
                ("make lint".to_owned(), "lint"),
                ("cmake --build build --target all".to_owned(), "build"),
                ("ninja -C out".to_owned(), "other"),
                ("make -C docs".to_owned(), "docs"),
                ("./run.sh -j 4".to_owned(), "other"),
                ("./configure && make all".to_owned(), "other"),
            ]
        );
    }

    /// CircleCI's configuration is a workflow: a `run:` step's command, inline or as its
    /// map's `command:` (a block too), in the step's `working_directory:`; not one with a
    /// pipeline parameter, nor a `command:` key of a GitHub workflow (an action's input).
    #[test]
    fn circlecis_steps_are_read_as_a_workflows() {
        assert!(is_workflow(b".circleci/config.yml"));
        assert!(!is_workflow(b"docs/.circleci/config.yml"));
        let config = "version: 2.1\njobs:\n  test:\n    docker:\n      - image: cimg/go:1.22\n    steps:\n      - checkout\n      - run: go build ./...\n      - run:\n          name: \"Run go vet\"\n          command: go vet -v ./...\n      - run:\n          name: Tests\n          working_directory: server\n          command: |\n            go test -v -race ./...\n      - run:\n          command: go test -run << parameters.pattern >>\n";
        let got: Vec<String> = commands_of(b".circleci/config.yml", config)
            .into_iter()
            .map(|(c, _)| c)
            .collect();
        assert_eq!(
            got,
            [
                "go build ./...",
                "go vet -v ./...",
                "cd server && go test -v -race ./..."
            ]
        );
        let action = "jobs:\n  a:\n    steps:\n      - uses: some/action@v1\n        with:\n          command: make release\n      - run: make test\n";
        let got: Vec<String> = commands_of(b".github/workflows/ci.yml", action)
            .into_iter()
            .map(|(c, _)| c)
            .collect();
        assert_eq!(got, ["make test"]);
    }

    /// A step only Windows or macOS runs comes after those every platform runs: its
    /// `dotnet test -f net462` does not hide the `dotnet test -f net8.0` after it. A condition
    /// that leaves such a platform out, or names Linux too, is no such step.
    #[test]
    fn a_step_for_another_platform_comes_after_the_others() {
        let workflow = "jobs:\n  test:\n    runs-on: ${{ matrix.os }}\n    steps:\n      - uses: actions/checkout@v4\n      - name: Build\n        run: dotnet build\n      - name: .NET Framework Tests\n        if: matrix.os == 'windows-latest'\n        run: dotnet test -f net462 --no-build\n      - name: .NET 8 Tests\n        run: dotnet test -f net8.0 --no-build\n      - if: runner.os != 'Windows'\n        run: ./check.sh\n";
        let got: Vec<String> = commands(workflow).into_iter().map(|(c, _)| c).collect();
        assert_eq!(
            got,
            [
                "dotnet build",
                "dotnet test -f net8.0 --no-build",
                "./check.sh"
            ]
        );
        assert!(for_another_platform(" matrix.os == 'macos-latest'"));
        assert!(!for_another_platform(" runner.os != 'Windows'"));
        assert!(!for_another_platform(
            " matrix.os == 'ubuntu-latest' || matrix.os == 'windows-latest'"
        ));
        assert!(!for_another_platform(" github.event_name == 'push'"));
    }

    /// A workflow of more commands than are kept keeps the first of each purpose: the last
    /// job's formatting check is not lost to eight builds and tests.
    #[test]
    fn a_long_workflow_keeps_the_first_command_of_each_purpose() {
        let mut workflow = "jobs:\n  a:\n    steps:\n".to_owned();
        for i in 0..10 {
            workflow.push_str(&format!("      - run: ./ci/test-{i}.sh\n"));
        }
        workflow.push_str("      - run: |\n          cargo fmt --all -- --check\n");
        let commands = commands(&workflow);
        assert_eq!(commands.len(), MAX_PER_WORKFLOW);
        assert_eq!(commands[0].0, "./ci/test-0.sh");
        assert_eq!(
            commands.last(),
            Some(&("cargo fmt --all -- --check".to_owned(), "format"))
        );
    }

    /// A tool CI runs through `uvx` or `pipx run` is the tool; a nox session of one Python
    /// version is the session.
    #[test]
    fn a_tool_run_without_installing_is_the_tool() {
        let workflow = "jobs:\n  a:\n    steps:\n      - run: uvx nox -s test-3.12\n      - run: pipx run nox --session lint\n      - run: nox -e docs-pypy3.10\n      - run: uvx twine check dist/*\n";
        assert_eq!(
            commands(workflow),
            [
                ("nox -s test".to_owned(), "test"),
                ("nox --session lint".to_owned(), "lint"),
                ("nox -e docs".to_owned(), "docs"),
            ]
        );
    }

    #[test]
    fn a_command_with_options_added_is_told() {
        assert!(only_options_added(
            "go test ./...",
            "go test -v -race ./..."
        ));
        assert!(only_options_added("mvn verify", "./mvnw -Pci verify"));
        assert!(!only_options_added("tox", "tox -e py313"));
        assert!(!only_options_added("go test ./...", "go test ./..."));
        assert!(!only_options_added(
            "make && make test",
            "make -k && make test"
        ));
    }

    #[test]
    fn a_commands_key_is_its_program_and_what_it_runs() {
        let key = |c: &str| {
            let (tool, sub) = command_key(c);
            format!("{tool} {sub}")
        };
        assert_eq!(key("./mvnw -B verify"), "mvn verify");
        assert_eq!(key("cargo test --workspace"), "cargo test");
        assert_eq!(key("pnpm run test:lint"), "pnpm test:lint");
        assert_eq!(key("cd regress && make"), "cd regress && make ");
        assert_eq!(key("python -m pytest -x"), "python pytest");
    }
}
