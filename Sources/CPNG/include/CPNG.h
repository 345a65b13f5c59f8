#ifndef TESSERA_CPNG_H
#define TESSERA_CPNG_H

// PNG and zlib for Tessera, through the system's libpng and zlib: shared thumbnails read and
// written, kitty's compressed uploads. Everything that parses or writes PNG or deflate is
// theirs; these functions only fit their APIs (setjmp error handling, memory output) to Swift.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// tessera_png_decode_rgba: the bytes do not start with PNG's signature.
#define TESSERA_PNG_NOT_PNG (-2)
/// tessera_png_decode_rgba: a valid header with 16-bit samples, for libvips to decode.
#define TESSERA_PNG_SIXTEEN_BIT (-3)

/// Which of PNG's row filters libpng may choose from (tessera_png_encode).
typedef enum {
  /// No filtering: the fastest, for images written once and read rarely.
  TESSERA_PNG_FILTERS_NONE = 0,
  /// Sub only: little work, most of the gain on smooth pictures.
  TESSERA_PNG_FILTERS_FAST = 1,
  /// All five, libpng choosing per row: the smallest files.
  TESSERA_PNG_FILTERS_ALL = 2,
} TesseraPNGFilters;

/// How a text chunk is stored.
typedef enum {
  /// tEXt: Latin-1, plain.
  TESSERA_PNG_TEXT_PLAIN = 0,
  /// zTXt: Latin-1, deflated.
  TESSERA_PNG_TEXT_DEFLATED = 1,
  /// iTXt with its compression flag: UTF-8, deflated.
  TESSERA_PNG_TEXT_INTERNATIONAL_DEFLATED = 2,
} TesseraPNGTextKind;

/// One text chunk: keyword (1–79 Latin-1 bytes) and text (Latin-1, or UTF-8 for iTXt), both
/// NUL-terminated, stored as `kind` says.
typedef struct {
  const char *key;
  const char *text;
  TesseraPNGTextKind kind;
} TesseraPNGText;

/// Checks that every chunk of a PNG fits in the bytes that follow its header, up to IEND, so
/// that no claim reaches libpng (or libvips, which reads PNG with it): libpng allocates, and
/// clears, a chunk's claimed length before it reads a byte of it, so a 161-byte file whose
/// text chunk claims 1.9 GB costs 1.9 GB. Returns 0 when the bytes are not a PNG (nothing to
/// check) or every chunk fits; -1 with the chunk and its claim in `error` otherwise.
/// - Complexity: O(chunks); 12 bytes of each chunk are read, none of its data.
int tessera_png_chunks_fit(const void *buffer, size_t length, char *error, size_t error_len);

/// Decodes a PNG with libpng to 8-bit sRGB RGBA at its own size, once tessera_png_chunks_fit
/// passed. The header's sides must be at most `max_side` and their product at most
/// `max_pixels`, checked before any pixel memory is allocated. Returns 0 (free `*pixels` with
/// tessera_png_free), TESSERA_PNG_NOT_PNG, TESSERA_PNG_SIXTEEN_BIT (libpng's simplified
/// reader takes 16-bit samples as linear light, libvips and the thumbnailers that write them
/// as sRGB), -1 with libpng's reason in `error`.
int tessera_png_decode_rgba(const void *buffer, size_t length, int max_side, long max_pixels,
                            uint8_t **pixels, size_t *pixels_len, int *out_width,
                            int *out_height, char *error, size_t error_len);

/// Encodes 8-bit RGBA pixels (`rgba_len` must be exactly width × height × 4) as a PNG by libpng:
/// RGB when `drop_alpha` (each pixel's fourth byte skipped), RGBA otherwise, with zlib `level`
/// (0–9) and the row filters `filters`; `text` (may be NULL when `text_count` is 0) is written
/// as text chunks before the image data. Returns 0 and the file in `*png` (free with
/// tessera_png_free), -1 with the reason in `error`.
int tessera_png_encode(const uint8_t *rgba, size_t rgba_len, int width, int height,
                       int drop_alpha, int level, TesseraPNGFilters filters,
                       const TesseraPNGText *text, int text_count, uint8_t **png,
                       size_t *png_len, char *error, size_t error_len);

/// Encodes an 8-bit palette image (`indices_len` must be exactly width × height, each index
/// below `palette_count`, 1–256; `palette_rgb` holds palette_count × 3 bytes) as a PNG by
/// libpng with zlib `level` (0–9) and the row filters `filters`. Returns 0 and the file in
/// `*png` (free with tessera_png_free), -1 with the reason in `error`.
int tessera_png_encode_indexed(const uint8_t *indices, size_t indices_len, int width, int height,
                               const uint8_t *palette_rgb, int palette_count, int level,
                               TesseraPNGFilters filters, uint8_t **png, size_t *png_len,
                               char *error, size_t error_len);

/// Frees what tessera_png_decode_rgba, tessera_png_encode, tessera_png_encode_indexed and
/// tessera_zlib_* return.
void tessera_png_free(void *pointer);

/// `length` bytes as one zlib stream (RFC 1950) by zlib's compress2 at `level` (0–9). Returns 0
/// and the stream in `*out` (free with tessera_png_free), -1 when zlib fails.
int tessera_zlib_compress(const uint8_t *bytes, size_t length, int level, uint8_t **out,
                          size_t *out_len);

/// The data of one zlib stream by zlib's inflate, refused (-1) when it is not a whole valid
/// stream or would be longer than `max_out` bytes. Returns 0 and the data in `*out` (free with
/// tessera_png_free).
int tessera_zlib_uncompress(const uint8_t *bytes, size_t length, size_t max_out, uint8_t **out,
                            size_t *out_len);

/// zlib's CRC-32 (the one PNG chunks carry) of `length` bytes, continuing from `crc` (0 to start).
uint32_t tessera_crc32(uint32_t crc, const uint8_t *bytes, size_t length);

#ifdef __cplusplus
}
#endif

#endif
