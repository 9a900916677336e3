#!/usr/bin/env bash
# Runs the test suite under the address and thread sanitizers (issue #29): every test, and every
# `tern` they start (built beside the tests, so sanitized too). A report from any process is a
# finding: the reports go to WORK/SANITIZER/report.PID, and the script prints how many there are.
#
#   bash scripts/sanitize.sh [address] [thread] [--work DIR] [-- SWIFT-TEST-ARGUMENTS (e.g. --filter X)]
#
# Leak reports are off: the Swift runtime keeps its metadata for the process's life by design.
# Deadlines are scaled (TERN_TEST_TIME_SCALE, default 4): a sanitized process runs 2-5 times slower.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
sanitizers=() work=/tmp/tern-sanitize extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        address|thread) sanitizers+=("$1"); shift ;;
        --work) work="$2"; shift 2 ;;
        --) shift; extra=("$@"); break ;;
        *) echo "sanitize.sh: unknown argument $1 (address, thread, --work DIR, -- test arguments)" >&2; exit 2 ;;
    esac
done
[ ${#sanitizers[@]} -gt 0 ] || sanitizers=(address thread)
status=0
for s in "${sanitizers[@]}"; do
    scratch="$work/build-$s" reports="$work/$s"
    rm -rf "$reports"; mkdir -p "$reports"
    echo "sanitize.sh: building with --sanitize=$s in $scratch"
    if ! swift build --build-tests --sanitize="$s" --scratch-path "$scratch" >"$work/build-$s.log" 2>&1; then
        grep -E "error" "$work/build-$s.log" | head -20 >&2
        echo "sanitize.sh: the $s build failed ($work/build-$s.log)" >&2
        exit 1
    fi
    started=$(date +%s)
    set +e
    TERN_TEST_TIME_SCALE="${TERN_TEST_TIME_SCALE:-4}" \
    ASAN_OPTIONS="detect_leaks=0:log_path=$reports/report:halt_on_error=1" \
    TSAN_OPTIONS="log_path=$reports/report:halt_on_error=0:second_deadlock_stack=1" \
        swift test --skip-build --sanitize="$s" --scratch-path "$scratch" "${extra[@]}" >"$work/test-$s.log" 2>&1
    rc=$?
    set -e
    found=$(ls "$reports" | wc -l)
    summary=$(grep -E "Test run with .* (passed|failed)" "$work/test-$s.log" | tail -1)
    echo "sanitize.sh: $s: ${summary:-no summary (see $work/test-$s.log)}; $found report(s) in $reports; $(( $(date +%s) - started )) s"
    if [ "$found" -gt 0 ] || [ $rc -ne 0 ]; then status=1; fi
done
exit $status
