#!/usr/bin/env bash
# Runs the whole test suite and ends with one plain line, "N passed, N failed", read from
# Swift Testing's own summary (XCTest, which has no tests here, prints "Executed 0 tests"
# before it, and that line must not be mistaken for the result).
set -uo pipefail
log=$(mktemp)
swift test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
total=$(grep -aE 'Test run with [0-9]+ tests?' "$log" | tail -1 | grep -oE 'with [0-9]+ tests?' | grep -oE '[0-9]+')
failed=$(grep -acE '^✘ Test [^ ].* failed after' "$log")
total=${total:-0}
echo "$((total - failed)) passed, ${failed} failed"
exit "$status"
