#ifndef TESSERA_CVIPSSHIM_H
#define TESSERA_CVIPSSHIM_H

// Non-variadic wrappers over libvips. Swift cannot call libvips' variadic API, and this header
// deliberately does not include <vips/vips.h>, so Swift never parses glib.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How a decoded image is fitted into the target box.
typedef enum {
  /// Scale down (never up) so the whole image fits inside the box; aspect ratio kept.
  TESSERA_FIT_INSIDE = 0,
  /// Scale so the image covers the box, then crop the centre to exactly the box.
  TESSERA_FIT_FILL = 1,
  /// Scale to exactly the box, ignoring the aspect ratio.
  TESSERA_FIT_EXACT = 2,
} TesseraFit;

/// Starts libvips once per process (thread-safe, idempotent). Returns 0 on success.
int tessera_vips_init(void);

/// Reads an encoded image's header only: dimensions, band count and the loader's name
/// (e.g. "jpegload_buffer"), written to `loader` (NUL-terminated, truncated to `loader_len`).
/// No pixels are decoded. Returns 0 on success, -1 on error (see tessera_vips_last_error).
int tessera_vips_header(const void *buffer, size_t length, int *width, int *height, int *bands,
                        char *loader, size_t loader_len);

/// Decodes `buffer` straight to a bitmap no larger than `target_width` x `target_height`
/// (libvips' shrink-on-load thumbnail: JPEG is decoded at 1/2, 1/4 or 1/8 scale when that
/// suffices), converted to sRGB, 8-bit RGBA. The caller frees `*pixels` with tessera_vips_free.
/// `fit` is a TesseraFit. Images are never upscaled except with TESSERA_FIT_EXACT.
/// Returns 0 on success, -1 on error.
int tessera_vips_thumbnail_rgba(const void *buffer, size_t length, int target_width,
                                int target_height, int fit, uint8_t **pixels, size_t *pixels_len,
                                int *out_width, int *out_height);

/// Encodes an 8-bit RGBA (bands = 4) or RGB (bands = 3) bitmap. `suffix` picks the saver and its
/// options the libvips way: ".jpg[Q=85]", ".png", ".webp[Q=80]", ".gif". The caller frees
/// `*out` with tessera_vips_free. Returns 0 on success, -1 on error.
int tessera_vips_encode(const uint8_t *pixels, int width, int height, int bands,
                        const char *suffix, void **out, size_t *out_len);

/// Frees memory returned by this shim.
void tessera_vips_free(void *pointer);

/// Copies libvips' accumulated error text (this thread's view of the global buffer) into
/// `buffer`, NUL-terminated, and clears it. Returns the number of bytes written.
size_t tessera_vips_last_error(char *buffer, size_t length);

/// Pixels decoded at most by libvips' loaders before they refuse (decompression-bomb guard at
/// the C level; the Swift pipeline refuses earlier, from the header). 0 = libvips' default.
void tessera_vips_set_concurrency(int threads);

#ifdef __cplusplus
}
#endif

#endif
