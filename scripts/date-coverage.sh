#!/usr/bin/env bash
# How many of a corpus's photos that exiftool finds a date taken in Tessera dates too, and
# dates the same to the second (issue 23: "wherever exiftool finds one in EXIF or XMP, at least
# 95 %"). exiftool (Debian's libimage-exiftool-perl) is the reference; Tessera is asked through
# `tessera info --tsv`, which reads each file the way the gallery does.
#
#   scripts/date-coverage.sh CORPUS_DIR
#
# TESSERA names the binary (default .build/debug/tessera). Image files are found under
# CORPUS_DIR by extension, recursively. Exit status 1 when the share is below 95 %, 2 when the
# run could not be made.
#
# "Has a date taken": exiftool finds a valid date (a real day of 1800-9999; a time, when there
# is one, within the day; a date alone is that day's midnight) in one of these tags, and the
# date expected is the first of them in this order, which is the order Tessera prefers them:
#   EXIF:DateTimeOriginal            (0x9003, in any EXIF IFD exiftool reads in the file)
#   EXIF:CreateDate                  (0x9004 DateTimeDigitized)
#   XMP-exif:DateTimeOriginal
#   XMP-photoshop:DateCreated
#   XMP-xmp:CreateDate
# Not counted: IFD0's DateTime (EXIF:ModifyDate: when the file was last changed, not taken);
# a maker's own date (MakerNotes, Canon CRW's CIFF: exiftool files those outside EXIF);
# XMP in a sidecar file (not a photo); dates of a year or a month alone (too vague to sort by,
# and Tessera ignores them). IPTC's DateCreated and TimeCreated, which Tessera also reads, are
# not EXIF or XMP: files dated by IPTC alone are counted apart and do not change the share.
# Time zones and fractions of a second are dropped on both sides: a date taken is a wall-clock
# time.
set -uo pipefail
[ $# -eq 1 ] && [ -d "$1" ] || {
  echo "usage: scripts/date-coverage.sh CORPUS_DIR" >&2
  exit 2
}
cd "$(dirname "$0")/.."
tessera=${TESSERA:-.build/debug/tessera}
command -v exiftool >/dev/null || {
  echo "date-coverage: exiftool is missing (apt-get install libimage-exiftool-perl)" >&2
  exit 2
}
[ -x "$tessera" ] || {
  echo "date-coverage: no $tessera (swift build, or set TESSERA)" >&2
  exit 2
}
corpus=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

find "$corpus" -type f -regextype posix-extended -iregex \
  '.*\.(jpg|jpeg|png|webp|heic|heif|avif|jxl|tif|tiff|dng|cr2|cr3|nef|nrw|arw|orf|rw2|pef|srw|raf|crw|3fr|iiq|mrw|gif)' |
  LC_ALL=C sort >"$work/files"
[ -s "$work/files" ] || {
  echo "date-coverage: no image files under $corpus" >&2
  exit 2
}
# A tab or newline in a path would split the lines joined below.
if grep -q $'\t' "$work/files"; then
  echo "date-coverage: a path has a tab in it; rename it" >&2
  exit 2
fi

tags='$FilePath	${EXIF:DateTimeOriginal}	${EXIF:CreateDate}	${XMP-exif:DateTimeOriginal}'
tags+='	${XMP-photoshop:DateCreated}	${XMP-xmp:CreateDate}	${IPTC:DateCreated}	${IPTC:TimeCreated}'
exiftool -q -q -m -fast -f -charset filename=utf8 -p "$tags" -@ "$work/files" >"$work/exiftool" ||
  true
tr '\n' '\0' <"$work/files" | xargs -0 "$tessera" info --tsv >"$work/tessera"
# xargs says 123 when a batch exited 1 (a file refused): those lines name it and are counted.
[ -s "$work/tessera" ] || {
  echo "date-coverage: $tessera info printed nothing" >&2
  exit 2
}

awk -F'\t' -v minimum=95 -v listed="$(wc -l <"$work/files")" '
  function leap(y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
  # "YYYY:MM:DD[ HH:MM[:SS]][fraction][zone]" (also with "-" and "T") as "YYYY-MM-DD HH:MM:SS",
  # or "" when it is no valid date.
  function norm(v,   y, m, d, days, t, h, mi, s) {
    if (v !~ /^[0-9][0-9][0-9][0-9][:-][0-9][0-9][:-][0-9][0-9]/) return ""
    y = substr(v, 1, 4) + 0; m = substr(v, 6, 2) + 0; d = substr(v, 9, 2) + 0
    split("31 28 31 30 31 30 31 31 30 31 30 31", days, " ")
    if (y < 1800 || m < 1 || m > 12 || d < 1) return ""
    if (d > days[m] + (m == 2 && leap(y))) return ""
    t = substr(v, 11)
    h = 0; mi = 0; s = 0
    if (t ~ /^[ T][0-9][0-9]:[0-9][0-9]:[0-9][0-9]/) {
      h = substr(t, 2, 2) + 0; mi = substr(t, 5, 2) + 0; s = substr(t, 8, 2) + 0
    } else if (t ~ /^[ T][0-9][0-9]:[0-9][0-9]/) {
      h = substr(t, 2, 2) + 0; mi = substr(t, 5, 2) + 0
    } else if (t !~ /^$|^[-+Z.]/) {
      return ""
    }
    if (h > 23 || mi > 59 || s > 60) return ""
    return sprintf("%04d-%02d-%02d %02d:%02d:%02d", y, m, d, h, mi, s)
  }
  function extension(path,   parts, n) {
    n = split(path, parts, "/"); n = split(parts[n], parts, ".")
    return n > 1 ? tolower(parts[n]) : "(none)"
  }
  FNR == NR {
    file = $1; expected[file] = ""; source[file] = ""
    names[2] = "EXIF DateTimeOriginal"; names[3] = "EXIF DateTimeDigitized"
    names[4] = "XMP exif:DateTimeOriginal"; names[5] = "XMP photoshop:DateCreated"
    names[6] = "XMP xmp:CreateDate"
    for (i = 2; i <= 6; i++) {
      date = norm($i)
      if (date != "") { expected[file] = date; source[file] = names[i]; break }
    }
    if (expected[file] == "" && $7 != "-") {
      iptc = norm($7 ($8 == "-" ? "" : " " $8))
      if (iptc != "") iptcOnly[file] = iptc
    }
    next
  }
  { read[$1] = $3; refused[$1] = $6 }
  END {
    for (file in expected) {
      all++; ext = extension(file); filesOf[ext]++
      if (expected[file] == "") continue
      dated++; datedOf[ext]++
      got = (file in read) ? read[file] : "(not listed)"
      if (got == expected[file]) { same++; sameOf[ext]++; continue }
      if (got ~ /^[0-9]/) wrong++; else missed++
      why = (file in refused) && refused[file] != "-" ? " (" refused[file] ")" : ""
      report[++reports] = sprintf("  %-5s %s: exiftool %s (%s), tessera %s%s",
        ext, file, expected[file], source[file], got, why)
    }
    for (file in iptcOnly) {
      iptcCount++
      if (read[file] == iptcOnly[file]) iptcSame++
    }
    printf "files: %d, of which exiftool read %d\n", listed, all
    printf "by extension (files / exiftool dates / Tessera the same):\n"
    for (ext in filesOf) {
      printf "  %-6s %4d %4d %4d\n", ext, filesOf[ext], datedOf[ext], sameOf[ext] | "LC_ALL=C sort"
    }
    close("LC_ALL=C sort")
    printf "exiftool finds a date taken in EXIF or XMP: %d files\n", dated
    printf "Tessera dates them the same, to the second: %d; a different date: %d; none: %d\n",
      same, wrong, missed
    printf "dated by IPTC alone (not counted): %d, Tessera the same: %d\n", iptcCount, iptcSame
    share = dated ? 100 * same / dated : 0
    printf "share: %.1f %% (at least %d %% wanted)\n", share, minimum
    if (reports) {
      printf "missed or different:\n"
      for (i = 1; i <= reports; i++) print report[i] | "LC_ALL=C sort"
      close("LC_ALL=C sort")
    }
    exit share >= minimum ? 0 : 1
  }
' "$work/exiftool" "$work/tessera"
