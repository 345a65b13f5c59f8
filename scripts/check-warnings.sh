#!/usr/bin/env bash
# Builds everything (tests included) and fails if the build fails or our own code draws a
# compiler warning. Warnings inside dependencies' checkouts are theirs, not ours.
set -uo pipefail
log=$(mktemp)
swift build --build-tests >"$log" 2>&1
status=$?
grep -E '(error|warning):' "$log" | grep -v '/\.build' || true
if [ "$status" -ne 0 ]; then
  tail -40 "$log"
  echo "check-warnings: the build failed" >&2
  exit "$status"
fi
if grep -qE "^$(pwd)/(Sources|Tests)/.*warning:" "$log"; then
  echo "check-warnings: our code has warnings (above)" >&2
  exit 1
fi
echo "check-warnings: build clean"
