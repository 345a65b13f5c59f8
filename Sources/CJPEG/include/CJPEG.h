#ifndef TESSERA_CJPEG_H
#define TESSERA_CJPEG_H

// JPEG through the system's libjpeg-turbo (Debian: libjpeg-dev), the one place Tessera calls
// it: photos' JPEGs read at the DCT scale that covers the box (without opening libvips), and a
// tile's picture written for iTerm2's inline images. libjpeg does the coding; this fits its
// API (error exits by longjmp, one error manager for both, memory in and out) to Swift.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Encodes 8-bit RGBA pixels (`rgba_len` must be exactly width × height × 4; the fourth byte
/// of each pixel is ignored) as a baseline JPEG of `quality` (1–100, clamped) with 4:2:0
/// chroma. Returns 0 and the file in `*jpeg` (free with tessera_jpeg_encoded_free), -1 with
/// libjpeg's reason in `error`.
int tessera_jpeg_encode(const uint8_t *rgba, size_t rgba_len, int width, int height,
                        int quality, uint8_t **jpeg, size_t *jpeg_len, char *error,
                        size_t error_len);

/// Frees what tessera_jpeg_encode returned.
void tessera_jpeg_encoded_free(void *pointer);

/// tessera_jpeg_header and tessera_jpeg_decode_rgba: the bytes are no JPEG (nothing parsed).
#define TESSERA_JPEG_NOT_JPEG (-2)
/// tessera_jpeg_header and tessera_jpeg_decode_rgba: a JPEG libvips decodes differently (CMYK
/// or YCCK, an embedded ICC profile, which libvips converts to sRGB), for libvips to decode.
#define TESSERA_JPEG_FOR_LIBVIPS (-4)
/// tessera_jpeg_header and tessera_jpeg_decode_rgba: a JPEG of several scans (progressive)
/// whose whole-image coefficient buffers, which libjpeg (and libvips through it) must hold to
/// decode it at any scale, would pass TESSERA_JPEG_MAX_COEFFICIENT_BYTES: refused before they
/// are allocated (sides still written by tessera_jpeg_header).
#define TESSERA_JPEG_TOO_LARGE (-5)
/// The most a JPEG's coefficient buffers may take: 160 MiB, a 50-megapixel progressive JPEG
/// (4:2:0). Baseline JPEGs need none, whatever their size.
#define TESSERA_JPEG_MAX_COEFFICIENT_BYTES (160ULL << 20)

/// Frees pixels from tessera_jpeg_decode_rgba.
void tessera_jpeg_free(void *pointer);

/// A JPEG's stored width and height from its header, by libjpeg-turbo (no libvips). Returns 0,
/// TESSERA_JPEG_NOT_JPEG for bytes that are not JPEG, TESSERA_JPEG_FOR_LIBVIPS (sides still
/// written) for one libvips must decode, -1 with the reason in `error`.
int tessera_jpeg_header(const void *buffer, size_t length, int *out_width, int *out_height,
                        char *error, size_t error_len);

/// Decodes a JPEG by libjpeg-turbo, not libvips, to 8-bit RGBA as stored (no EXIF rotation),
/// at the smallest DCT scale (1/8, 1/4, 1/2 or 1) that still gives at least `min_width` x
/// `min_height` pixels. The header's sides must be at most `max_side` and their product at
/// most `max_pixels`, checked before any pixel memory is allocated. Returns 0 (free `*pixels`
/// with tessera_jpeg_free), TESSERA_JPEG_NOT_JPEG, TESSERA_JPEG_FOR_LIBVIPS, or -1 with
/// libjpeg's reason in `error`.
int tessera_jpeg_decode_rgba(const void *buffer, size_t length, int min_width, int min_height,
                             int max_side, long max_pixels, uint8_t **pixels, size_t *pixels_len,
                             int *out_width, int *out_height, char *error, size_t error_len);

#ifdef __cplusplus
}
#endif

#endif
