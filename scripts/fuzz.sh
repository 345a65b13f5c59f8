#!/usr/bin/env bash
# Builds and runs Tessera's libFuzzer harnesses.
#
#   scripts/fuzz.sh                       every harness, FUZZ_SECONDS each (default 20),
#                                         FUZZ_JOBS at once (default: the cores)
#   scripts/fuzz.sh MODULE HARNESS [SECS] one harness
#
# A Swift harness binary is one module: Fuzz/Entry.swift, Fuzz/MODULE/*.swift and MODULE's
# sources (or the files Fuzz/MODULE/sources.txt names), over FuzzShared (TesseraUtilities,
# TesseraGeometry and TesseraPhotoFormats, built once), compiled with -sanitize=fuzzer,address.
# The C shim's harness is built with clang.
# New inputs found go to .build-fuzz/corpus (the seed corpus in Fuzz/corpus stays as committed);
# a crash leaves its input in .build-fuzz/crashes and fails the run. The last line is the
# plain "N passed, N failed" count of harnesses.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/.build-fuzz"
mkdir -p "$out/bin" "$out/crashes"
seconds_default=${FUZZ_SECONDS:-20}

# The modules every harness shares (TesseraUtilities, TesseraGeometry, TesseraPhotoFormats),
# compiled once into one module, FuzzShared, with -enable-testing: a harness imports it
# `@testable` (the shared modules' own harnesses reach their internals). Compiled into each of
# six binaries they took about 45 s of each harness's build.
shared_sources=(Sources/TesseraUtilities Sources/TesseraGeometry Sources/TesseraPhotoFormats)

swiftc_fuzz() {
  swiftc -sanitize=fuzzer,address -parse-as-library -O -g -package-name Tessera -swift-version 6 \
    -I "$out/cpng" -I "$out/cjpeg" -I "$out/cprocess" -I "$out/cvipsshim" -I Sources/CExempi \
    $(pkg-config --cflags exempi-2.0 | sed 's/-I/-Xcc -I/g') "$@"
}

# Copies Swift files into folder $1, numbered, without their `import Tessera…` lines (also a
# scoped `import enum Tessera….X`): their modules are compiled in, or in FuzzShared. With $2,
# the line each copy starts with.
copy_sources() {
  local folder=$1 first=$2 i=0 f
  shift 2
  for f in "$@"; do
    i=$((i + 1))
    { [ -n "$first" ] && echo "$first"
      sed -E '/^(@testable |@_exported )?import ((enum|struct|class|protocol|func) )?Tessera[A-Za-z.]*$/d' "$f"
    } >"$folder/$i-$(basename "$f")"
  done
}

build_shared() {
  local src="$out/src/FuzzShared" files=()
  rm -rf "$src" "$out/shared" && mkdir -p "$src" "$out/shared"
  while IFS= read -r f; do files+=("$f"); done < <(find "${shared_sources[@]}" -name '*.swift' | sort)
  copy_sources "$src" "" "${files[@]}"
  if ! swiftc_fuzz -module-name FuzzShared -enable-testing -emit-module \
    -emit-module-path "$out/shared/FuzzShared.swiftmodule" -emit-library -static \
    -o "$out/shared/libFuzzShared.a" "$src"/*.swift >"$out/FuzzShared.build.log" 2>&1; then
    grep -E 'error' "$out/FuzzShared.build.log" | head -20 >&2
    return 1
  fi
}

# A harness binary: Fuzz/Entry.swift, Fuzz/MODULE/*.swift and MODULE's sources (or the files
# Fuzz/MODULE/sources.txt names, from other Tessera modules too) but the shared modules', which
# come from FuzzShared.
build_swift() {
  local module=$1 src="$out/src/$1"
  rm -rf "$src" && mkdir -p "$src"
  local files=() f
  if [ -f "Fuzz/$module/sources.txt" ]; then
    while IFS= read -r line; do
      [ -n "$line" ] && [ "${line:0:1}" != "#" ] && files+=("$line")
    done <"Fuzz/$module/sources.txt"
  else
    while IFS= read -r f; do files+=("$f"); done < <(find "Sources/$module" -name '*.swift' | sort)
  fi
  local own=()
  for f in "${files[@]}"; do
    case "$f" in
      Sources/TesseraUtilities/* | Sources/TesseraGeometry/* | Sources/TesseraPhotoFormats/*) ;;
      *) own+=("$f") ;;
    esac
  done
  copy_sources "$src" "@testable import FuzzShared" "${own[@]}" Fuzz/Entry.swift Fuzz/"$module"/*.swift
  rm -f "$out/bin/$module"
  if ! swiftc_fuzz -module-name "Fuzz$module" -I "$out/shared" "$src"/*.swift \
    "$out/shared/libFuzzShared.a" "$out"/cpng/*.o "$out"/cjpeg/*.o "$out"/cprocess/*.o \
    -lpng16 -lz -ljpeg -lexempi -o "$out/bin/$module" >"$out/$module.build.log" 2>&1; then
    grep -E 'error' "$out/$module.build.log" | head -20 >&2
    return 1
  fi
}

# CPNG (libpng and zlib), CJPEG (libjpeg-turbo) and CProcess for the Swift harnesses, which
# compile TesseraUtilities in (its PNGWriter, JPEGWriter and ChildProcess import them): their
# C files as objects instrumented like the harness, and module maps swiftc finds with -I.
build_cpng() {
  local target lower f
  # TesseraPhotoFormats' table names CVipsShim's format bits: its header only (enum
  # constants, nothing to link).
  mkdir -p "$out/cvipsshim"
  printf 'module CVipsShim {\n  header "%s/Sources/CVipsShim/include/CVipsShim.h"\n  export *\n}\n' \
    "$root" >"$out/cvipsshim/module.modulemap"
  for target in CPNG CJPEG CProcess; do
    lower=$(echo "$target" | tr '[:upper:]' '[:lower:]')
    mkdir -p "$out/$lower"
    printf 'module %s {\n  header "%s/Sources/%s/include/%s.h"\n  export *\n}\n' \
      "$target" "$root" "$target" "$target" >"$out/$lower/module.modulemap"
    for f in Sources/"$target"/*.c; do
      clang -fsanitize=fuzzer-no-link,address -g -O1 -I Sources/"$target"/include -c "$f" \
        -o "$out/$lower/$(basename "$f" .c).o" || return 1
    done
  done
}

build_shim() {
  clang -fsanitize=fuzzer,address -fuse-ld=lld -g -O1 -I Sources/CVipsShim/include \
    -I Sources/CPNG/include -I Sources/CJPEG/include -I Sources/CProcess/include \
    $(pkg-config --cflags vips) Fuzz/CVipsShim/harness.c Sources/CVipsShim/*.c \
    Sources/CPNG/*.c Sources/CJPEG/*.c Sources/CProcess/*.c -lpng16 -lz -ljpeg -ldl \
    -o "$out/bin/CVipsShim"
}

# Runs one harness; prints "fuzz: MODULE/HARNESS: N execs in S s, cov C, ft F".
run_one() {
  local module=$1 harness=$2 seconds=$3
  local corpus="$out/corpus/$harness" log="$out/$harness.log"
  mkdir -p "$corpus"
  local seeds=()
  [ -d "Fuzz/corpus/$harness" ] && seeds+=("Fuzz/corpus/$harness")
  TESSERA_FUZZ_HARNESS=$harness ASAN_OPTIONS=detect_leaks=0 "$out/bin/$module" \
    -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=4096 -timeout=10 \
    -artifact_prefix="$out/crashes/$harness-" "$corpus" "${seeds[@]}" >"$log" 2>&1
  local status=$?
  local execs cov ft
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+')
  ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+')
  if [ "$status" -ne 0 ]; then
    echo "fuzz: $module/$harness FAILED (exit $status), log: $log" >&2
    grep -E 'ERROR|SUMMARY|Fatal error|Test unit written' "$log" | head -8 >&2
    return 1
  fi
  echo "fuzz: $module/$harness: ${execs:-?} execs in ${seconds} s, cov ${cov:-?}, ft ${ft:-?}"
}

# Lists MODULE HARNESS pairs: Swift harness names are read from the binary itself.
harnesses_of() {
  local module=$1
  if [ "$module" = CVipsShim ]; then
    echo "CVipsShim shim-thumbnail"
    return
  fi
  TESSERA_FUZZ_HARNESS=--list "$out/bin/$module" -runs=1 -artifact_prefix="$out/crashes/list-" \
    2>/dev/null | sed -n "s/^harnesses: //p" | tr ',' '\n' |
    while read -r h; do [ -n "$h" ] && echo "$module $h"; done
}

modules() {
  for d in Fuzz/*/; do
    d=${d%/}
    d=${d#Fuzz/}
    [ "$d" = corpus ] && continue
    echo "$d"
  done
}

build() {
  if [ "$1" = CVipsShim ]; then build_shim; else build_swift "$1"; fi
}

if [ $# -ge 2 ]; then
  build_cpng || exit 1
  [ "$1" = CVipsShim ] || build_shared || exit 1
  build "$1" || exit 1
  run_one "$1" "$2" "${3:-$seconds_default}"
  exit $?
fi

# Every job below is single-threaded (swiftc compiles a harness in one frontend, libFuzzer
# runs one process), so JOBS of them run side by side: the builds first, then the harnesses.
# Each job's outcome is a file, counted once all have ended.
jobs_at_once=${FUZZ_JOBS:-$(nproc)}
results="$out/results"
rm -rf "$results" && mkdir -p "$results"
# Runs "$@" in the background once fewer than $jobs_at_once are running.
start_job() {
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do wait -n || true; done
  "$@" &
}
build_job() {
  if build "$1"; then touch "$results/built-$1"; else echo "fuzz: $1 did not build" >&2; fi
}
run_job() {
  if run_one "$1" "$2" "$seconds_default"; then
    touch "$results/clean-$2"
  else
    echo "$1" >"$results/crashed-$2"
  fi
}

build_cpng || { echo "fuzz: the C targets did not build" >&2; exit 1; }
all_modules=$(modules)
# The C shim's harness (clang, needing no FuzzShared) builds beside the shared modules.
start_job build_job CVipsShim
build_shared || { echo "fuzz: the shared modules did not build (log: $out/FuzzShared.build.log)" >&2; exit 1; }
for module in $all_modules; do [ "$module" = CVipsShim ] || start_job build_job "$module"; done
wait
failed=0
pairs=()
for module in $all_modules; do
  if [ -e "$results/built-$module" ]; then
    while read -r m h; do pairs+=("$m $h"); done < <(harnesses_of "$module")
  else
    failed=$((failed + 1))
  fi
done
for pair in "${pairs[@]}"; do
  read -r m h <<<"$pair"
  start_job run_job "$m" "$h"
done
wait
passed=$(find "$results" -name 'clean-*' | wc -l)
failed=$((failed + $(find "$results" -name 'crashed-*' | wc -l)))
# What failed, again at the end: a CI log shows its tail, and the harnesses' lines came in
# whatever order they ended. A crash's input is printed in base64 (the first 4 kB) so the log
# alone reproduces it.
for module in $all_modules; do
  [ -e "$results/built-$module" ] || echo "fuzz: $module did not build" \
    "(log: $out/$module.build.log)"
done
for result in "$results"/crashed-*; do
  [ -e "$result" ] || continue
  harness=${result##*/crashed-}
  echo "fuzz: $(cat "$result")/$harness FAILED; its log says:"
  grep -E 'ERROR|SUMMARY|Fatal error|out-of-memory|timeout|Test unit written' \
    "$out/$harness.log" | head -8 | sed 's/^/  /'
  for input in "$out"/crashes/"$harness"-*; do
    [ -e "$input" ] || continue
    echo "  input $(basename "$input") ($(wc -c <"$input") bytes), base64:"
    head -c 4096 "$input" | base64 -w 100 | sed 's/^/    /'
  done
done
echo "fuzz: $passed harnesses ran clean, $failed crashed or did not build"
[ "$failed" -eq 0 ] && [ "$passed" -eq "${#pairs[@]}" ]
