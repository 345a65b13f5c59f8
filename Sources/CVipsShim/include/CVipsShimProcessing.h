#ifndef TESSERA_CVIPSSHIM_PROCESSING_H
#define TESSERA_CVIPSSHIM_PROCESSING_H

// Image processors that libvips does best (a Gaussian blur's separable convolution). Kept
// apart from CVipsShim.h's decoders; like it, never includes vips.h.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// `pixels` (8-bit RGBA, exactly width × height × 4 bytes) blurred by a Gaussian of `sigma`
/// pixels (0.1…100), into a bitmap of the same size the caller frees with tessera_vips_free.
/// Returns 0, or -1 with a libvips error.
int tessera_vips_gaussblur_rgba(const uint8_t *pixels, size_t pixels_len, int width, int height,
                                double sigma, uint8_t **out, size_t *out_len);

#ifdef __cplusplus
}
#endif

#endif
