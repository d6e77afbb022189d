#!/usr/bin/env bash
# RepoCue benchmark harness. See bench/README.md for what each line means.
#
#   bench/run.sh [--smoke] [--runs N] [--baseline-runs N] [--repo PATH ...]
#                [--synthetic N_FILES] [--out FILE] [--bin PATH] [--release] [--keep]
#                [--refreshes N] [--agents N] [--agent-seconds S] [--lock-timeout S]
#
#   --smoke          CI mode: 1 run, a ~300-file synthetic repository, short loops, no timing
#                    judgement beyond the printed table; exits 0 unless something crashed. Uses
#                    the dev build (already built by `cargo test`) unless --release or --bin.
#   --runs N         timed runs per operation (default 7; 1 with --smoke)
#   --baseline-runs N  timed runs of the two `repocue init` baselines (default: --runs);
#                    for repositories where one baseline takes minutes
#   --repo PATH      a work tree to measure (repeatable); it is left as it was found
#   --synthetic N    also generate and measure a synthetic repository of N files (bench/synth.sh)
#   --out FILE       Markdown report (default bench/results/<UTC date>.md; with --smoke a file
#                    in $TMPDIR); the raw samples go to the same name with .json
#   --bin PATH       measure this repocue binary instead of building one
#   --release        with --smoke: build and measure the release binary
#   --keep           keep the scratch directory (caches, raw hyperfine files, logs)
#   --refreshes N    one-file-edit refreshes of the database-growth loop (default 1000; 10 smoke)
#   --agents N       concurrent agent processes (default 8; 3 with --smoke)
#   --agent-seconds S  how long they run (default 40; 3 with --smoke)
#   --lock-timeout S   a read under another process's write lock fails after S seconds
#                    (default 10; 3 with --smoke)
#
# Environment: BENCH_NO_HYPERFINE=1, BENCH_NO_GNU_TIME=1, BENCH_NO_CTAGS=1 exercise the
# fallbacks; BENCH_SHAPE=js|c|none and BENCH_DB_TARGET=PCT override the database target.
#
# Needs bash, git, python3 (bench/bench.py), coreutils, xargs. Optional: hyperfine (else a
# timing loop of our own), universal-ctags (else no ctags rows), GNU time (else peak RSS by
# polling /proc/PID/status). Each is looked up on PATH; the log says which fallback is used.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)

usage() {
    sed -n '3,32p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

smoke=0 runs="" baseline_runs="" synthetic="" out="" bin="" release=0 keep=0
refreshes="" agents="" agent_seconds="" lock_timeout=""
repos=()
while (($#)); do
    case $1 in
        --smoke) smoke=1 ;;
        --runs) runs=${2:?--runs needs a value}; shift ;;
        --baseline-runs) baseline_runs=${2:?--baseline-runs needs a value}; shift ;;
        --repo) repos+=("${2:?--repo needs a path}"); shift ;;
        --synthetic) synthetic=${2:?--synthetic needs a file count}; shift ;;
        --out) out=${2:?--out needs a file}; shift ;;
        --bin) bin=${2:?--bin needs a path}; shift ;;
        --release) release=1 ;;
        --keep) keep=1 ;;
        --refreshes) refreshes=${2:?--refreshes needs a count}; shift ;;
        --agents) agents=${2:?--agents needs a count}; shift ;;
        --agent-seconds) agent_seconds=${2:?--agent-seconds needs a value}; shift ;;
        --lock-timeout) lock_timeout=${2:?--lock-timeout needs a value}; shift ;;
        -h | --help) usage ;;
        *) echo "run.sh: unknown argument '$1'" >&2; usage ;;
    esac
    shift
done
if ((smoke)); then
    runs=${runs:-1}
    if [[ -z $synthetic && ${#repos[@]} -eq 0 ]]; then synthetic=300; fi
    refreshes=${refreshes:-10} agents=${agents:-3} agent_seconds=${agent_seconds:-3}
    lock_timeout=${lock_timeout:-3}
fi
runs=${runs:-7}
refreshes=${refreshes:-1000} agents=${agents:-8} agent_seconds=${agent_seconds:-40}
lock_timeout=${lock_timeout:-10}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --runs must be a positive integer" >&2; exit 2; }
[[ $refreshes =~ ^[0-9]+$ ]] || { echo "run.sh: --refreshes must be an integer" >&2; exit 2; }
[[ $agents =~ ^[0-9]+$ ]] || { echo "run.sh: --agents must be an integer" >&2; exit 2; }
[[ $agent_seconds =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "run.sh: --agent-seconds must be a number" >&2; exit 2; }
[[ $lock_timeout =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "run.sh: --lock-timeout must be a number" >&2; exit 2; }
[[ -z $baseline_runs || $baseline_runs =~ ^[1-9][0-9]*$ ]] ||
    { echo "run.sh: --baseline-runs must be a positive integer" >&2; exit 2; }
if [[ -z $synthetic && ${#repos[@]} -eq 0 ]]; then
    echo "run.sh: nothing to measure: give --repo PATH and/or --synthetic N" >&2
    exit 2
fi

log() { printf '[bench %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }
# Under `set -e` a failing command ends the script silently: name it first.
set -E
trap 'log "error: exit $? from line $LINENO: $BASH_COMMAND"' ERR

for tool in git python3 sha256sum xargs; do
    command -v "$tool" >/dev/null || die "$tool is required"
done
NPROC=$(nproc)

# --- Optional tools ------------------------------------------------------------------------
# Each one is looked up on PATH only (a test hides them by PATH), and every lookup either
# succeeds or says which fallback is used: under `set -e` nothing here may fail.
have_hyperfine=0 timer="own loop (EPOCHREALTIME / date +%s%N)"
if [[ -n ${BENCH_NO_HYPERFINE:-} ]]; then
    log "hyperfine: disabled by BENCH_NO_HYPERFINE; timing with our own loop"
elif hyperfine_version=$(hyperfine --version 2>/dev/null); then
    have_hyperfine=1 timer="hyperfine ${hyperfine_version#hyperfine }"
else
    log "hyperfine: not found on PATH; timing with our own loop"
fi
have_ctags=0 ctags_version="not found: ctags rows skipped"
if [[ -n ${BENCH_NO_CTAGS:-} ]]; then
    ctags_version="disabled by BENCH_NO_CTAGS: ctags rows skipped"
    log "ctags: disabled by BENCH_NO_CTAGS; no ctags reference rows"
elif ctags_out=$(ctags --version 2>/dev/null) && grep -q 'Universal Ctags' <<<"$ctags_out"; then
    have_ctags=1 ctags_version=$(head -1 <<<"$ctags_out")
else
    log "ctags: no universal-ctags on PATH; no ctags reference rows"
fi
# GNU time's -f %M is the peak RSS in KiB; busybox's or the shell keyword's `time` cannot.
rss_method=poll gnu_time=""
if [[ -n ${BENCH_NO_GNU_TIME:-} ]]; then
    log "GNU time: disabled by BENCH_NO_GNU_TIME; peak RSS by polling /proc/PID/status"
elif gnu_time=$(type -P time) && "$gnu_time" -f %M -o /dev/null true 2>/dev/null; then
    rss_method=gnu-time
else
    gnu_time=""
    log "GNU time: not found on PATH; peak RSS by polling /proc/PID/status"
fi

# --- Scratch space; the edited file is always restored ---------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/repocue-bench.XXXXXX")
DATA=$WORK/data
mkdir -p "$DATA" "$WORK/scripts" "$WORK/logs"
edit_file="" edit_backup=""
cleanup() {
    local rc=$?
    if [[ -n $edit_file && -f $edit_backup ]]; then
        cp -p "$edit_backup" "$edit_file" && log "restored $edit_file"
    fi
    if ((keep || rc != 0)); then
        log "scratch directory kept: $WORK"
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- The binary ------------------------------------------------------------------------------
bin_given=0
[[ -n $bin ]] && bin_given=1
if [[ -z $bin ]]; then
    profile=release
    if ((smoke && !release)); then profile=dev; fi
    log "building repocue-cli ($profile profile)"
    if [[ $profile == release ]]; then
        (cd "$ROOT" && cargo build --release -p repocue-cli) >&2
        bin=$ROOT/target/release/repocue
    else
        (cd "$ROOT" && cargo build -p repocue-cli) >&2
        bin=$ROOT/target/debug/repocue
    fi
    if [[ -n ${CARGO_TARGET_DIR:-} ]]; then bin=$CARGO_TARGET_DIR/${bin#"$ROOT"/target/}; fi
fi
[[ -x $bin ]] || die "no repocue binary at $bin"
# Measure a private copy: other builds may replace target/ while we run.
cp "$bin" "$WORK/repocue"
BIN=$WORK/repocue

# --- Machine facts ---------------------------------------------------------------------------
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
changed=$({ git -C "$ROOT" status --porcelain --untracked-files=no -- crates Cargo.toml Cargo.lock 2>/dev/null || true; } | wc -l)
((changed > 0)) && commit="$commit (+ uncommitted changes in $changed files under crates/ or Cargo.*)"
((bin_given)) && commit="checkout at $commit; the binary came from --bin and may be older"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
mem=$(awk '/^MemTotal:/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)
mode="full"
((smoke)) && mode="smoke (no targets judged)"
notes=()
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
busy_note() { # a loaded machine makes every number noisy; say so in the report
    local load
    load=$(cut -d' ' -f1 /proc/loadavg)
    if awk -v l="$load" -v n="$NPROC" 'BEGIN { exit !(l > n / 2) }'; then
        notes+=("1-minute load average was $load on $NPROC CPUs $1: other work competed for the CPUs")
    fi
}
busy_note "at the start"

machine_json() {
    python3 - "$@" <<'PY'
import json, sys
keys = ["date", "mode", "runs", "nproc", "cpu", "memory", "kernel", "git", "repocue_commit",
        "repocue_binary", "ctags", "timer", "rss_method", "load_start", "load_end"]
vals = sys.argv[1:len(keys) + 1]
d = dict(zip(keys, vals))
d["nproc"] = int(d["nproc"])
d["notes"] = sys.argv[len(keys) + 1:]
json.dump(d, sys.stdout, indent=1)
PY
}

# --- Timing ----------------------------------------------------------------------------------
# measure NAME OPDIR WARMUP RUNS PREPARE -- CMD...
# Times CMD (argv, no shell) WARMUP+RUNS times; PREPARE ("" or a script path) runs untimed
# before every run. Leaves OPDIR/NAME.hf.json (hyperfine) or NAME.ns + NAME.cpu_ms (own loop).
measure() {
    local name=$1 opdir=$2 warmup=$3 runs=$4 prepare=$5
    shift 6
    local cmdline
    cmdline=$(printf '%q ' "$@")
    printf '%s\n' "$cmdline" >"$opdir/$name.cmd"
    cut -d' ' -f1-3 /proc/loadavg >"$opdir/$name.load"
    if ((have_hyperfine)); then
        local args=(-N --style basic --warmup "$warmup" --runs "$runs" --export-json "$opdir/$name.hf.json")
        [[ -n $prepare ]] && args+=(--prepare "bash $(printf '%q' "$prepare")")
        hyperfine "${args[@]}" "$cmdline" >>"$WORK/logs/hyperfine.log" 2>&1 ||
            die "$name failed under hyperfine; see $WORK/logs/hyperfine.log"
    else
        local i
        for ((i = 0; i < warmup + runs; i++)); do
            [[ -n $prepare ]] && bash "$prepare" >/dev/null
            timed_run "$opdir" "$name" $((i >= warmup)) "$@"
        done
    fi
    python3 "$BENCH_DIR/bench.py" summary "$opdir" "$name" | sed 's/^/    /' >&2
}

# Runs CMD once, timed: OPDIR NAME KEEP CMD...; with KEEP 1 appends its wall ns and its
# children's CPU ms to NAME's sample files (0: a warm-up run).
timed_run() {
    local opdir=$1 name=$2 keep=$3
    shift 3
    local t0 t1 c0 c1 CHILDREN_CPU_MS=0
    children_cpu_ms
    c0=$CHILDREN_CPU_MS
    t0=$(now_ns)
    "$@" >/dev/null 2>>"$WORK/logs/$name.stderr" || die "$name failed: $*"
    t1=$(now_ns)
    children_cpu_ms
    c1=$CHILDREN_CPU_MS
    if ((keep)); then
        echo $((t1 - t0)) >>"$opdir/$name.ns"
        echo $((c1 - c0)) >>"$opdir/$name.cpu_ms"
    fi
}

# Measures commands in rounds: each round runs every command once, in the order given, so
# drift of the machine hits all of them alike (paired comparisons of a few ms). Arguments:
# OPDIR WARMUP ROUNDS, then NAME COMMAND pairs, COMMAND a shell-quoted command line (no
# prepare step). Writes the same per-name files as the loop of `measure`.
round_robin() {
    local opdir=$1 warmup=$2 rounds=$3
    shift 3
    local -a names=() cmds=()
    while (($#)); do
        names+=("$1")
        cmds+=("$2")
        printf '%s\n' "$2" >"$opdir/$1.cmd"
        cut -d' ' -f1-3 /proc/loadavg >"$opdir/$1.load"
        : >"$opdir/$1.ns"
        : >"$opdir/$1.cpu_ms"
        shift 2
    done
    local i k
    for ((i = 0; i < warmup + rounds; i++)); do
        for k in "${!names[@]}"; do
            timed_run "$opdir" "${names[$k]}" $((i >= warmup)) eval "${cmds[$k]}"
        done
    done
    for k in "${!names[@]}"; do
        python3 "$BENCH_DIR/bench.py" summary "$opdir" "${names[$k]}" | sed 's/^/    /' >&2
    done
}

# Wall clock in ns without starting a process when bash has EPOCHREALTIME (bash >= 5);
# `date +%s%N` costs a fork+exec (~1 ms) that would land inside the measured interval.
now_ns() {
    if [[ -n ${EPOCHREALTIME:-} ]]; then
        local s=${EPOCHREALTIME%[.,]*} us=${EPOCHREALTIME#*[.,]}
        echo $((s * 1000000000 + 10#$us * 1000))
    else
        date +%s%N
    fi
}

# Sets CHILDREN_CPU_MS to the user+system CPU ms of all waited-for children so far (second
# line of the `times` builtin). Not a $(...) function: in a subshell `times` would report the
# subshell's children, none.
children_cpu_ms() {
    local f=$WORK/times.out line
    times >"$f"
    line=$(sed -n 2p "$f")
    CHILDREN_CPU_MS=$(($(to_ms "${line%% *}") + $(to_ms "${line##* }")))
}
to_ms() { # 1m2.345s -> 62345
    [[ $1 =~ ^([0-9]+)m([0-9]+)[.,]([0-9]{3}) ]] || { echo 0; return; }
    echo $((10#${BASH_REMATCH[1]} * 60000 + 10#${BASH_REMATCH[2]} * 1000 + 10#${BASH_REMATCH[3]}))
}

# Peak RSS (KiB) of one run of CMD by polling VmHWM; the fallback when GNU time is missing.
# A peak reached in the last few ms before exit can be missed.
poll_peak_rss() {
    local out=$1
    shift
    "$@" >"$out" 2>>"$WORK/logs/rss.stderr" &
    local pid=$! peak=0 key val _
    while kill -0 "$pid" 2>/dev/null; do
        while read -r key val _; do
            if [[ $key == VmHWM: ]] && ((val > peak)); then peak=$val; fi
        done <"/proc/$pid/status" 2>/dev/null || true
        sleep 0.01
    done
    wait "$pid" || die "peak RSS run failed: $*"
    echo "$peak"
}

json_field() { # json_field FILE FIELD -> top-level field of a one-line JSON object
    python3 -c 'import json,sys; v=json.load(open(sys.argv[1])).get(sys.argv[2]); print("" if v is None else v)' "$1" "$2"
}

# --- One repository ----------------------------------------------------------------------------
bench_repo() {
    local repo=$1 idx=$2
    repo=$(cd "$repo" && git rev-parse --show-toplevel) || die "$1 is not a Git work tree"
    local rdir=$DATA/repo-$idx
    local opdir=$rdir/ops
    mkdir -p "$opdir" "$rdir/outputs"
    log "repository $repo"

    local facts edit_comment edit_definition edit_call
    facts=$(python3 "$BENCH_DIR/bench.py" facts "$repo" "$rdir")
    edit_file=$(sed -n 1p <<<"$facts")
    edit_comment=$(sed -n 2p <<<"$facts")
    edit_definition=$(sed -n 3p <<<"$facts")
    edit_call=$(sed -n 4p <<<"$facts")
    local tracked
    tracked=$(json_field "$rdir/facts.json" tracked_files)
    log "  $tracked tracked files, $(json_field "$rdir/facts.json" tracked_bytes) bytes; edit file: ${edit_file:-none}"
    if (($(json_field "$rdir/facts.json" dirty_entries_before) > 0)); then
        echo "the work tree was not clean before the run" >>"$rdir/notes.txt"
    fi

    # Settle the index: entries written in the same second as their files are "racily clean",
    # and every `git status` re-reads them until an index write after that second. The
    # reference git status may write the index (optional locks); RepoCue's never does.
    local index_age
    index_age=$(($(date +%s) - $(stat -c %Y "$(git -C "$repo" rev-parse --path-format=absolute --git-path index)")))
    ((index_age < 2)) && sleep 2
    git -C "$repo" status --porcelain >/dev/null
    git -C "$repo" status --porcelain >/dev/null

    local cache=$WORK/cache-$idx cache_base=$WORK/cache-base-$idx
    local rc=(--repository "$repo" --cache-dir "$cache")
    # Big operations (seconds) get no extra warm-up run: the sha256sum warm-up has already
    # read every tracked file, so the page cache is warm for the baseline and ctags.
    local big_warmup=0 big_runs=${baseline_runs:-$runs}

    # Reference: parallel SHA-256 of the regular tracked files (symlinks and submodules are
    # left out: sha256sum would follow or fail on them).
    cat >"$WORK/scripts/sha256-$idx.sh" <<EOF
cd $(printf '%q' "$repo") && exec xargs -0 -P$NPROC sha256sum <$(printf '%q' "$rdir/regular.z") >/dev/null
EOF
    measure sha256sum "$opdir" 1 "$runs" "" -- bash "$WORK/scripts/sha256-$idx.sh"

    # Baseline: `repocue init` into a fresh, empty cache directory every run.
    cat >"$WORK/scripts/fresh-cache-$idx.sh" <<EOF
rm -rf $(printf '%q' "$cache_base") && mkdir -p $(printf '%q' "$cache_base")
EOF
    # First without content analysis (REPOCUE_ANALYSIS=off: list, stat, hash, store), the
    # counterpart of sha256sum; a binary that ignores the knob analyzes anyway (noted below).
    measure baseline_hash "$opdir" "$big_warmup" "$big_runs" "$WORK/scripts/fresh-cache-$idx.sh" -- \
        env REPOCUE_ANALYSIS=off "$BIN" --repository "$repo" --cache-dir "$cache_base" init
    "$BIN" --repository "$repo" --cache-dir "$cache_base" metrics >"$rdir/outputs/metrics_after_baseline_hash.json"
    local analyzed
    analyzed=$(python3 -c 'import json,sys; o=[x for x in json.load(open(sys.argv[1]))["operations"] if x["kind"]=="baseline"]; print(int(o[-1].get("files_analyzed") or 0) if o else 0)' \
        "$rdir/outputs/metrics_after_baseline_hash.json")
    if ((analyzed > 0)); then
        echo "REPOCUE_ANALYSIS=off was not honored ($analyzed files analyzed): the no-structure baseline includes analysis" >>"$rdir/notes.txt"
    fi

    # Then the real baseline, with content and structure analysis.
    local base_cmd=("$BIN" --repository "$repo" --cache-dir "$cache_base" init)
    if [[ $rss_method == gnu-time ]]; then
        # GNU time adds one fork+wait around each run and appends the peak RSS of each run.
        measure baseline "$opdir" "$big_warmup" "$big_runs" "$WORK/scripts/fresh-cache-$idx.sh" -- \
            "$gnu_time" -f %M -a -o "$rdir/rss.kib" "${base_cmd[@]}"
    else
        measure baseline "$opdir" "$big_warmup" "$big_runs" "$WORK/scripts/fresh-cache-$idx.sh" -- "${base_cmd[@]}"
        bash "$WORK/scripts/fresh-cache-$idx.sh"
        poll_peak_rss "$rdir/outputs/baseline_rss_run.json" "${base_cmd[@]}" >>"$rdir/rss.kib"
    fi
    # The cache of the last baseline run is still there: its size, and the run's own record.
    "$BIN" --repository "$repo" --cache-dir "$cache_base" metrics >"$rdir/outputs/metrics_after_baseline.json"
    log "  database after baseline: $(json_field "$rdir/outputs/metrics_after_baseline.json" database_bytes) bytes"
    python3 "$BENCH_DIR/bench.py" dbstat "$(json_field "$rdir/outputs/metrics_after_baseline.json" database_path)" \
        "$rdir/outputs/dbstat_after_baseline.json"
    # That cache becomes the warm cache below: one baseline fewer (minutes on big trees).
    mv "$cache_base" "$cache"

    if ((have_ctags)); then
        # --options=NONE: ignore ~/.ctags.d and friends; the notice it prints goes to the log.
        # The tags go to a real scratch file, not `-f /dev/null`: when a parser asks for a
        # second pass over a file, ctags truncates the tag file back, which fails on
        # /dev/null ("failed to truncate the tag file", exit 1; seen on RIOT).
        cat >"$WORK/scripts/ctags-$idx.sh" <<EOF
cd $(printf '%q' "$repo") && exec ctags --options=NONE -L $(printf '%q' "$rdir/regular.txt") -f $(printf '%q' "$WORK/tags-$idx") 2>>$(printf '%q' "$WORK/logs/ctags.stderr")
EOF
        measure ctags "$opdir" "$big_warmup" "$big_runs" "" -- bash "$WORK/scripts/ctags-$idx.sh"
        rm -f "$WORK/tags-$idx"
    fi

    # Time to first overview on a cold repository: the overview cue into an empty cache,
    # which initializes first: content in full, analysis for a read's budget (300 ms), the
    # rest deferred to later reads (docs/state.md).
    measure first_overview "$opdir" "$big_warmup" "$big_runs" "$WORK/scripts/fresh-cache-$idx.sh" -- \
        "$BIN" --repository "$repo" --cache-dir "$cache_base" cue --view overview --max-tokens 500
    rm -rf "$cache_base"

    # The warm cache for everything below: the last baseline's, brought up to date (ctags
    # ran in between; nothing should have changed).
    "$BIN" "${rc[@]}" refresh >"$rdir/outputs/first_refresh.json"

    # The fixed costs are a few ms over `git status`, and this VM's timings drift 10-20%
    # between blocks of runs: measured in rounds, one run of each command per round, both sides
    # of each comparison see the same drift.
    local fixed_runs=$((runs < 15 ? 15 : runs))
    round_robin "$opdir" 1 "$fixed_runs" \
        git_status "git -C $(printf '%q' "$repo") status --porcelain=v2 -z --untracked-files=all" \
        repocue_status "$(printf '%q ' "$BIN" "${rc[@]}") status" \
        refresh_noop "$(printf '%q ' "$BIN" "${rc[@]}") refresh" \
        cue_overview "$(printf '%q ' "$BIN" "${rc[@]}") cue --view overview --max-tokens 500"

    "$BIN" "${rc[@]}" status >"$rdir/outputs/status.json"
    local fresh
    fresh=$(json_field "$rdir/outputs/status.json" freshness)
    [[ $fresh == current ]] || echo "status said freshness '$fresh' on an unchanged repository" >>"$rdir/notes.txt"

    "$BIN" "${rc[@]}" refresh >"$rdir/outputs/refresh_noop.json"
    local scanned
    scanned=$(json_field "$rdir/outputs/refresh_noop.json" files_scanned)
    ((scanned == 0)) || echo "the no-op refresh scanned $scanned files" >>"$rdir/notes.txt"

    "$BIN" "${rc[@]}" cue --view overview --max-tokens 500 >"$rdir/outputs/cue_overview.json"
    if grep -q '"code":"refreshed"\|"code":"initialized"' "$rdir/outputs/cue_overview.json"; then
        echo "the warm overview refreshed the cache first" >>"$rdir/notes.txt"
    fi

    # The read paths that scale with the repository: an entity (a symbol of the edited file
    # when its structure cue names one) and the whole-repository structure cue.
    local entity_id
    if [[ -n $edit_file ]]; then
        entity_id=$(python3 "$BENCH_DIR/bench.py" entity "$BIN" "$repo" "$cache" "$edit_file")
    else
        entity_id="file:$(head -1 "$rdir/regular.txt")"
    fi
    echo "entity cue id: $entity_id" >>"$rdir/notes.txt"
    measure cue_entity "$opdir" 1 "$runs" "" -- "$BIN" "${rc[@]}" cue --view entity --id "$entity_id"
    "$BIN" "${rc[@]}" cue --view entity --id "$entity_id" >"$rdir/outputs/cue_entity.json"
    measure cue_structure "$opdir" 1 "$runs" "" -- "$BIN" "${rc[@]}" cue --view structure
    "$BIN" "${rc[@]}" cue --view structure >"$rdir/outputs/cue_structure.json"

    # Reads while another process holds the write lock (a python3 sqlite3 connection in
    # BEGIN IMMEDIATE): cue and search with --no-refresh, and status.
    local query
    query=$(basename "${edit_file:-$(head -1 "$rdir/regular.txt")}")
    query=${query%%.*}
    log "  reads under a held write lock (query '$query', timeout ${lock_timeout} s)"
    python3 "$BENCH_DIR/bench.py" lockread "$rdir/outputs/lockread.json" "$BIN" "$repo" "$cache" \
        "$query" "$runs" "$lock_timeout"

    if [[ -n $edit_file ]]; then
        edit_file=$repo/$edit_file
        edit_backup=$WORK/edit-backup-$idx
        cp -p "$edit_file" "$edit_backup"
        # Before every timed refresh: restore the file, bring the cache back to the clean
        # state (untimed), then append a line. The line is unique per run so its content is
        # new to the cache (no analysis is reused from an earlier run).
        cat >"$WORK/scripts/edit-$idx.sh" <<EOF
set -e
cp -p $(printf '%q' "$edit_backup") $(printf '%q' "$edit_file")
$(printf '%q ' "$BIN" "${rc[@]}") refresh >/dev/null
printf '%s repocue bench edit %s\n' $(printf '%q' "$edit_comment") "\$(date +%s%N)" >>$(printf '%q' "$edit_file")
EOF
        measure git_status_edit "$opdir" 1 "$runs" "$WORK/scripts/edit-$idx.sh" -- \
            git -C "$repo" status --porcelain=v2 -z --untracked-files=all
        measure refresh_edit "$opdir" 1 "$runs" "$WORK/scripts/edit-$idx.sh" -- "$BIN" "${rc[@]}" refresh
        # What an agent pays per edit: the overview cue that finds the cache stale, refreshes
        # it and answers.
        measure cue_edit "$opdir" 1 "$runs" "$WORK/scripts/edit-$idx.sh" -- \
            "$BIN" "${rc[@]}" cue --max-tokens 500
        # An agent's next edit: the file is already dirty in the snapshot (edited and
        # refreshed, untimed), and changes again.
        cat >"$WORK/scripts/again-$idx.sh" <<EOF
set -e
bash $(printf '%q' "$WORK/scripts/edit-$idx.sh")
$(printf '%q ' "$BIN" "${rc[@]}") refresh >/dev/null
printf '%s repocue bench edit again %s\n' $(printf '%q' "$edit_comment") "\$(date +%s%N)" >>$(printf '%q' "$edit_file")
EOF
        measure refresh_again "$opdir" 1 "$runs" "$WORK/scripts/again-$idx.sh" -- "$BIN" "${rc[@]}" refresh
        measure cue_again "$opdir" 1 "$runs" "$WORK/scripts/again-$idx.sh" -- \
            "$BIN" "${rc[@]}" cue --max-tokens 500
        if [[ -n $edit_definition ]]; then
            # The same, with a line that defines a new function (a new name every run).
            cat >"$WORK/scripts/define-$idx.sh" <<EOF
set -e
cp -p $(printf '%q' "$edit_backup") $(printf '%q' "$edit_file")
$(printf '%q ' "$BIN" "${rc[@]}") refresh >/dev/null
printf $(printf '%q' "$edit_definition\n") "\$(date +%s%N)" >>$(printf '%q' "$edit_file")
EOF
            measure cue_define "$opdir" 1 "$runs" "$WORK/scripts/define-$idx.sh" -- \
                "$BIN" "${rc[@]}" cue --max-tokens 500
        fi
        if [[ -n $edit_call ]]; then
            # The same, with a function that calls a name the file did not use before.
            cat >"$WORK/scripts/call-$idx.sh" <<EOF
set -e
cp -p $(printf '%q' "$edit_backup") $(printf '%q' "$edit_file")
$(printf '%q ' "$BIN" "${rc[@]}") refresh >/dev/null
stamp=\$(date +%s%N)
printf $(printf '%q' "$edit_call\n") "\$stamp" "\$stamp" >>$(printf '%q' "$edit_file")
EOF
            measure cue_define_call "$opdir" 1 "$runs" "$WORK/scripts/call-$idx.sh" -- \
                "$BIN" "${rc[@]}" cue --max-tokens 500
            # The same, calling a function another file defines: the graph gains an edge. The
            # restored state is ranked first (an overview cue), so that each run's edit changes
            # the graph the reuse would start from.
            local edit_link
            edit_link=$(python3 "$BENCH_DIR/bench.py" callee "$BIN" "$repo" "$cache" "${edit_file#"$repo"/}")
            if [[ -n $edit_link ]]; then
                echo "linked call: $edit_link" >>"$rdir/notes.txt"
                cat >"$WORK/scripts/link-$idx.sh" <<EOF
set -e
cp -p $(printf '%q' "$edit_backup") $(printf '%q' "$edit_file")
$(printf '%q ' "$BIN" "${rc[@]}") cue --max-tokens 500 >/dev/null
printf $(printf '%q' "$edit_link\n") "\$(date +%s%N)" >>$(printf '%q' "$edit_file")
EOF
                measure cue_define_link "$opdir" 1 "$runs" "$WORK/scripts/link-$idx.sh" -- \
                    "$BIN" "${rc[@]}" cue --max-tokens 500
            fi
        fi
        bash "$WORK/scripts/edit-$idx.sh"
        "$BIN" "${rc[@]}" refresh >"$rdir/outputs/refresh_edit.json"
        cp -p "$edit_backup" "$edit_file"
        "$BIN" "${rc[@]}" refresh >/dev/null

        # Concurrent agents on one cache while the file changes every 0.2 s; then the
        # database over many one-file-edit refreshes. Both restore the file themselves (and
        # the EXIT trap from the backup if they are interrupted).
        local rel=${edit_file#"$repo"/}
        if ((agents > 0)); then
            log "  $agents concurrent agents for $agent_seconds s"
            python3 "$BENCH_DIR/bench.py" agents "$rdir/outputs/agents.json" "$BIN" "$repo" "$cache" \
                "$rel" "$edit_comment" "$agents" "$agent_seconds"
            cp -p "$edit_backup" "$edit_file"
        fi
        if ((refreshes > 0)); then
            log "  $refreshes one-file-edit refreshes (database growth)"
            python3 "$BENCH_DIR/bench.py" churn "$rdir/outputs/churn.json" "$BIN" "$repo" "$cache" \
                "$rel" "$edit_comment" "$refreshes"
            cp -p "$edit_backup" "$edit_file"
        fi
        rm -f "$edit_backup"
        edit_file="" edit_backup=""
        # Let Git record the restored file's new stat data, so the tree is as we found it.
        git -C "$repo" status --porcelain >/dev/null
        scanned=$(json_field "$rdir/outputs/refresh_edit.json" files_scanned)
        ((scanned == 1)) || echo "the one-file refresh scanned $scanned files" >>"$rdir/notes.txt"
    else
        echo "no tracked text file of 1-64 KiB to edit: one-file refresh skipped" >>"$rdir/notes.txt"
    fi
    rm -rf "$cache"
}

# --- Main ----------------------------------------------------------------------------------
if [[ -n $synthetic ]]; then
    log "generating a synthetic repository of $synthetic files"
    "$BENCH_DIR/synth.sh" "$synthetic" "$WORK/synth-$synthetic" 2>"$WORK/logs/synth.log" ||
        die "synth.sh failed; see $WORK/logs/synth.log"
    repos+=("$WORK/synth-$synthetic")
fi
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
idx=0
for repo in "${repos[@]}"; do
    idx=$((idx + 1))
    bench_repo "$repo" "$idx"
done

if [[ -z $out ]]; then
    if ((smoke)); then
        out=${TMPDIR:-/tmp}/repocue-bench-smoke.md
    else
        mkdir -p "$BENCH_DIR/results"
        out=$BENCH_DIR/results/$(date -u +%Y%m%dT%H%M%SZ).md
    fi
fi
mkdir -p "$(dirname "$out")"
out_json=${out%.md}.json
[[ $out_json == "$out" ]] && out_json=$out.json
busy_note "at the end"
runs_text=$runs
[[ -n $baseline_runs ]] && runs_text="$runs (baselines: $baseline_runs)"
machine_json "$started" "$mode" "$runs_text" "$NPROC" "$cpu" "$mem" "$(uname -sr)" \
    "$(git --version) ($(command -v git))" "$commit" "$bin (sha256 $(sha256sum "$BIN" | cut -c1-12))" \
    "$ctags_version" "$timer" "$rss_method" "$load_start" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    "${notes[@]}" >"$DATA/machine.json"
python3 "$BENCH_DIR/bench.py" report "$DATA" "$out" "$out_json"
cat "$out"
log "report: $out"
log "raw samples: $out_json"
