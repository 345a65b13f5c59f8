#!/usr/bin/env bash
# The unit suites (all but TesseraAppTests) RUNS times over (default 20) with glibc's own heap
# checks: no thread cache (every free reaches the checked arenas) and libc_malloc_debug's
# MALLOC_CHECK_=3 (a corrupted chunk aborts at once, with a message). A heap corruption that
# shows once in a handful of runs shows here; the last line counts the runs that aborted.
#
#   scripts/heap-stress.sh [RUNS]
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
[[ "$runs" =~ ^[0-9]+$ ]] && ((runs >= 1 && runs <= 1000)) || {
  echo "heap-stress: RUNS is 1 to 1000" >&2
  exit 2
}
debug=$(ls /usr/lib/*-linux-gnu/libc_malloc_debug.so.0 2>/dev/null | head -1)
[ -n "$debug" ] || {
  echo "heap-stress: glibc's libc_malloc_debug.so.0 not found (glibc 2.34 or later)" >&2
  exit 2
}
swift build --build-tests >/dev/null || exit 1
aborted=0
failed=0
for ((run = 1; run <= runs; run++)); do
  log=$(mktemp)
  GLIBC_TUNABLES=glibc.malloc.tcache_count=0 LD_PRELOAD="$debug" MALLOC_CHECK_=3 \
    SWIFT_BACKTRACE=enable=yes,threads=all \
    swift test --skip-build --skip TesseraAppTests >"$log" 2>&1
  status=$?
  # glibc's own words for a damaged heap, or the test process killed by a signal (test names
  # such as "…NeverCrashes" must not count).
  if grep -qaE 'malloc\(\)|free\(\)|malloc_consolidate|corrupted|double free|unexpected signal|Fatal error|SIGABRT|SIGSEGV' "$log" &&
    [ "$status" -ne 0 ]; then
    aborted=$((aborted + 1))
    cp "$log" ".build/heap-stress-$run.log"
    echo "heap-stress: run $run aborted (log .build/heap-stress-$run.log)" >&2
  elif [ "$status" -ne 0 ]; then
    failed=$((failed + 1))
    cp "$log" ".build/heap-stress-$run.log"
    echo "heap-stress: run $run failed without an abort (log .build/heap-stress-$run.log)" >&2
  else
    echo "heap-stress: run $run clean ($(grep -aoE 'Test run with [0-9]+ tests' "$log" | tail -1))"
  fi
  rm -f "$log"
done
echo "heap-stress: $runs runs, $aborted aborted, $failed failed otherwise"
[ "$aborted" -eq 0 ] && [ "$failed" -eq 0 ]
