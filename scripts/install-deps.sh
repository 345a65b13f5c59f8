#!/usr/bin/env bash
# Installs, from Debian's packages, what Tessera needs and the machine lacks; installs nothing
# when everything is present. Needs the Swift toolchain already (swift.org's Linux build).
set -euo pipefail

need=()
pkg-config --exists vips 2>/dev/null || need+=(libvips-dev)
# Shared thumbnails are read with libpng itself (libvips-dev pulls it in; named all the same).
pkg-config --exists libpng16 2>/dev/null || need+=(libpng-dev)
# kitty's compressed uploads and PNG checksums are zlib's (libpng-dev pulls it in too).
pkg-config --exists zlib 2>/dev/null || need+=(zlib1g-dev)
# Photos' JPEGs are decoded with libjpeg-turbo itself (libvips-dev pulls it in too).
pkg-config --exists libjpeg 2>/dev/null || need+=(libjpeg-dev)
command -v vipsthumbnail >/dev/null 2>&1 || need+=(libvips-tools)
# XMP is read (and written, for culling) with Exempi, Adobe's XMP Toolkit behind a C API;
# the tests check it against exiftool, the reference reader and writer.
pkg-config --exists exempi-2.0 2>/dev/null || need+=(libexempi-dev)
command -v exiftool >/dev/null 2>&1 || need+=(libimage-exiftool-perl)
# exiv2, what darktable and digiKam read sidecars with, reads back what Tessera writes.
command -v exiv2 >/dev/null 2>&1 || need+=(exiv2)
command -v tmux >/dev/null 2>&1 || need+=(tmux)
# The end-to-end tests serve a hostile web site with Python's http.server.
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
# `tessera serve` is tested behind nginx's proxy_cache, run by the test as its own child.
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
# The real-terminal tests run the gallery in xterm and mlterm (sixel), kitty (software GL) and Konsole on
# an Xvfb display, type with xdotool and read the screen with ImageMagick's import.
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
command -v xterm >/dev/null 2>&1 || need+=(xterm)
command -v kitty >/dev/null 2>&1 || need+=(kitty)
command -v mlterm >/dev/null 2>&1 || need+=(mlterm)
# One xterm test puts pv between the gallery's pseudo-terminal and xterm's, a 2-Mbit/s link.
command -v pv >/dev/null 2>&1 || need+=(pv)
# Konsole (kitty's protocol and iTerm2's) runs them inside tmux, whose copy of the pane is the
# text: Konsole 22.12 has no way to read its own.
command -v konsole >/dev/null 2>&1 || need+=(konsole)
command -v script >/dev/null 2>&1 || need+=(bsdutils)
command -v import >/dev/null 2>&1 || need+=(imagemagick)
command -v xdotool >/dev/null 2>&1 || need+=(xdotool)
command -v xwininfo >/dev/null 2>&1 || need+=(x11-utils)
# A folder's videos are shown by posters from the desktop's own thumbnailer entry
# (ffmpegthumbnailer's); the tests make their videos with ffmpeg.
command -v ffmpegthumbnailer >/dev/null 2>&1 || need+=(ffmpegthumbnailer)
command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
# The Trash is checked against the desktops' own: GNOME's gio trashes what Tessera restores,
# and KDE's ktrash5 restores what Tessera trashed.
command -v gio >/dev/null 2>&1 || need+=(libglib2.0-bin)
command -v ktrash5 >/dev/null 2>&1 || need+=(kio)
# Xvfb and xterm need the "fixed" and 6x13 fonts; kitty Mesa's software renderer. The real
# terminals are pinned to DejaVu Sans Mono whatever the machine's default monospace is (with
# Noto Sans Mono, mlterm's cells grow and its window outgrows the screen): that font itself.
[ -e /usr/share/fonts/X11/misc/fonts.dir ] || need+=(xfonts-base)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || need+=(fonts-dejavu-core)
ls /usr/lib/*/dri/swrast_dri.so >/dev/null 2>&1 || need+=(libgl1-mesa-dri)

if ((${#need[@]} == 0)); then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || {
    echo "install-deps: need root (or sudo) to install: ${need[*]}" >&2
    exit 1
  }
  sudo="sudo"
fi
echo "install-deps: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
