#!/usr/bin/env bash
# Builds what a person installs without a Swift toolchain (issue 38):
#
#   dist/tessera_<version>_amd64.deb            (apt-get install ./dist/tessera_*.deb)
#   dist/tessera-<version>-linux-x86_64.tar.gz  (bin/, share/man, share/*completions, README)
#
# Both hold the release binary with the Swift runtime linked in (as `make build`), its man page
# and bash/zsh/fish completions, staged by scripts/install.sh. The version is the one
# `tessera --version` prints (Sources/tessera/Tessera.swift, read as check-release.sh reads it).
# The .deb's Depends are what dpkg-shlibdeps finds the binary linked to, plus libvips42, which
# the binary opens at run time (dlopen "libvips.so.42", then its vips-heif and vips-jxl modules
# from vips-modules-8.14 beside it, a folder named after the libvips it was built against), so
# no ELF header names it. `lintian` is run on the .deb when it is installed.
#
# What is packaged is a commit, not the working tree: COMMIT (default HEAD) is checked out in
# .build-release/source (a local clone, updated with git, so unchanged files keep their times
# and the build is incremental), with this tree's Package.resolved, and built there. Edits
# not yet committed (yours, or a colleague's half-done work) are never shipped; packaging/
# (control, copyright, overrides, the tarball's README) is read from this tree.
# SCRATCH_PATH (default .build-release) is the release build's folder: not .build, so a
# package build never waits on (or breaks) a debug build going on at the same time.
set -euo pipefail
cd "$(dirname "$0")/.."

top=$(pwd)
commit=$(git rev-parse --verify "${COMMIT:-HEAD}^{commit}")
version=$(git show "$commit:Sources/tessera/Tessera.swift" |
  sed -nE 's/.*static let version = "([^"]+)".*/\1/p')
[ -n "$version" ] || {
  echo "package: no version in Sources/tessera/Tessera.swift" >&2
  exit 1
}
arch=$(dpkg --print-architecture)
[ "$arch" = amd64 ] || {
  echo "package: only amd64 is packaged (this machine is $arch)" >&2
  exit 1
}
for tool in dpkg-shlibdeps:dpkg-dev dpkg-deb:dpkg strip:binutils; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || {
    echo "package: ${tool%%:*} is missing (apt-get install ${tool#*:})" >&2
    exit 1
  }
done
scratch=${SCRATCH_PATH:-.build-release}
mkdir -p "$scratch"
export SCRATCH_PATH
SCRATCH_PATH=$(cd "$scratch" && pwd)
# Reproducible timestamps: the commit's time for the changelog, file times and gzip.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct "$commit")}
export SOURCE_DATE_EPOCH

source_tree="$SCRATCH_PATH/source"
[ -d "$source_tree/.git" ] || git clone -q --local --no-checkout "$top" "$source_tree"
git -C "$source_tree" fetch -q "$top" "$commit"
git -C "$source_tree" checkout -q --force --detach "$commit"
git -C "$source_tree" clean -q -fdx
# The versions this tree builds with (Package.resolved is not committed).
[ ! -f Package.resolved ] || cp -p Package.resolved "$source_tree/Package.resolved"
echo "package: tessera $version from commit ${commit:0:12}"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p dist

# --- The staged tree (prefix /usr), shared by both packages --------------------------------
# The man page from `--experimental-dump-help` (scripts/man-page.py): swift-argument-parser's
# generate-manual plugin would build every product again in release, without the static runtime.
stage="$work/stage"
DESTDIR="$stage" TESSERA_MAN_FALLBACK=1 "$source_tree/scripts/install.sh" /usr
binary="$stage/usr/bin/tessera"
# Symbols out (Debian's packages ship stripped binaries; the Swift metadata stays): about a
# third of the size.
strip --remove-section=.comment --strip-unneeded "$binary"
# A completion file is sourced, never run: no "#!/bin/bash" line (lintian's
# bash-completion-with-hashbang).
sed -i '1{/^#!/d}' "$stage/usr/share/bash-completion/completions/tessera"
"$binary" --version | grep -qxF "$version" || {
  echo "package: the staged binary does not say version $version" >&2
  exit 1
}

# --- The .deb --------------------------------------------------------------------------------
deb="$work/deb"
cp -a "$stage" "$deb"
usr="$deb/usr"
# Debian's folders: zsh reads packages' completions from vendor-completions.
install -d "$usr/share/zsh/vendor-completions"
mv "$usr/share/zsh/site-functions/_tessera" "$usr/share/zsh/vendor-completions/_tessera"
rmdir "$usr/share/zsh/site-functions"
gzip -9n "$usr/share/man/man1/tessera.1"
install -d "$usr/share/doc/tessera" "$usr/share/lintian/overrides"
install -m 0644 packaging/debian/copyright "$usr/share/doc/tessera/copyright"
install -m 0644 packaging/debian/lintian-overrides "$usr/share/lintian/overrides/tessera"
changelog_date=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
# The version has no Debian revision (the project makes its own package: a native one), so the
# changelog is changelog.gz, as Debian names a native package's (lintian's
# wrong-name-for-changelog-of-native-package for changelog.Debian.gz).
cat >"$work/changelog" <<EOF
tessera ($version) unstable; urgency=medium

  * Tessera $version, built from commit $commit.
    The changes are in the project's git history.

 -- $(sed -nE 's/^Maintainer: //p' packaging/debian/control.in)  $changelog_date
EOF
gzip -9n <"$work/changelog" >"$usr/share/doc/tessera/changelog.gz"
chmod 0644 "$usr/share/doc/tessera/changelog.gz"

# dpkg-shlibdeps wants a source package around the binary: a throwaway debian/control.
shlib="$work/shlibdeps"
mkdir -p "$shlib/debian"
printf 'Source: tessera\n\nPackage: tessera\nArchitecture: any\n' >"$shlib/debian/control"
linked=$(cd "$shlib" && dpkg-shlibdeps -O -e"$usr/bin/tessera" 2>"$work/shlibdeps.log" |
  sed -nE 's/^shlibs:Depends=//p') || {
  cat "$work/shlibdeps.log" >&2
  exit 1
}
# What is opened at run time: libvips 8.14 (the modules' folder is named for the version
# built against), whose own package holds the HEIF and JPEG XL modules; their libraries are
# named too, since a module that fails to load only makes those photos fail to decode.
vips_built=$(pkg-config --modversion vips | cut -d. -f1,2)
vips_next=$(awk -F. '{ printf "%d.%d", $1, $2 + 1 }' <<<"$vips_built")
opened="libvips42 (>= $vips_built), libvips42 (<< $vips_next), libheif1, libjxl0.7"
depends="$linked, $opened"

install -d "$deb/DEBIAN"
installed_size=$(du -sk --exclude=DEBIAN "$deb" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@DEPENDS@/$depends/" \
  -e "s/@INSTALLED_SIZE@/$installed_size/" packaging/debian/control.in >"$deb/DEBIAN/control"
(cd "$deb" && find usr -type f -exec md5sum {} + | sort -k2) >"$deb/DEBIAN/md5sums"
chmod 0644 "$deb/DEBIAN/control" "$deb/DEBIAN/md5sums"
find "$deb" -type d -exec chmod 0755 {} +
find "$deb" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
deb_file="dist/tessera_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$deb" "$deb_file" >/dev/null
echo "package: $deb_file ($(du -k "$deb_file" | cut -f1) KB)"
echo "package: Depends: $depends"

# --- The tarball ---------------------------------------------------------------------------
name="tessera-$version-linux-x86_64"
tree="$work/$name"
cp -a "$stage/usr" "$tree"
install -m 0644 packaging/tarball/README "$tree/README"
sed -i "s/@VERSION@/$version/g" "$tree/README"
find "$tree" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
tar_file="dist/$name.tar.gz"
tar --sort=name --owner=0 --group=0 --numeric-owner -C "$work" -cf - "$name" |
  gzip -9n >"$tar_file"
echo "package: $tar_file ($(du -k "$tar_file" | cut -f1) KB)"
echo "$commit" >dist/built-from

if command -v lintian >/dev/null 2>&1; then
  echo "package: lintian $deb_file"
  lintian --info --display-info --pedantic "$deb_file" || {
    echo "package: lintian found errors" >&2
    exit 1
  }
  echo "package: lintian: done"
else
  echo "package: lintian is not installed (apt-get install lintian): the .deb is unchecked"
fi
