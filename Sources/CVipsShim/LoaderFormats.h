#ifndef TESSERA_CVIPSSHIM_LOADER_FORMATS_H
#define TESSERA_CVIPSSHIM_LOADER_FORMATS_H

// Private to the shim, included once, by CVipsShim.c (so the shim stays one translation unit,
// which is what the fuzz build compiles): which format some bytes are in, decided the way
// libvips picks a loader (each loader's own is_a test over the first bytes; no decoder runs),
// so the allow-list is checked on exactly the loader that would parse them. Bytes no loader
// claims (a blocked or missing one: SVG without librsvg, say) are named by a few magic
// numbers, so the refusal can still say what they are.

#include <string.h>
#include <vips/vips.h>

#include "CVipsShim.h"

/// A loader class (without "VipsForeignLoad" and its Buffer/Source/File suffix), its format
/// bit (0: never decoded) and its name.
typedef struct {
  const char *base;
  int format;
  const char *name;
} LoaderName;

static const LoaderName loader_names[] = {
    {"Jpeg", TESSERA_FORMAT_JPEG, "JPEG"},
    {"Png", TESSERA_FORMAT_PNG, "PNG"},
    {"Webp", TESSERA_FORMAT_WEBP, "WebP"},
    {"Nsgif", TESSERA_FORMAT_GIF, "GIF"},
    {"Gif", TESSERA_FORMAT_GIF, "GIF"},  // libvips before 8.11 (giflib)
    {"Heif", TESSERA_FORMAT_HEIF, "HEIF"},
    {"Tiff", TESSERA_FORMAT_TIFF, "TIFF"},
    {"Jxl", TESSERA_FORMAT_JXL, "JPEG XL"},
    {"Svg", 0, "SVG"},
    {"Pdf", 0, "PDF"},
    {"Magick", 0, "ImageMagick"},
    {"Magick7", 0, "ImageMagick"},
    {"Openslide", 0, "OpenSlide"},
    {"Mat", 0, "MATLAB"},
    {"Matrix", 0, "matrix"},
    {"Csv", 0, "CSV"},
    {"Fits", 0, "FITS"},
    {"Ppm", 0, "PPM"},
    {"Rad", 0, "Radiance"},
    {"Analyze", 0, "Analyze"},
    {"Vips", 0, "VIPS"},
    {"Raw", 0, "raw"},
    {"Jp2k", 0, "JPEG 2000"},
    {"Openexr", 0, "OpenEXR"},
    {"Nifti", 0, "NIfTI"},
    {"Dcraw", 0, "camera raw"},
};

/// The loader classes of the formats in TESSERA_FORMATS_LOCAL (NULL-terminated): the only
/// ones tessera_vips_init leaves unblocked.
static const char *const tessera_allowed_loader_classes[] = {
    "VipsForeignLoadJpeg", "VipsForeignLoadPng",  "VipsForeignLoadWebp",
    "VipsForeignLoadNsgif", "VipsForeignLoadGif", "VipsForeignLoadHeif",
    "VipsForeignLoadTiff", "VipsForeignLoadJxl",  NULL,
};

static void copy_text(char *to, size_t to_len, const char *text, size_t text_len) {
  if (to == NULL || to_len == 0) return;
  size_t n = text_len < to_len - 1 ? text_len : to_len - 1;
  memcpy(to, text, n);
  to[n] = '\0';
}

static void copy_string(char *to, size_t to_len, const char *text) {
  copy_text(to, to_len, text, strlen(text));
}

/// Whether `needle` occurs in the first `limit` bytes of `bytes`. O(limit × needle).
static int contains(const unsigned char *bytes, size_t length, size_t limit, const char *needle) {
  size_t n = strlen(needle);
  size_t end = length < limit ? length : limit;
  for (size_t i = 0; i + n <= end; i++)
    if (memcmp(bytes + i, needle, n) == 0) return 1;
  return 0;
}

static int starts(const unsigned char *bytes, size_t length, const void *magic, size_t n) {
  return length >= n && memcmp(bytes, magic, n) == 0;
}

/// ZSoft PCX: no magic number but a manufacturer byte (10), a version (0, 2–5), an encoding
/// (0 or 1) and bits per pixel (1, 2, 4, 8), and a window whose ends are in order.
static int looks_like_pcx(const unsigned char *b, size_t n) {
  if (n < 128 || b[0] != 0x0A || b[1] > 5 || b[1] == 1 || b[2] > 1) return 0;
  if (b[3] != 1 && b[3] != 2 && b[3] != 4 && b[3] != 8) return 0;
  unsigned x0 = b[4] | b[5] << 8, y0 = b[6] | b[7] << 8, x1 = b[8] | b[9] << 8,
           y1 = b[10] | b[11] << 8;
  return x0 <= x1 && y0 <= y1;
}

/// Truevision TGA: the footer of version 2 ("TRUEVISION-XFILE.\0" in its last 18 bytes) or,
/// as most writers leave it out, a header whose every field holds one of its few values: a
/// colour-map type of 0 or 1, a known image type, a pixel depth of 8, 15, 16, 24 or 32, sides
/// that are not 0, reserved descriptor bits clear. Looked at only when no loader and no magic
/// number claimed the bytes, so a file it mistakes would have been "no known format" anyway.
static int looks_like_tga(const unsigned char *b, size_t n) {
  static const char footer[] = "TRUEVISION-XFILE.";
  if (n >= 26 && memcmp(b + n - 18, footer, sizeof footer) == 0) return 1;
  if (n < 18 || b[1] > 1) return 0;
  unsigned type = b[2];
  if (type != 1 && type != 2 && type != 3 && type != 9 && type != 10 && type != 11) return 0;
  if ((type == 1 || type == 9) != (b[1] == 1)) return 0;  // colour-mapped types need a map
  if (b[1] == 0 && (b[3] | b[4] | b[5] | b[6] | b[7]) != 0) return 0;
  unsigned depth = b[16];
  if (depth != 8 && depth != 15 && depth != 16 && depth != 24 && depth != 32) return 0;
  unsigned width = b[12] | b[13] << 8, height = b[14] | b[15] << 8;
  return width != 0 && height != 0 && (b[17] & 0xC0) == 0;
}

/// Names formats Tessera never decodes from their magic numbers, or NULL. O(1) but for SVG,
/// whose root element is looked for in the first 4 KiB.
static const char *sniff_other(const unsigned char *b, size_t n) {
  size_t skip = starts(b, n, "\xEF\xBB\xBF", 3) ? 3 : 0;  // a UTF-8 byte-order mark
  while (skip < n && skip < 64 && (b[skip] == ' ' || b[skip] == '\t' || b[skip] == '\r' ||
                                   b[skip] == '\n'))
    skip++;
  const unsigned char *text = b + skip;
  size_t rest = n - skip;
  if ((starts(text, rest, "<?xml", 5) || starts(text, rest, "<svg", 4) ||
       starts(text, rest, "<!DOCTYPE svg", 13) || starts(text, rest, "<!--", 4)) &&
      contains(text, rest, 4096, "<svg"))
    return "SVG";
  if (starts(b, n, "%PDF-", 5)) return "PDF";
  if (starts(b, n, "%!PS", 4)) return "PostScript";
  if (starts(b, n, "8BPS", 4)) return "Photoshop";
  if (starts(b, n, "\xFF\x4F\xFF\x51", 4) || starts(b, n, "\0\0\0\x0CjP  ", 8))
    return "JPEG 2000";
  if (starts(b, n, "\x76\x2F\x31\x01", 4)) return "OpenEXR";
  if (starts(b, n, "SIMPLE  =", 9)) return "FITS";
  if (starts(b, n, "MATLAB", 6)) return "MATLAB";
  if (starts(b, n, "#?RADIANCE", 10) || starts(b, n, "#?RGBE", 6)) return "Radiance";
  if (starts(b, n, "\x08\xF2\xA6\xB6", 4) || starts(b, n, "\xB6\xA6\xF2\x08", 4)) return "VIPS";
  if (n >= 3 && b[0] == 'P' && ((b[1] >= '1' && b[1] <= '7') || b[1] == 'f' || b[1] == 'F') &&
      (b[2] == ' ' || b[2] == '\t' || b[2] == '\r' || b[2] == '\n'))
    return "PPM";
  if (starts(b, n, "BM", 2) && n >= 26) return "BMP";
  if (starts(b, n, "\0\0\1\0", 4)) return "ICO";
  if (starts(b, n, "qoif", 4) && n >= 14) return "QOI";
  if (starts(b, n, "gimp xcf ", 9)) return "GIMP XCF";
  if (starts(b, n, "BPG\xFB", 4)) return "BPG";
  if (starts(b, n, "DDS ", 4)) return "DDS";
  if (starts(b, n, "farbfeld", 8)) return "farbfeld";
  if (starts(b, n, "II\xBC", 3)) return "JPEG XR";
  if (starts(b, n, "FORM", 4) && n >= 12 &&
      (memcmp(b + 8, "ILBM", 4) == 0 || memcmp(b + 8, "PBM ", 4) == 0))
    return "IFF ILBM";
  if (looks_like_pcx(b, n)) return "PCX";
  if (looks_like_tga(b, n)) return "TGA";
  return NULL;
}

/// The table entry for a loader's GType name ("VipsForeignLoadJpegBuffer"), or NULL.
static const LoaderName *loader_name(const char *type_name) {
  static const char prefix[] = "VipsForeignLoad";
  size_t prefix_len = sizeof prefix - 1;
  if (strncmp(type_name, prefix, prefix_len) != 0) return NULL;
  const char *base = type_name + prefix_len;
  size_t base_len = strlen(base);
  static const char *const suffixes[] = {"Buffer", "Source", "File"};
  for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
    size_t n = strlen(suffixes[i]);
    if (base_len > n && strcmp(base + base_len - n, suffixes[i]) == 0) {
      base_len -= n;
      break;
    }
  }
  for (size_t i = 0; i < sizeof loader_names / sizeof loader_names[0]; i++) {
    if (strlen(loader_names[i].base) == base_len &&
        strncmp(loader_names[i].base, base, base_len) == 0)
      return &loader_names[i];
  }
  return NULL;
}

/// The format of `buffer`: its TesseraFormat bit, 0 for a known format Tessera never decodes,
/// -1 when nothing recognises it. `name` receives the format's name ("JPEG", "SVG"), and
/// `nickname`, when not NULL, libvips' loader nickname ("jpegload_buffer", or "" when none).
static int tessera_detect_format(const void *buffer, size_t length, char *name, size_t name_len,
                                 char *nickname, size_t nickname_len) {
  copy_string(name, name_len, "");
  copy_string(nickname, nickname_len, "");
  if (buffer == NULL || length == 0) return -1;
  const unsigned char *bytes = buffer;
  const char *type_name = vips_foreign_find_load_buffer(buffer, length);
  if (type_name == NULL) {
    vips_error_clear();  // "not a known format": the caller words its own
    const char *other = sniff_other(bytes, length);
    if (other == NULL) return -1;
    copy_string(name, name_len, other);
    return 0;
  }
  const char *nick = vips_nickname_find(g_type_from_name(type_name));
  copy_string(nickname, nickname_len, nick != NULL ? nick : type_name);
  const LoaderName *known = loader_name(type_name);
  if (known == NULL) {
    // A loader added after this table: never decoded, named after its class.
    const char *base = type_name + (strncmp(type_name, "VipsForeignLoad", 15) == 0 ? 15 : 0);
    copy_string(name, name_len, base);
    return 0;
  }
  if (known->format == 0 && strcmp(known->name, "ImageMagick") == 0) {
    // ImageMagick reads hundreds of formats: name the one these bytes are, when known.
    const char *other = sniff_other(bytes, length);
    copy_string(name, name_len, other != NULL ? other : "ImageMagick");
    return 0;
  }
  int is_avif = known->format == TESSERA_FORMAT_HEIF && length >= 12 &&
                (memcmp(bytes + 8, "avif", 4) == 0 || memcmp(bytes + 8, "avis", 4) == 0);
  copy_string(name, name_len, is_avif ? "AVIF" : known->name);
  return known->format;
}

#endif
