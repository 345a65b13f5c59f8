#!/usr/bin/env bash
# The gallery built with AddressSanitizer, driven as a person would for SECONDS (default 600)
# in tmux: flings, pages, layout switches, column changes, detail views and refreshes, over a
# 100,000-photo tree (hard links to 24 photo-like 12-MP JPEGs) and a folder of broken files.
# Any AddressSanitizer report, or the gallery dying, fails the run.
#
#   scripts/asan-soak.sh [SECONDS]
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
[[ "$seconds" =~ ^[0-9]+$ ]] && ((seconds >= 10 && seconds <= 7200)) || {
  echo "asan-soak: SECONDS is 10 to 7200" >&2
  exit 2
}
work=${SOAK_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tessera/asan-soak}
tree="$work/photos-100000"
broken="$work/broken"
mkdir -p "$work"

if [ ! -e "$tree/.complete" ]; then
  echo "asan-soak: making the 100,000-photo tree in $tree (once)" >&2
  rm -rf "$tree" && mkdir -p "$tree/originals"
  for i in $(seq 0 23); do
    # Photo-like: a smooth colour field (upscaled noise) under a fine grain, 4000x3000.
    vips gaussnoise "$work/r.v" 500 375 --sigma 40 --mean $((90 + i * 3)) &&
      vips gaussnoise "$work/g.v" 500 375 --sigma 40 --mean 128 &&
      vips gaussnoise "$work/b.v" 500 375 --sigma 40 --mean $((160 - i * 3)) &&
      vips bandjoin "$work/r.v $work/g.v $work/b.v" "$work/rgb.v" &&
      vips resize "$work/rgb.v" "$work/big.v" 8 --kernel cubic &&
      vips gaussnoise "$work/grain.v" 4000 3000 --sigma 2 --mean 0 &&
      vips add "$work/big.v" "$work/grain.v" "$work/sum.v" &&
      vips cast "$work/sum.v" "$tree/originals/p$i.jpg[Q=88]" uchar || exit 1
  done
  rm -f "$work"/*.v
  python3 - "$tree" <<'PY' || exit 1
import os, sys
tree = sys.argv[1]
originals = sorted(os.listdir(os.path.join(tree, "originals")))
for index in range(100_000):
    folder = os.path.join(tree, "d%03d" % (index // 1000))
    os.makedirs(folder, exist_ok=True)
    os.link(os.path.join(tree, "originals", originals[index % len(originals)]),
            os.path.join(folder, "photo-%06d.jpg" % index))
PY
  touch "$tree/.complete"
fi

rm -rf "$broken" && mkdir -p "$broken"
good="$tree/originals/p0.jpg"
head -c 100000 "$good" >"$broken/truncated.jpg"
head -c 0 /dev/null >"$broken/empty.jpg"
head -c 65536 /dev/urandom >"$broken/random.png"
head -c 65536 /dev/urandom >"$broken/random.heic"
{ printf '\x89PNG\r\n\x1a\n'; head -c 4000 /dev/urandom; } >"$broken/bad-chunks.png"
{ printf '\xff\xd8\xff\xe1\x7f\xffExif\0\0II*\0'; head -c 3000 /dev/urandom; } >"$broken/bad-exif.jpg"
{ printf '\0\0\0\x18ftypheic\0\0\0\0mif1heic'; head -c 3000 /dev/urandom; } >"$broken/bad-boxes.heic"
cp "$good" "$broken/fine.jpg"

swift build --sanitize=address --scratch-path .build-address --product tessera >/dev/null || exit 1
binary=$(swift build --sanitize=address --scratch-path .build-address --show-bin-path)/tessera
reports="$work/asan-reports"
rm -rf "$reports" && mkdir -p "$reports"
socket="tessera-soak-$$"
cleanup() { tmux -L "$socket" kill-server 2>/dev/null; }
trap cleanup EXIT
tmux -L "$socket" -f /dev/null new-session -d -x 160 -y 48 \
  "env ASAN_OPTIONS=detect_leaks=0:log_path=$reports/asan XDG_CACHE_HOME=$work/cache \
   $binary $tree $broken; echo gallery-exited-\$?; sleep 3600"
keys=(j j j j J k k Space Space PPage NPage 2 3 1 + + - Enter Escape l l h G g r Enter Escape)
end=$((SECONDS + seconds))
presses=0
while ((SECONDS < end)); do
  for key in "${keys[@]}"; do
    case "$key" in
    J) for _ in $(seq 20); do tmux -L "$socket" send-keys j; done ;;  # a fling
    *) tmux -L "$socket" send-keys "$key" ;;
    esac
    presses=$((presses + 1))
    sleep 0.2
  done
  if tmux -L "$socket" capture-pane -p | grep -q gallery-exited; then break; fi
done
screen=$(tmux -L "$socket" capture-pane -p)
tmux -L "$socket" send-keys q
sleep 2
status=0
if echo "$screen" | grep -q gallery-exited; then
  echo "asan-soak: the gallery exited during the soak:" >&2
  echo "$screen" | tail -5 >&2
  status=1
fi
if ls "$reports"/asan* >/dev/null 2>&1; then
  echo "asan-soak: AddressSanitizer reported:" >&2
  cat "$reports"/asan* | head -60 >&2
  status=1
fi
echo "asan-soak: $presses key presses over $seconds s, $(ls "$reports" | wc -l) reports"
exit "$status"
