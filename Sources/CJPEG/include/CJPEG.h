#ifndef TESSERA_CJPEG_H
#define TESSERA_CJPEG_H

// JPEG writing for Tessera through the system's libjpeg-turbo (Debian: libjpeg-dev): a tile's
// picture for iTerm2's inline images. libjpeg does the coding; this fits its API (error exits
// by longjmp, memory output) to Swift.

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

#ifdef __cplusplus
}
#endif

#endif
