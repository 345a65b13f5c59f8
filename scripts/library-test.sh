#!/usr/bin/env bash
# Tries the README's "Using Tessera as a library" from an empty package, in the minimal Debian
# 12 root that package-test.sh installs the .deb in (issue 38): a fresh copy of it gets the
# Swift toolchain (/opt/swift) and the package mirror (/opt/swift-packages, where this
# machine's git sends https://github.com/) bind-mounted read-only, the project's HEAD sources
# (`git archive HEAD`) in /work/Tessera, and, with apt-get, first what the Swift toolchain itself
# needs on Debian 12, then exactly the packages the README's `apt install` line in that section
# names, nothing more. An empty package in /work/consumer depends on Tessera by path as the
# README says (`.package(path: "../Tessera")`, `.product(name: "TesseraImages", package:
# "Tessera")`) and loads a JPEG through `ImagePipeline.shared`, at its size and as a
# thumbnail; it is built with `swift build` and run, and its output checked.
# Prints one PASS/FAIL line a check and a summary; exits 1 when any failed.
#
#   scripts/library-test.sh          (make library-test; root, for debootstrap, chroot, mount)
#
# SWIFT_BUILD_LOCK=/tmp/swift-build.lock runs the root's `swift build` under `flock` on that
# file (a machine that allows one Swift build at a time). Not part of `make test`: it needs root,
# the network (Debian's archive) and several minutes (Tessera and its Swift dependencies are
# compiled in the root).
# The steps are scripts run in the root, in single quotes so that the root expands them:
# shellcheck disable=SC2016
set -euo pipefail
cd "$(dirname "$0")/.."
debian_root_name="library-test"
inside_path=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# shellcheck source=scripts/debian-root.sh
. scripts/debian-root.sh
started=$(date +%s)
toolchain=${SWIFT_TOOLCHAIN:-/opt/swift}
packages=${SWIFT_PACKAGES:-/opt/swift-packages}

[ "$(id -u)" -eq 0 ] || {
  echo "library-test: needs root (debootstrap, chroot, mount)" >&2
  exit 1
}
[ -x "$toolchain/usr/bin/swift" ] || {
  echo "library-test: no Swift toolchain in $toolchain (SWIFT_TOOLCHAIN)" >&2
  exit 1
}
command -v vips >/dev/null 2>&1 || {
  echo "library-test: installing libvips-tools (the test photo is made on the host)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libvips-tools >/dev/null
}

# What the README tells a consumer to install: the `apt install` line of its library section.
readme_packages=$(awk '/^## Using Tessera as a library/ { on = 1; next } /^## / { on = 0 }
  on && /^apt install / { sub(/^apt install /, ""); print; exit }' README.md)
[ -n "$readme_packages" ] || {
  echo "library-test: README.md's \"Using Tessera as a library\" names no \`apt install\` line" >&2
  exit 1
}
# What the toolchain itself needs on Debian 12 (swift.org's list, less what only the REPL,
# LLDB or FoundationNetworking use): the linker (binutils' gold), the C runtime and headers
# clang compiles and links with, git for SwiftPM, and the libraries swift-build links.
toolchain_packages="binutils libc6-dev libgcc-12-dev libstdc++-12-dev git libcurl4 libxml2 libsqlite3-0 libncurses6"

debian_root_ensure
debian_root_fresh "$cache/library-run"
debian_root_mount_basics
bind --bind "$toolchain" "$run/opt/swift"
mount -o remount,bind,ro "$run/opt/swift"
bind --bind "$packages" "$run$packages"
mount -o remount,bind,ro "$run$packages"
# The host's redirects of GitHub to the mirror, as the root's system git configuration.
git config --get-regexp '^url\..*\.insteadof$' | while read -r key value; do
  git config --file "$run/etc/gitconfig" --add "$key" "$value"
done

mkdir -p "$run/work/Tessera" "$run/work/consumer/Sources/consumer"
git archive HEAD | tar -x -C "$run/work/Tessera"
head_commit=$(git rev-parse --short=12 HEAD)
# A JPEG made on the host by libvips (640x480, grey), for the consumer to load.
vips black "$cache/black.v" 640 480 --bands 3
vips linear "$cache/black.v" "$run/work/consumer/photo.jpg" 1 96 --uchar
rm -f "$cache/black.v"

cat >"$run/work/consumer/Package.swift" <<'EOF'
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "consumer",
  dependencies: [
    .package(path: "../Tessera")
  ],
  targets: [
    .executableTarget(
      name: "consumer",
      dependencies: [.product(name: "TesseraImages", package: "Tessera")])
  ]
)
EOF
cat >"$run/work/consumer/Sources/consumer/main.swift" <<'EOF'
import Foundation
import TesseraImages

let url = URL(fileURLWithPath: CommandLine.arguments[1])
let image = try await ImagePipeline.shared.image(
  for: ImageRequest(url: url, source: .localFolder))
print("image \(image.width)x\(image.height)")
let thumbnail = try await ImagePipeline.shared.image(
  for: ImageRequest(
    url: url, targetSize: PixelSize(width: 160, height: 160), source: .localFolder))
print("thumbnail \(thumbnail.width)x\(thumbnail.height)")
EOF

SHOW_LINES=3 check "apt-get install the toolchain's needs: $toolchain_packages" "
  apt-get update -qq && apt-get install -y --no-install-recommends $toolchain_packages \
    >/tmp/apt.log && grep 'newly installed' /tmp/apt.log && swift --version" 'Swift version'
# Nothing of Tessera's yet: the build must fail without the README's packages, or the list
# would prove nothing.
SHOW_LINES=2 check "before the README's packages: no libvips, Exempi or libjpeg headers" '
  present=0
  for header in vips/vips.h exempi-2.0/exempi/xmp.h jpeglib.h png.h zlib.h; do
    if [ -e "/usr/include/$header" ]; then echo "present: $header"; present=$((present + 1)); fi
  done
  if command -v pkg-config >/dev/null; then echo "present: pkg-config"; present=$((present + 1)); fi
  echo "$present present"' '^0 present$'
SHOW_LINES=3 check "apt-get install (README): $readme_packages" "
  apt-get install -y --no-install-recommends $readme_packages >/tmp/apt.log \
    && grep 'newly installed' /tmp/apt.log && echo installed" '^installed$'
build='cd /work/consumer && swift build 2>&1 | tee /tmp/build.log | grep -E "error|warning: .*consumer|Compiling consumer|Build complete" | tail -20; exit "${PIPESTATUS[0]}"'
if [ -n "${SWIFT_BUILD_LOCK:-}" ]; then
  echo "library-test: waiting for $SWIFT_BUILD_LOCK"
  exec {lock}>"$SWIFT_BUILD_LOCK"
  flock "$lock"
fi
SHOW_LINES=20 check "swift build (the empty package, Tessera by path at ${head_commit})" "$build" \
  'Build complete'
[ -n "${lock:-}" ] && exec {lock}>&-
check "run: an image and a thumbnail through ImagePipeline.shared" \
  'cd /work/consumer && .build/debug/consumer photo.jpg' '^image 640x480$' '^thumbnail 160x120$'

debian_root_summary \
  "library-test summary (Tessera at $head_commit, $(date -u '+%Y-%m-%d %H:%M UTC'))" \
  "  $(inside 'swift --version 2>/dev/null | head -1'); Debian $(cat "$run/etc/debian_version")"
