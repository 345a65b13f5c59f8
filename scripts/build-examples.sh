#!/usr/bin/env bash
# Builds every package in Examples/ (each depends on Tessera by path and uses only public API),
# so a change that breaks the public API fails `make test`. They build in the main build's folder,
# .build: an example is another root package, but the targets it shares with Tessera's own build
# (Tessera's library modules, SwiftNIO, Hummingbird…) compile with the same commands there, so
# only the example's own code compiles (24 s for ThumbnailService after `make test`'s debug
# build; in a folder of their own, .build-examples, the first example built every dependency
# again: 315 s of a CI run), and the main build after them finds itself up to date.
#
# Then, unless EXAMPLES_E2E=0: FeedThumbnails against the embedded server (`tessera serve
# --port 0`, the debug build `make test` has already made), once healthy and once with every
# image failing, checking its summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build
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
service=""
proxy=""
cleanup() {
  if [ -n "$proxy" ]; then kill "$proxy" 2>/dev/null || true; wait "$proxy" 2>/dev/null || true; fi
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  if [ -n "$service" ]; then kill "$service" 2>/dev/null || true; wait "$service" 2>/dev/null || true; fi
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

# ThumbnailService: the tour (headers, an image id, processors, held bytes, an encoder against a
# private origin that answers 401 without the token), then the service over the feed server's
# first photo: 200 with an ETag and a day's Cache-Control, 304 for that ETag, 400 for a bad width.
"$scratch/debug/pipeline-tour" >"$work/tour" 2>&1 || {
  cat "$work/tour" >&2
  echo "build-examples: pipeline-tour failed" >&2
  exit 1
}
grep -q "^✓ every step as expected$" "$work/tour" || { cat "$work/tour" >&2; exit 1; }
serve
mkfifo "$work/service-port"
"$scratch/debug/thumbnail-service" 0 >"$work/service-port" 2>"$work/service.log" &
service=$!
read -r -t 60 line <"$work/service-port" || { cat "$work/service.log" >&2; exit 1; }
service_url=${line#listening on }
python3 - "$url" "$service_url" <<'PY' || status=$?
import re, sys, urllib.error, urllib.parse, urllib.request
origin, service = sys.argv[1], sys.argv[2]
# Flickr's feed format escapes quotes JSON does not know (\'): the first photo's URL by pattern.
feed = urllib.request.urlopen(
    origin + "services/feeds/photos_public.gne?format=json&nojsoncallback=1").read().decode()
photo = re.search(r'"m"\s*:\s*"([^"]+)"', feed).group(1).replace("\\/", "/")
thumb = service + "thumb?" + urllib.parse.urlencode({"url": photo, "w": 200, "format": "webp"})
first = urllib.request.urlopen(thumb)
body, etag = first.read(), first.headers["ETag"]
assert first.headers["Content-Type"] == "image/webp" and body[:4] == b"RIFF", first.headers
assert "max-age=86400" in first.headers["Cache-Control"] and etag, first.headers
try:
    urllib.request.urlopen(urllib.request.Request(thumb, headers={"If-None-Match": etag}))
    sys.exit("a matching If-None-Match did not get 304")
except urllib.error.HTTPError as error:
    assert error.code == 304, error.code
try:
    urllib.request.urlopen(service + "thumb?" + urllib.parse.urlencode({"url": photo, "w": 5}))
    sys.exit("a width of 5 was served")
except urllib.error.HTTPError as error:
    assert error.code == 400, error.code
print(f"build-examples: ThumbnailService served {len(body)} bytes of WebP, then 304, then 400")
PY
# Behind nginx's proxy_cache, as README's "Behind a cache or proxy" configures it: the first
# thumbnail is a MISS, the second a HIT that never reaches the service, a conditional request a
# 304 from the cache.
if [ "${status:-0}" = 0 ]; then
  nginx_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  service_port=${service_url#http://127.0.0.1:}
  service_port=${service_port%/}
  mkdir -p "$work/nginx"
  cat >"$work/nginx/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 64; }
http {
  log_format cache '\$upstream_cache_status \$status \$request_uri';
  access_log $work/nginx/access.log cache;
  client_body_temp_path $work/nginx/client-body;
  proxy_temp_path $work/nginx/proxy-temp;
  fastcgi_temp_path $work/nginx/fastcgi-temp;
  uwsgi_temp_path $work/nginx/uwsgi-temp;
  scgi_temp_path $work/nginx/scgi-temp;
  proxy_cache_path $work/nginx/cache levels=1:2 keys_zone=thumbs:10m max_size=100m inactive=1h use_temp_path=off;
  server {
    listen 127.0.0.1:$nginx_port;
    location = /ready { return 204; }
    location / {
      proxy_pass http://127.0.0.1:$service_port;
      proxy_http_version 1.1;
      proxy_cache thumbs;
      proxy_cache_revalidate on;
      proxy_cache_lock on;
      add_header X-Cache-Status \$upstream_cache_status always;
    }
  }
}
CONF
  nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
  proxy=$!
  python3 - "$url" "http://127.0.0.1:$nginx_port/" <<'PY' || status=$?
import re, sys, time, urllib.error, urllib.parse, urllib.request
origin, proxy = sys.argv[1], sys.argv[2]
deadline = time.monotonic() + 60
while True:
    try:
        if urllib.request.urlopen(proxy + "ready", timeout=5).status == 204:
            break
    except OSError:
        pass
    if time.monotonic() > deadline:
        sys.exit("nginx did not answer within 60 s")
    time.sleep(0.05)
feed = urllib.request.urlopen(
    origin + "services/feeds/photos_public.gne?format=json&nojsoncallback=1").read().decode()
photo = re.search(r'"m"\s*:\s*"([^"]+)"', feed).group(1).replace("\\/", "/")
thumb = proxy + "thumb?" + urllib.parse.urlencode({"url": photo, "w": 160, "format": "jpeg"})
first = urllib.request.urlopen(thumb)
first_body = first.read()
assert first.headers["X-Cache-Status"] == "MISS", first.headers
second = urllib.request.urlopen(thumb)
assert second.headers["X-Cache-Status"] == "HIT", second.headers
assert second.read() == first_body and first_body[:2] == b"\xff\xd8"
try:
    urllib.request.urlopen(
        urllib.request.Request(thumb, headers={"If-None-Match": first.headers["ETag"]}))
    sys.exit("a matching If-None-Match through nginx did not get 304")
except urllib.error.HTTPError as error:
    assert error.code == 304, error.code
print("build-examples: behind nginx's cache, /thumb was a MISS, then a HIT, then 304")
PY
  kill "$proxy" 2>/dev/null || true
  wait "$proxy" 2>/dev/null || true
  proxy=""
  if [ "${status:-0}" = 0 ]; then
    # The service was asked once: the HIT and the 304 came from nginx's cache.
    [ "$(grep -c ' /thumb?' "$work/nginx/access.log")" = 3 ] && [ "$(grep -c '^MISS 200 /thumb?' "$work/nginx/access.log")" = 1 ] || {
      cat "$work/nginx/access.log" "$work/nginx/error.log" >&2
      status=1
    }
  else
    cat "$work/nginx/error.log" >&2 || true
  fi
fi
kill "$service"
wait "$service" 2>/dev/null || true
service=""
stop
[ "${status:-0}" = 0 ] || { cat "$work/service.log" >&2; echo "build-examples: ThumbnailService failed" >&2; exit 1; }
