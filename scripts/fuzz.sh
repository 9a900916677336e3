#!/usr/bin/env bash
# Fuzzes Tern's input surfaces with libFuzzer (issue #29): the NMEA reader, the .tmap loader
# (checksums recomputed after each mutation), tern.conf, console and control-socket commands, and
# search text. The harnesses are in fuzz/ (a package of its own: the appliance never links
# libFuzzer); the corpus checked in is fuzz/corpus/HARNESS, what libFuzzer adds goes to the work
# folder. A crash, a trap or a hang of over 10 s is a finding, kept in WORK/findings.
#
#   bash scripts/fuzz.sh [--seconds N | --runs N] [--work DIR] [nmea tmap config command search]
#
# Prints each harness's executions, executions per second and findings; exits 1 on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
seconds=60 runs="" work=/tmp/tern-fuzz harnesses=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        nmea|tmap|config|command|search) harnesses+=("$1"); shift ;;
        *) echo "fuzz.sh: unknown argument $1 (harnesses: nmea tmap config command search)" >&2; exit 2 ;;
    esac
done
[ ${#harnesses[@]} -gt 0 ] || harnesses=(nmea tmap config command search)
mkdir -p "$work/findings"
echo "fuzz.sh: building the harnesses with --sanitize=fuzzer (release) in $work/build"
# (the build plan of a path dependency is cached: without this, a file added to Tern is not seen)
rm -f "$work/build/release.yaml"
if ! swift build -c release --sanitize=fuzzer --package-path fuzz --scratch-path "$work/build" >"$work/build.log" 2>&1; then
    grep -E "error" "$work/build.log" | head -20 >&2
    echo "fuzz.sh: the build failed (all of it in $work/build.log)" >&2
    exit 1
fi
bin="$work/build/release/tern-fuzz"
found=0
for h in "${harnesses[@]}"; do
    corpus="$work/corpus/$h"
    mkdir -p "$corpus"
    TERN_FUZZ=$h TERN_FUZZ_WORK="$work" TERN_FUZZ_SEEDS="$corpus" "$bin" >/dev/null 2>&1 || true
    limit=(-max_total_time="$seconds")
    [ -n "$runs" ] && limit=(-runs="$runs")
    log="$work/$h.log"
    before=$(ls "$work/findings" | grep -c "^$h-" || true)
    kept=()
    [ -d "fuzz/corpus/$h" ] && kept=("fuzz/corpus/$h")
    set +e
    SWIFT_BACKTRACE=enable=no TERN_FUZZ=$h TERN_FUZZ_WORK="$work" "$bin" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/findings/$h-" "$corpus" "${kept[@]}" >"$log" 2>&1
    rc=$?
    set -e
    after=$(ls "$work/findings" | grep -c "^$h-" || true)
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    printf 'fuzz.sh: %-8s %12s executions  %8s exec/s  %d finding(s)%s\n' "$h" "${execs:-?}" "${speed:-?}" $((after - before)) \
        "$([ $rc -ne 0 ] && echo "  (exit $rc; see $log)")"
    if [ $((after - before)) -gt 0 ] || [ $rc -ne 0 ]; then found=1; fi
done
exit $found
