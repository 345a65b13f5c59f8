#!/usr/bin/env bash
# Runs one step of `make test` and says how long it took, so a run's log tells where its
# minutes went ("make test: lint took 12 s"). The step's own exit status is kept.
set -uo pipefail
name=$1
shift
start=$(date +%s)
"$@"
status=$?
echo "make test: $name took $(($(date +%s) - start)) s (exit $status)"
exit "$status"
