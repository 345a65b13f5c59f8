#!/usr/bin/env bash
# Proves the .deb where no Swift exists (issue 38): installs dist/tessera_<version>_amd64.deb in
# a fresh minimal Debian 12 root (debootstrap --variant=minbase bookworm) with apt, so its
# Depends are resolved as a person's apt resolves them, and runs there: `tessera --version`,
# `tessera info` on a JPEG, a HEIC and a camera RAW (CR2), `tessera doctor`, the gallery in
# tmux on a folder, `man tessera` and bash completion of a subcommand; then purges the package
# and checks that no file `dpkg -L` listed is left; last, the tarball's binary runs unpacked.
# Prints one PASS/FAIL line a check and a summary; exits 1 when any failed.
#
#   scripts/package-test.sh          (make package-test; root, for debootstrap and chroot)
#
# The .deb is built by scripts/package.sh (from HEAD) unless dist/ has one built from the same
# sources. The Debian root is cached in .build-package-test/root (debootstrap once, about a
# minute from deb.debian.org), and each run works in a fresh copy of it; downloaded .debs are
# kept in .build-package-test/archives. Not part of `make test`: it needs root, the network and a
# release build. Everything downloaded comes from Debian's archive.
# The checks are scripts run in the root, in single quotes so that the root expands them:
# shellcheck disable=SC2016
set -euo pipefail
cd "$(dirname "$0")/.."
debian_root_name="package-test"
# shellcheck source=scripts/debian-root.sh
. scripts/debian-root.sh
started=$(date +%s)

[ "$(id -u)" -eq 0 ] || {
  echo "package-test: needs root (debootstrap, chroot, mount)" >&2
  exit 1
}
for tool in debootstrap python3 exiftool vips; do
  command -v "$tool" >/dev/null 2>&1 && continue
  case $tool in
  debootstrap) package=debootstrap ;;
  exiftool) package=libimage-exiftool-perl ;;
  vips) package=libvips-tools ;;
  *) package=$tool ;;
  esac
  echo "package-test: installing $package" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null
done

version=$(git show HEAD:Sources/tessera/Tessera.swift |
  sed -nE 's/.*static let version = "([^"]+)".*/\1/p')
deb=dist/tessera_${version}_amd64.deb

# --- The package: reused when what it is built from is as at HEAD -------------------------
built_from=$(cat dist/built-from 2>/dev/null || true)
if [ -f "$deb" ] && [ -n "$built_from" ] &&
  git diff --quiet "$built_from" HEAD -- Sources Package.swift scripts/install.sh \
    scripts/man-page.py 2>/dev/null &&
  [ -z "$(find packaging scripts/package.sh -newer "$deb" -print -quit)" ]; then
  echo "package-test: reusing $deb (built from ${built_from:0:12}, the same sources as HEAD)"
else
  echo "package-test: building the packages (scripts/package.sh)"
  scripts/package.sh
fi
deb_size=$(du -k "$deb" | cut -f1)
depends=$(dpkg-deb --field "$deb" Depends)

# --- The Debian 12 root: debootstrapped once, copied fresh each run (scripts/debian-root.sh) ---
debian_root_ensure
debian_root_fresh "$cache/run"
debian_root_mount_basics

# --- Photos made on the host, by tools other than Tessera -------------------------------------
photos="$run/photos"
mkdir -p "$photos"
# A JPEG of a colour gradient (Python writes the pixels, libvips the JPEG), dated and named
# by exiftool as a camera would.
python3 - "$cache/gradient.ppm" <<'EOF'
import sys
width, height = 640, 480
pixels = bytearray()
for y in range(height):
    for x in range(width):
        pixels += bytes((x * 255 // width, y * 255 // height, (x + y) * 255 // (width + height)))
open(sys.argv[1], "wb").write(b"P6 %d %d 255\n" % (width, height) + pixels)
EOF
vips copy "$cache/gradient.ppm" "$photos/sunset.jpg[Q=85]"
exiftool -q -overwrite_original -Make=Tessera -Model="Package Test" \
  -DateTimeOriginal="2024:06:01 18:30:00" "$photos/sunset.jpg"
# HEIC through libvips' heifsave (libheif and x265), EXIF carried over from the JPEG.
vips copy "$photos/sunset.jpg" "$photos/harbour.heic[compression=hevc,Q=60]"
rm -f "$cache/gradient.ppm"
# A CR2 as a Canon camera lays it out (TIFF with "CR" at byte 8): IFD0 the sensor's size, make,
# model, an EXIF IFD with the date taken, a 160x120 JPEG strip and the orientation; IFD1 a
# thumbnail, a SubIFD the 320x240 preview, a SubIFD of lossless
# sensor data (SOF3): the same layout as the project's RawFixtures.cr2, written here in Python.
vips resize "$photos/sunset.jpg" "$cache/strip.jpg" 0.25
vips resize "$photos/sunset.jpg" "$cache/thumb.jpg" 0.05
vips resize "$photos/sunset.jpg" "$cache/large.jpg" 0.5
python3 - "$cache" "$photos/IMG_0001.CR2" <<'EOF'
import struct, sys
folder, out = sys.argv[1], sys.argv[2]
strip, thumb, large = (open(f"{folder}/{n}.jpg", "rb").read() for n in ("strip", "thumb", "large"))
sensor = bytearray(large)
sof0 = sensor.find(b"\xff\xc0")
sensor[sof0 + 1] = 0xC3  # lossless: read as sensor data, not as a preview
data = bytearray(b"II*\x00\x00\x00\x00\x00CR\x02\x00\x00\x00\x00\x00")
def append(blob):
    if len(data) % 2:
        data.append(0)
    at = len(data)
    data.extend(blob)
    return at
def ifd(entries, next_ifd=0):
    blob = struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        if kind == 3 and count == 1:
            blob += struct.pack("<HHIHH", tag, kind, count, value, 0)
        else:
            blob += struct.pack("<HHII", tag, kind, count, value)
    return append(blob + struct.pack("<I", next_ifd))
strip_at, thumb_at, large_at, sensor_at = (append(b) for b in (strip, thumb, large, bytes(sensor)))
preview = ifd([(0x103, 3, 1, 6), (0x201, 4, 1, large_at), (0x202, 4, 1, len(large))])
raw = ifd([(0x103, 3, 1, 7), (0x111, 4, 1, sensor_at), (0x117, 4, 1, len(sensor))])
sub_ifds = append(struct.pack("<II", preview, raw))
ifd1 = ifd([(0x103, 3, 1, 6), (0x201, 4, 1, thumb_at), (0x202, 4, 1, len(thumb))])
def ascii(text):
    blob = text.encode() + b"\0"
    return (2, len(blob), append(blob))
make, model = ascii("Canon"), ascii("Canon EOS Package Test")
exif = ifd([(0x9003, *ascii("2024:06:02 07:15:00"))])
ifd0 = ifd([(0x100, 4, 1, 640), (0x101, 4, 1, 480), (0x103, 3, 1, 6), (0x10F, *make),
            (0x110, *model), (0x111, 4, 1, strip_at), (0x112, 3, 1, 1),
            (0x117, 4, 1, len(strip)), (0x14A, 4, 2, sub_ifds), (0x8769, 4, 1, exif)], ifd1)
data[4:8] = struct.pack("<I", ifd0)
open(out, "wb").write(data)
EOF
rm -f "$cache"/{strip,thumb,large}.jpg
cp "$deb" "$run/root/"

# --- The checks -----------------------------------------------------------------------------
inside 'command -v swift swiftc' >/dev/null && echo "package-test: the root has a Swift toolchain?!" >&2

# Without Recommends: Depends alone must be enough.
SHOW_LINES=4 check "apt-get install ./$(basename "$deb")" \
  "apt-get update -qq && apt-get install -y --no-install-recommends ./root/$(basename "$deb") \
   >/tmp/apt.log && grep 'newly installed' /tmp/apt.log && tail -2 /tmp/apt.log \
   && dpkg-query -W -f='\${Status}\n' tessera" 'install ok installed'
check "no library missing (ldd)" '! ldd /usr/bin/tessera | grep "not found" && echo all-found' all-found
check "tessera --version" 'tessera --version' "^$version\$"
check "tessera info JPEG" 'tessera info /photos/sunset.jpg' '640x480 +2024-06-01 18:30:00 +- +Package Test'
check "tessera info HEIC" 'tessera info /photos/harbour.heic' '640x480 +2024-06-01 18:30:00 +- +Package Test'
check "tessera info RAW (CR2)" 'tessera info /photos/IMG_0001.CR2' \
  '640x480 +2024-06-02 07:15:00 +- +Canon EOS Package Test'

# Tools the remaining checks need (tmux, man, bash-completion), after tessera's own install.
SHOW_LINES=2 check "apt-get install tmux man-db bash-completion" \
  'apt-get install -y -qq --no-install-recommends tmux man-db bash-completion >/dev/null && echo ok' ok
# `tessera doctor` needs a terminal: a tmux pane, read when it has finished. In tmux without
# allow-passthrough its verdict is half blocks, which it reports with exit status 1 by design
# ("images: half blocks only (exit status 1)"); 2 or more would be its own failure.
check "tessera doctor (in tmux)" '
  tmux new-session -d -s doctor -x 120 -y 50 "tessera doctor; echo doctor-exit=\$?; sleep 60"
  for i in $(seq 1 40); do
    sleep 0.5
    tmux capture-pane -p -t doctor | grep -q "doctor-exit=" && break
  done
  screen=$(tmux capture-pane -p -t doctor -S -200)
  tmux kill-server 2>/dev/null || true
  grep -v "^$" <<<"$screen"' '^terminal +tmux' '^images +blocks' \
  'images: half blocks only \(exit status 1\)' 'doctor-exit=1$'
# The gallery in a 120x40 tmux pane: colour blocks (tmux passes no graphics here), the
# folder's three photos (JPEG, HEIC, CR2) drawn and none failed (a failed tile shows a ✗ and
# why); the pane is read until it shows them or 20 s pass.
check "gallery in tmux on /photos" '
  tmux new-session -d -s gallery -x 120 -y 40 "tessera /photos"
  for i in $(seq 1 40); do
    sleep 0.5
    screen=$(tmux capture-pane -p -t gallery)
    grep -q "✓ 3 loaded\|✗ [1-9]" <<<"$screen" && break
  done
  screen=$(tmux capture-pane -p -t gallery)
  tmux send-keys -t gallery q
  sleep 1
  tmux kill-server 2>/dev/null || true
  echo "$screen"
  echo "block cells: $(grep -o "[▀▄█]" <<<"$screen" | wc -l)"' \
  'of 3 │ ✓ 3 loaded ⟳ 0 in flight ✗ 0 failed' 'block cells: ([5-9][0-9]|[0-9]{3,})'
# `info` reads headers only; the gallery decodes. The HEIC alone, through libvips' HEIF module
# (loaded from vips-modules-8.14 at run time): its tile must be drawn, not a ✗ with a reason.
check "gallery decodes the HEIC (libvips' HEIF module)" '
  tmux new-session -d -s heic -x 100 -y 30 "tessera /photos/harbour.heic"
  for i in $(seq 1 40); do
    sleep 0.5
    tmux capture-pane -p -t heic | grep -q "✓ 1 loaded\|✗ [1-9]" && break
  done
  screen=$(tmux capture-pane -p -t heic)
  tmux kill-server 2>/dev/null || true
  echo "$screen"
  echo "block cells: $(grep -o "[▀▄█]" <<<"$screen" | wc -l)"' \
  'of 1 │ ✓ 1 loaded ⟳ 0 in flight ✗ 0 failed' 'block cells: ([5-9][0-9]|[0-9]{3,})'
check "man tessera" 'MANWIDTH=80 MANPAGER=cat man tessera 2>&1 | head -20' 'tessera'
check "bash completion of a subcommand" '
  source /usr/share/bash-completion/bash_completion
  _completion_loader tessera
  spec=$(complete -p tessera); echo "$spec"
  function=$(sed -E "s/.*-F ([^ ]+) .*/\1/" <<<"$spec")
  COMP_WORDS=(tessera in); COMP_CWORD=1; COMP_LINE="tessera in"; COMP_POINT=${#COMP_LINE}
  "$function" tessera in tessera
  echo "completions: ${COMPREPLY[*]}"' 'completions:.*\binfo\b'

# Purge, then every file dpkg listed must be gone (folders that other packages share stay).
inside 'dpkg -L tessera' >"$cache/files.txt"
SHOW_LINES=20 check "apt-get remove --purge tessera leaves no file" '
  files=$(dpkg -L tessera)
  apt-get remove --purge -y -qq tessera >/dev/null
  left=0
  while read -r path; do
    [ -d "$path" ] && continue
    if [ -e "$path" ] || [ -L "$path" ]; then echo "left: $path"; left=$((left + 1)); fi
  done <<<"$files"
  [ -e /usr/share/doc/tessera ] && { echo "left: /usr/share/doc/tessera"; left=$((left + 1)); }
  echo "$(grep -vc "^/\.\?$" <<<"$files") paths listed, $left files left"
  [ "$left" -eq 0 ]' ' 0 files left'

# The tarball in the same root: its dependencies are still there (purging tessera leaves what
# apt installed for it), so its binary must run from wherever it is unpacked.
tarball=dist/tessera-${version}-linux-x86_64.tar.gz
cp "$tarball" "$run/root/"
check "tarball: unpacked in /opt, --version and the HEIC's info" "
  tar -xzf /root/$(basename "$tarball") -C /opt
  /opt/tessera-$version-linux-x86_64/bin/tessera --version
  /opt/tessera-$version-linux-x86_64/bin/tessera info /photos/harbour.heic
  ls /opt/tessera-$version-linux-x86_64/share/man/man1" "^$version\$" '640x480' 'tessera.1'

debian_root_summary \
  "package-test summary (tessera $version, $(date -u '+%Y-%m-%d %H:%M UTC'))" \
  "  .deb: $deb, $deb_size KB; Depends: $depends"
