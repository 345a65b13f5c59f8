#!/usr/bin/env bash
# Builds everything (tests included) and fails if our own code draws a compiler warning.
# Warnings inside dependencies' checkouts are theirs, not ours, and are not counted.
set -uo pipefail
log=$(mktemp)
swift build --build-tests 2>&1 | tee "$log" | grep -E '(error|warning):' | grep -v '/\.build' || true
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  tail -40 "$log"
  exit "$status"
fi
if grep -E "^$(pwd)/(Sources|Tests)/.*warning:" "$log"; then
  echo "check-warnings: our code has warnings (above)" >&2
  exit 1
fi
