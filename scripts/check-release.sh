#!/usr/bin/env bash
# The binary `make run` and `make install` ship: release, with the Swift runtime linked in
# statically. Its command line must reach the parser: the static runtime finds the arguments
# by walking back from `environ`, which the shim moves when it sets VIPSHOME before main (a
# static binary once saw no arguments and ran the gallery for `--version`). Also checks that
# it links no libcurl (URLSession lives in TesseraURLSession, which it does not link).
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
if ! swift build -c release --product tessera --static-swift-stdlib >"$log" 2>&1; then
  tail -40 "$log"
  echo "check-release: the release build failed" >&2
  exit 1
fi
rm -f "$log"
binary=.build/release/tessera
failures=0
check() {
  local what=$1 expected=$2
  shift 2
  local output
  output=$("$binary" "$@" 2>&1 </dev/null)
  if grep -qF -- "$expected" <<<"$output"; then
    echo "check-release: $what: ok"
  else
    echo "check-release: $what: expected \"$expected\", got: $(head -3 <<<"$output")" >&2
    failures=$((failures + 1))
  fi
}
version=$(sed -nE 's/.*static let version = "([^"]+)".*/\1/p' Sources/tessera/Tessera.swift)
check "--version" "$version" --version
check "--help" "USAGE: tessera" --help
check "bench --help" "tessera bench" bench --help
check "an unknown option" "Unknown option '--no-such-option'" --no-such-option
if ldd "$binary" | grep -q libcurl; then
  echo "check-release: the release binary links libcurl" >&2
  failures=$((failures + 1))
else
  echo "check-release: no libcurl: ok ($(ldd "$binary" | grep -c '=>') shared libraries)"
fi
echo "$((5 - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
