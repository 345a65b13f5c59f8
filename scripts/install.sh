#!/usr/bin/env bash
# Installs tessera: the binary, its man page and its bash, zsh and fish completions.
#
#   scripts/install.sh [PREFIX]        (make install PREFIX=~/.local; default /usr/local)
#
# CONFIGURATION=debug installs a debug build (the tests do, to save a release build);
# DESTDIR stages the tree for a package, as usual; SCRATCH_PATH builds elsewhere than .build
# (scripts/package.sh: .build-release, so it never waits on a debug build's lock).
# swift-argument-parser writes both the completions (`tessera --generate-completion-script
# SHELL`) and the man page (its `generate-manual` plugin, which builds every product in
# release); without the plugin, or with TESSERA_MAN_FALLBACK=1, scripts/man-page.py writes
# the page from `tessera --experimental-dump-help`.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-${PREFIX:-/usr/local}}
configuration=${CONFIGURATION:-release}
scratch=${SCRATCH_PATH:-.build}
root="${DESTDIR:-}$prefix"

# A release links the Swift runtime in (as `make build`): no toolchain needed beside it.
static=()
[ "$configuration" = release ] && static=(--static-swift-stdlib)
swift build -c "$configuration" --product tessera "${static[@]}" --scratch-path "$scratch"
binary="$scratch/$configuration/tessera"

install -d "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
  "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d"
install -m 0755 "$binary" "$root/bin/tessera"

"$binary" --generate-completion-script bash >"$root/share/bash-completion/completions/tessera"
"$binary" --generate-completion-script zsh >"$root/share/zsh/site-functions/_tessera"
"$binary" --generate-completion-script fish >"$root/share/fish/vendor_completions.d/tessera.fish"

man_folder=$(mktemp -d)
trap 'rm -rf "$man_folder"' EXIT
if [ -z "${TESSERA_MAN_FALLBACK:-}" ] &&
  swift package --scratch-path "$scratch" plugin --allow-writing-to-directory "$man_folder" \
    generate-manual --product tessera --output-directory "$man_folder" >/dev/null 2>&1 &&
  [ -s "$man_folder/tessera.1" ]; then
  install -m 0644 "$man_folder/tessera.1" "$root/share/man/man1/tessera.1"
else
  "$binary" --experimental-dump-help | python3 scripts/man-page.py >"$root/share/man/man1/tessera.1"
fi
echo "installed tessera $("$binary" --version) in $root"
