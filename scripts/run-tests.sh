#!/usr/bin/env bash
# Runs the whole test suite and ends with one plain line, "N passed, N failed", read from
# the xUnit record Swift Testing writes itself (scripts/test-results.py), or, when the process
# died before writing it, from Swift Testing's own lines (XCTest, which has no tests here,
# prints "Executed 0 tests" before them, and that line must not be mistaken for the result).
#
# Every test is counted, also when a test crashes its process: the tests `swift test list`
# names for a run are the ones expected, and each one that did not end (passed, failed or
# skipped) is a failure, named, with the test that was running when the process died.
#
# Afterwards nothing the tests started may still run: a tmux server of the end-to-end tests
# or a tessera process from this build left behind counts as one more failure (and is killed).
set -uo pipefail
cd "$(dirname "$0")/.."
# Two runs. The end-to-end suites (TesseraAppTests) wait on processes, tmux panes and X
# screens with blocking calls, each holding a thread of Swift's cooperative pool, which has two
# on a two-core machine; beside them the async unit tests starved (a feed download read 4 MB
# in 30 s and timed out). So the unit tests run first, in parallel, then the end-to-end suites.
started=$(date +%s)
total=0
failed=0
skipped=0
status=0
listed=$(mktemp)
if ! swift build --build-tests >/dev/null 2>&1 || ! swift test list --skip-build >"$listed" 2>/dev/null; then
  echo "run-tests: the tests did not build, or could not be listed" >&2
  swift build --build-tests 2>&1 | grep -E 'error:' | head -20 >&2
  echo "0 passed, 1 failed"
  exit 1
fi
for selection in "--skip TesseraAppTests" "--filter TesseraAppTests"; do
  log=$(mktemp)
  xml="$log.xml"
  # The tests this run should end, as `--skip`/`--filter` select them (a regular expression
  # over "Module.Suite/test()").
  if [ "${selection%% *}" = "--skip" ]; then
    expected=$(grep -cv 'TesseraAppTests' "$listed")
  else
    expected=$(grep -c 'TesseraAppTests' "$listed")
  fi
  # shellcheck disable=SC2086 # the selection is two words on purpose
  swift test --skip-build "$@" $selection --xunit-output "$xml" 2>&1 | tee "$log"
  run_status=${PIPESTATUS[0]}
  [ "$run_status" -ne 0 ] && status=$run_status
  recorded="${xml%.xml}-swift-testing.xml"
  if [ -s "$recorded" ]; then
    # What the test process recorded itself (scripts/test-results.py): a result line lost on
    # the way to the console loses no test here.
    counts=$(python3 scripts/test-results.py "$recorded")
    read -r ended run_failed run_skipped <<<"$(head -1 <<<"$counts")"
    skipped=$((skipped + run_skipped))
    failed_names=$(tail -n +2 <<<"$counts")
    [ -n "$failed_names" ] && echo "run-tests: failed: $(paste -sd, <<<"$failed_names")" >&2
  else
    # No record: the process ended before writing it. Count from the console's lines.
    # (Not the closing "✘ Test run with N tests … failed after", which is no test of its own.)
    # (A test that passes with known issues says "━ Test … passed after …".)
    results=$(grep -aE '^([✔━] Test [^ ].* passed after|✘ Test [^ ].* failed after|➜ Test [^ ].* skipped)' "$log" |
      grep -avE '^. Test run with [0-9]+ tests?')
    run_failed=$(grep -acE '^✘' <<<"$results")
    ended=$(grep -acE '^.' <<<"$results")
    skipped=$((skipped + $(grep -acE '^➜' <<<"$results")))
  fi
  if { [ ! -s "$recorded" ] && ! grep -qaE 'Test run with [0-9]+ tests?' "$log"; } ||
    [ "$ended" -lt "$expected" ]; then
    # The process ended before its summary: every expected test that did not end failed.
    missing=$((expected - ended))
    ((missing < 1)) && missing=1
    running=$(grep -aE '^◇ Test [^ ].* started\.$' "$log" | grep -avE '^◇ Test (case |run started)' |
      sed -E 's/^◇ Test (.*) started\.$/\1/' | sort | uniq -c |
      while read -r count name; do
        done_count=$(awk -v name="$name" '((index($0, "✔ Test " name " ") == 1 ||
          index($0, "━ Test " name " ") == 1) && /passed after/) ||
          (index($0, "✘ Test " name " ") == 1 && /failed after/)' "$log" | wc -l)
        ((count > done_count)) && echo "$name"
      done)
    echo "run-tests: the run ($selection) ended (status $run_status) after $ended of its" \
      "$expected tests; the $missing that did not end count as failed." >&2
    [ -n "$running" ] && echo "run-tests: running when it ended: $(echo "$running" | paste -sd, -)" >&2
    run_failed=$((run_failed + missing))
    [ "$status" -eq 0 ] && status=1
  fi
  total=$((total + expected))
  failed=$((failed + run_failed))
  rm -f "$log" "$xml" "$recorded"
done
rm -f "$listed"

leftovers() {
  pgrep -af -- "tmux -L tessera-test-|$(pwd)/\.build[^ ]*/tessera( |$)" | grep -v -- "pgrep" || true
}
left=$(leftovers)
if [ -n "$left" ]; then
  echo "run-tests: the tests left processes running:" >&2
  echo "$left" >&2
  echo "$left" | awk '{print $1}' | xargs -r kill -KILL 2>/dev/null
  total=$((total + 1))
  failed=$((failed + 1))
  status=1
fi
echo "make test: tests took $(($(date +%s) - started)) s"
echo "$((total - failed - skipped)) passed, ${failed} failed, ${skipped} skipped"
exit "$status"
