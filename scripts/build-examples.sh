#!/usr/bin/env bash
# Builds every package in Examples/ (each depends on Tessera by path and uses only public API),
# so a change that breaks the public API fails `make test`. They share one scratch folder,
# .build-examples (ignored by git), apart from .build: an example is another root package and
# would otherwise re-plan the main build. The first build compiles the dependencies again
# (minutes); later ones are incremental.
#
# Then, unless EXAMPLES_E2E=0: FeedThumbnails against the embedded server (`tessera serve
# --port 0`, the debug build `make test` has already made), once healthy and once with every
# image failing, checking its summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-examples
log=$(mktemp)
for package in Examples/*/; do
  start=$(date +%s)
  if ! swift build --package-path "$package" --scratch-path "$scratch" >"$log" 2>&1; then
    grep -E "error|warning:" "$log" | grep -v "/$scratch/" >&2 || tail -40 "$log" >&2
    echo "build-examples: $package does not build" >&2
    exit 1
  fi
  # Warnings in the example's own code count: the public API must be usable without any.
  if grep -E "^$(pwd)/${package}.*warning:" "$log" >&2; then
    echo "build-examples: $package builds with warnings (above)" >&2
    exit 1
  fi
  echo "build-examples: $package built in $(($(date +%s) - start)) s"
done
rm -f "$log"

[ "${EXAMPLES_E2E:-1}" = 0 ] && exit 0
tessera=.build/debug/tessera
example=$scratch/debug/feed-thumbnails
[ -x "$tessera" ] || swift build --product tessera
work=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Starts the server with extra options; sets $server and $url.
serve() {
  mkfifo "$work/port"
  "$tessera" serve --port 0 --items 20 --seed 7 "$@" >"$work/port" 2>"$work/serve.log" &
  server=$!
  read -r -t 60 url <"$work/port" || { cat "$work/serve.log" >&2; exit 1; }
  rm "$work/port"
}
stop() {
  kill "$server"
  wait "$server" 2>/dev/null || true
  server=""
}
# Runs the example on the server's feed with a cache of its own; the summary is in $work/out.
run_example() {
  XDG_CACHE_HOME="$work/cache-$1" "$example" "${url}services/feeds/photos_public.gne" \
    >"$work/out" 2>"$work/progress" || true
}
expect() {
  grep -qx -- "$1" "$work/out" || {
    echo "build-examples: FeedThumbnails' summary lacks '$1':" >&2
    cat "$work/out" "$work/progress" >&2
    exit 1
  }
}

serve
run_example healthy
stop
expect "thumbnails: 20"
expect "loaded: 20 (20 from the network)"
expect "failed: 0"
# The one line a client writes, `ImagePipeline.shared.image(for: url)`, on the feed's first photo.
grep -qE "^first photo: [0-9]+×[0-9]+ px$" "$work/out" || {
  echo "build-examples: FeedThumbnails did not load its first photo:" >&2
  cat "$work/out" >&2
  exit 1
}
grep -q "20/20 thumbnails" "$work/progress" || { echo "build-examples: no progress bar" >&2; exit 1; }

serve --failure-rate 1 --failures 500 --fault-targets images
run_example failing
stop
expect "thumbnails: 20"
expect "failed: 20"
grep -q "^first photo: failed (" "$work/out" || { echo "build-examples: first photo did not fail" >&2; exit 1; }
[ "$(grep -c '^  .*server answered HTTP 500' "$work/out")" = 20 ] || {
  echo "build-examples: FeedThumbnails did not say why each image failed:" >&2
  cat "$work/out" >&2
  exit 1
}
echo "build-examples: FeedThumbnails summarised a healthy and a failing server"
