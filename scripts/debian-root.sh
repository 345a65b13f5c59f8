# shellcheck shell=bash
# The minimal Debian 12 root that scripts/package-test.sh and scripts/library-test.sh work in,
# sourced by both (bash; the caller has `set -euo pipefail` and runs from the project's top):
# debootstrapped once (--variant=minbase bookworm, about a minute from deb.debian.org) into
# .build-package-test/root, then copied fresh for each run, with /proc, /dev and the apt
# archive mounted and unmounted on exit.
#
#   debian_root_ensure            the cached root, made when missing
#   debian_root_fresh FOLDER      a fresh copy of it in FOLDER (the `run` variable names it)
#   bind MOUNT-ARGS… TARGET       mount TARGET, unmounted on exit (last mounted, first unmounted)
#   debian_root_mount_basics      /proc, /dev, /dev/pts and the shared apt archive in `run`
#   inside SCRIPT                 bash -c SCRIPT in `run`, with a clean environment; PATH is
#                                 `inside_path` (default: the system's folders only)
#   check NAME SCRIPT PATTERN…    SCRIPT inside; PASS when it exits 0 and prints every PATTERN
#                                 (grep -E); its last SHOW_LINES lines (12) are shown
#   debian_root_summary HEADING LINE…  the heading, the lines, every check's result and the
#                                 counts; fails when a check failed
#
# Everything downloaded comes from Debian's archive (DEBIAN_MIRROR, default deb.debian.org).
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=.build-package-test
debian_root_name=${debian_root_name:-debian-root}
inside_path=${inside_path:-/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin}
run=""
started=${started:-$(date +%s)}
mounted=()

debian_root_ensure() {
  mkdir -p "$cache/archives/partial"
  [ -x "$cache/root/usr/bin/apt-get" ] && return 0
  command -v debootstrap >/dev/null 2>&1 || {
    echo "$debian_root_name: installing debootstrap" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  }
  echo "$debian_root_name: debootstrap --variant=minbase bookworm (cached in $cache/root)"
  rm -rf "$cache/root" "$cache/root.tmp"
  local t0
  t0=$(date +%s)
  debootstrap --variant=minbase bookworm "$cache/root.tmp" "$mirror" >"$cache/debootstrap.log" 2>&1 || {
    tail -20 "$cache/debootstrap.log" >&2
    return 1
  }
  cat >"$cache/root.tmp/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${mirror%/debian}/debian-security bookworm-security main
EOF
  mv "$cache/root.tmp" "$cache/root"
  echo "$debian_root_name: debootstrap took $(($(date +%s) - t0)) s"
}

debian_root_fresh() {
  run=$1
  # A run killed before its unmounting leaves its mounts (/dev, the toolchain): never delete
  # through them.
  if grep -q " $(realpath -m "$run")/" /proc/mounts; then
    echo "$debian_root_name: $run still has mounts (see /proc/mounts); unmount them first" >&2
    return 1
  fi
  rm -rf "$run"
  cp -a "$cache/root" "$run"
  cp /etc/resolv.conf "$run/etc/resolv.conf"
}

debian_root_unmount() {
  local index
  for ((index = ${#mounted[@]} - 1; index >= 0; index--)); do
    umount -l "${mounted[index]}" 2>/dev/null || true
  done
  mounted=()
}
trap debian_root_unmount EXIT
trap 'exit 130' INT TERM

bind() {
  mkdir -p "${*: -1}"
  mount "$@"
  mounted+=("${*: -1}")
}

debian_root_mount_basics() {
  bind -t proc proc "$run/proc"
  bind --bind /dev "$run/dev"
  bind --bind /dev/pts "$run/dev/pts"
  bind --bind "$cache/archives" "$run/var/cache/apt/archives"
}

inside() {
  chroot "$run" /usr/bin/env -i PATH="$inside_path" \
    HOME=/root TERM=xterm-256color LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/bash -c "$1"
}

passed=0
failed=0
results=()
check() {
  local name=$1 script=$2 output t0 milliseconds seconds status=0 pattern missing=""
  shift 2
  t0=$(date +%s%N)
  output=$(inside "$script" 2>&1) || status=$?
  milliseconds=$((($(date +%s%N) - t0) / 1000000))
  seconds="$((milliseconds / 1000)).$((milliseconds % 1000 / 100))"
  for pattern in "$@"; do
    grep -qE -- "$pattern" <<<"$output" || missing+=" /$pattern/"
  done
  if [ "$status" -eq 0 ] && [ -z "$missing" ]; then
    passed=$((passed + 1))
    results+=("PASS  $name (${seconds} s)")
    echo "$debian_root_name: PASS $name (${seconds} s)"
  else
    failed=$((failed + 1))
    results+=("FAIL  $name (${seconds} s, exit $status)")
    echo "$debian_root_name: FAIL $name (exit $status, not found:${missing:- -}); output:"
  fi
  tail -n "${SHOW_LINES:-12}" <<<"$output" | sed 's/^/    | /'
}

debian_root_summary() {
  echo
  printf '%s\n' "$@"
  printf '  %s\n' "${results[@]}"
  echo "  $passed passed, $failed failed in $(($(date +%s) - started)) s"
  [ "$failed" -eq 0 ]
}
