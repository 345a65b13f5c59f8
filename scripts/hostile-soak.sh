#!/usr/bin/env bash
# Makes a folder of generated decode bombs of every kind the decoder has a budget for, and
# runs the gallery on each alone and on all of them together (in tmux, half blocks): the
# peak RSS (VmHWM) of each run, the time until the screen settles, and the time `q` takes to
# end the gallery. Fails over the budgets: 256 MB for one file, 512 MB for the folder, `q`
# within 200 ms (a debug build's figures are printed as they are; the budgets hold for it).
#
#   scripts/hostile-soak.sh [TESSERA_BINARY]   (default .build/debug/tessera, built if missing)
set -uo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/debug/tessera}
[ -x "$binary" ] || swift build --product tessera >/dev/null || exit 1
binary=$(realpath "$binary")
work=$(mktemp -d /tmp/tessera-hostile-soak-XXXXXX)
socket="tessera-hostile-soak-$$"
cleanup() {
  tmux -L "$socket" kill-server 2>/dev/null
  [ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT

# The bombs, made here (none is committed): each small on disk, each once expensive.
mkdir -p "$work/all"
python3 - "$work/all" <<'PY' || exit 1
import struct, sys, zlib
folder = sys.argv[1]
def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
def png(text_chunks):
    width = height = 64
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    text = zlib.compress(b"A" * (8 * 1024 * 1024 - 1024), 9)
    for index in range(text_chunks):
        out += chunk(b"zTXt", b"Comment%d\x00\x00" % index + text)
    rows = b"".join(b"\x00" + bytes([row * 3 % 256, 100, 200]) * width for row in range(height))
    return out + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
# 130 zTXt chunks of just under libpng's 8 MB each: 1 MB on disk.
open(f"{folder}/ztxt-bomb.png", "wb").write(png(130))
# XMP packets of just under the 1 MiB parsed (XMPPacket.maxPacketBytes), in PNG iTXt chunks
# (where the date of a PNG is read): 24,000 attributes on one description, 36,000 sibling
# elements, and entities that would expand to gigabytes (billion laughs).
def xmp_png(packet):
    assert len(packet) < 1 << 20
    whole = png(0)
    idat = whole.rindex(b"IDAT") - 4
    itxt = chunk(b"iTXt", b"XML:com.adobe.xmp\x00\x00\x00\x00\x00" + packet)
    return whole[:idat] + itxt + whole[idat:]
head = (b'<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">'
        b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">')
tail = b'</rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
date = b' xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:DateTimeOriginal="2011-06-14T15:47:00"'
attributes = b"".join(b' xmlns:n%d="urn:n%d" n%d:a="%d"' % (i, i, i, i) for i in range(24000))
open(f"{folder}/xmp-attributes.png", "wb").write(xmp_png(
    head + b'<rdf:Description rdf:about=""' + date + attributes + b"/>" + tail))
elements = b"".join(b"<dc:e%d>%d</dc:e%d>" % (i, i, i) for i in range(36000))
open(f"{folder}/xmp-elements.png", "wb").write(xmp_png(
    head + b'<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"' + date + b">"
    + elements + b"</rdf:Description>" + tail))
laughs = b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY l0 "' + b"lol" * 250_000 + b'">'
laughs += b"".join(b'<!ENTITY l%d "%s">' % (i, b"".join(b"&l%d;" % (i - 1) for _ in range(10))) for i in range(1, 10))
open(f"{folder}/xmp-laughs.png", "wb").write(xmp_png(
    laughs + head + b'<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"'
    + date + b"><dc:description>&l9;</dc:description></rdf:Description>" + tail))
# A GIF whose logical screen claims 10000x10000 around a 1x1 image.
gif = b"GIF89a" + struct.pack("<HH", 10000, 10000) + b"\x00\x00\x00"
gif += b"\x2c" + struct.pack("<HHHH", 0, 0, 1, 1) + b"\x00" + b"\x02\x02\x44\x01\x00" + b"\x3b"
open(f"{folder}/screen-lies.gif", "wb").write(gif)
PY
# A progressive JPEG of 10000x10000 (587 KB; libjpeg's coefficients alone 287 MiB).
vips black "$work/all/progressive-bomb.jpg[interlace,Q=50]" 10000 10000 --bands 3 || exit 1
for copy in 2 3 4; do
  for bomb in ztxt-bomb.png progressive-bomb.jpg; do
    cp "$work/all/$bomb" "$work/all/${copy}-$bomb"
  done
done

failures=0
# run FOLDER LIMIT_MB: the gallery on FOLDER until its status bar says nothing is in flight
# (at most 120 s), then q; prints peak RSS, seconds to settle and milliseconds q took.
run() {
  local folder=$1 limit=$2 pid="" screen start settled quit_start quit_ms hwm loaded failed
  local idle=0 photos="" scrolled=""
  # The shell says when the gallery has ended (its pane then shows the line).
  tmux -L "$socket" new-session -d -x 120 -y 30 \
    "'$binary' '$folder' --graphics blocks --no-disk-cache; echo tessera-ended; sleep 60"
  start=$(date +%s%N)
  for _ in $(seq 1200); do
    if [ -z "$pid" ]; then
      pid=$(pgrep -P "$(tmux -L "$socket" list-panes -F '#{pane_pid}' 2>/dev/null | head -1)" |
        head -1)
    fi
    screen=$(tmux -L "$socket" capture-pane -p 2>/dev/null)
    # Settled: every photo of the folder loaded or failed, nothing in flight.
    photos=$(grep -oE 'photos [0-9]+–[0-9]+ of [0-9]+' <<<"$screen" | grep -oE '[0-9]+$')
    loaded=$(grep -oE '✓ [0-9]+ loaded' <<<"$screen" | grep -oE '[0-9]+')
    failed=$(grep -oE '✗ [0-9]+ failed' <<<"$screen" | grep -oE '[0-9]+')
    if [ -n "$photos" ] && [ -n "$loaded" ] && [ -n "$failed" ] &&
      ((loaded + failed >= photos)) && grep -q "⟳ 0 in flight" <<<"$screen"; then
      break
    fi
    # (An animated GIF counts once it plays: nothing in flight for 3 s is settled too.)
    if grep -q "⟳ 0 in flight" <<<"$screen"; then
      idle=$((idle + 1))
      # Photos below the first screen load once they are scrolled to.
      if ((idle >= 10)) && [ -z "$scrolled" ] && [ -n "$photos" ] &&
        ((${loaded:-0} + ${failed:-0} < photos)); then
        tmux -L "$socket" send-keys End
        scrolled=1 idle=0
      fi
      ((idle >= 30)) && break
    else
      idle=0
    fi
    sleep 0.1
  done
  settled=$((($(date +%s%N) - start) / 1000000))
  hwm=$(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$pid/status" 2>/dev/null)
  quit_start=$(date +%s%N)
  tmux -L "$socket" send-keys q
  for _ in $(seq 2000); do
    tmux -L "$socket" capture-pane -p 2>/dev/null | grep -q tessera-ended && break
    sleep 0.005
  done
  quit_ms=$((($(date +%s%N) - quit_start) / 1000000))
  tmux -L "$socket" kill-server 2>/dev/null
  local verdict=ok
  if [ -z "$hwm" ] || ((hwm > limit || quit_ms > 200)); then
    verdict="OVER BUDGET (${limit} MB, 200 ms)"
    failures=$((failures + 1))
  elif [ -z "$photos" ] || ((${loaded:-0} + ${failed:-0} < photos)); then
    verdict="NOT SETTLED (${photos:-no} photos shown)"
    failures=$((failures + 1))
  fi
  printf 'hostile-soak: %-28s peak %5s MB, %s loaded, %s failed in %6d ms, q in %4d ms: %s\n' \
    "$(basename "$folder")" "${hwm:-?}" "${loaded:-?}" "${failed:-?}" "$settled" "$quit_ms" \
    "$verdict"
  grep -E '✗' <<<"$screen" | grep -v 'failed' | head -3 | sed 's/^/    /' 
}

singles=(ztxt-bomb.png progressive-bomb.jpg screen-lies.gif xmp-attributes.png xmp-elements.png
  xmp-laughs.png)
for name in "${singles[@]}"; do
  file="$work/all/$name"
  single="$work/$(basename "$file").alone"
  mkdir -p "$single" && cp "$file" "$single/"
  run "$single" 256
done
run "$work/all" 512
echo "$((${#singles[@]} + 1 - failures)) passed, $failures failed"
((failures == 0))
