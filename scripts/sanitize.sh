#!/usr/bin/env bash
# The unit suites (all but the end-to-end TesseraAppTests, which run the release binary) built
# and run under the sanitizers, each in its own build folder:
#
#   scripts/sanitize.sh                 AddressSanitizer (with UndefinedBehaviorSanitizer traps
#                                       in the C targets), then ThreadSanitizer
#   scripts/sanitize.sh address         one of them (address or thread)
#
# SwiftPM instruments the C targets (CVipsShim, CPNG) as well as the Swift ones. libvips is
# opened at run time and is not instrumented, but ASan's interceptors still see its memcpy and
# its reads of buffers we hand it. Any report fails the run, even one the sanitizer continued
# past (TSan's warnings). Leak checking is off: the Swift runtime's
# and libvips' process-lifetime caches would drown out anything of ours (see DESIGN.md).
set -uo pipefail
cd "$(dirname "$0")/.."
kinds=("$@")
((${#kinds[@]} == 0)) && kinds=(address thread)
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=yes,threads=all}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:detect_stack_use_after_return=0}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0:second_deadlock_stack=1}
# The unit suites only (Package.swift leaves out the end-to-end suite and what only it uses).
export TESSERA_UNIT_TESTS_ONLY=1
status=0
for kind in "${kinds[@]}"; do
  case "$kind" in
  # swiftc has no UBSan on Linux: the C targets get it as traps (no runtime to link), so
  # undefined behaviour in the shim stops the test process where it happens.
  address) flags=(--sanitize=address -Xcc -fsanitize=undefined -Xcc -fsanitize-trap=undefined) ;;
  thread) flags=(--sanitize=thread) ;;
  *)
    echo "sanitize: unknown sanitizer '$kind' (address or thread)" >&2
    exit 2
    ;;
  esac
  scratch=".build-$kind"
  log=$(mktemp)
  echo "sanitize: building the tests with ${flags[*]} in $scratch" >&2
  if ! swift build --build-tests "${flags[@]}" --scratch-path "$scratch" >"$log" 2>&1; then
    tail -40 "$log"
    echo "sanitize: the $kind build failed" >&2
    exit 1
  fi
  # Instrumented tests run one at a time in each of two processes: with every test started at
  # once on two cores they starve each other past their time limits, which are there to catch
  # hangs. ThreadSanitizer makes every test 5–15 times slower (90 timeouts, 0 reports, run
  # in parallel); under AddressSanitizer, about 4 times, the photo library's main-actor suites
  # once waited 112 s for their turn. Two at a time they run as they would uninstrumented,
  # only slower; one process alone took 381 s under AddressSanitizer. The first process takes
  # the simulation and the image pipeline, about half the time.
  first="TesseraSimulationTests|TesseraImagesTests"
  swift test --skip-build "${flags[@]}" --no-parallel --scratch-path "$scratch" \
    --filter "$first" >"$log.first" 2>&1 &
  first_pid=$!
  swift test --skip-build "${flags[@]}" --no-parallel --scratch-path "$scratch" \
    --skip TesseraAppTests --skip "$first" >"$log.rest" 2>&1
  rest_status=$?
  wait "$first_pid"
  first_status=$?
  cat "$log.first" "$log.rest" | tee "$log"
  # Each process that failed must have ended its run, saying which tests failed: one that
  # crashed or was killed hides the tests after the crash, and is never run again.
  retryable=1
  for part in first rest; do
    part_status=$([ "$part" = first ] && echo "$first_status" || echo "$rest_status")
    if [ "$part_status" -ne 0 ] && ! grep -aq 'Test run with .* failed' "$log.$part"; then
      retryable=0
    fi
  done
  rm -f "$log.first" "$log.rest"
  run_status=$((first_status > rest_status ? first_status : rest_status))
  reports=$(grep -acE 'ERROR: AddressSanitizer|WARNING: ThreadSanitizer' "$log")
  # A test that failed with no sanitizer report in a process that lived to print its run's
  # summary (a time limit or a deadline missed on an instrumented build 4-15 times slower, on
  # a loaded machine) is run once more, alone, under the same sanitizer. Its suite passing then is said loudly and
  # does not fail this step: what this step finds is memory and thread errors, and every
  # test runs again uninstrumented in `make test`'s tests step, where a failure fails it. A
  # crash, a report, or a second failure fails the step.
  if [ "$run_status" -ne 0 ] && [ "$reports" -eq 0 ] && [ "$retryable" -eq 1 ]; then
    suites=$(grep -aoE '✘ Suite [A-Za-z0-9_]+ failed' "$log" | awk '{print $3}' | sort -u | paste -sd'|')
    if [ -n "$suites" ]; then
      echo "sanitize: $kind: failed without a sanitizer report: $suites; running them again, alone" >&2
      grep -aE '✘' "$log" | tail -20 >&2
      swift test --skip-build "${flags[@]}" --no-parallel --scratch-path "$scratch" \
        --filter "$suites" >"$log.again" 2>&1
      again=$?
      reports=$(cat "$log" "$log.again" | grep -acE 'ERROR: AddressSanitizer|WARNING: ThreadSanitizer')
      tail -5 "$log.again"
      if [ "$again" -eq 0 ] && [ "$reports" -eq 0 ]; then
        echo "sanitize: $kind: FLAKY under the sanitizer, passed alone: $suites" >&2
        run_status=0
      fi
      rm -f "$log.again"
    fi
  fi
  if [ "$run_status" -ne 0 ] || [ "$reports" -ne 0 ]; then
    # What failed, last, where a log's tail shows it: the two processes' logs run to
    # thousands of lines and the first one's failures came before the second's.
    echo "sanitize: $kind: the simulation and pipeline process exited $first_status, the rest $rest_status; what failed:" >&2
    grep -aE '✘|Fatal error|fatal error|error: |ERROR: |WARNING: ThreadSanitizer|Test run with' "$log" | grep -av '✔' | tail -40 >&2
    echo "sanitize: $kind: exit $run_status, $reports sanitizer report(s)" >&2
    status=1
  else
    echo "sanitize: $kind: clean"
  fi
  rm -f "$log"
done
exit "$status"
