#ifndef TESSERA_DECODING_H
#define TESSERA_DECODING_H

#include <stddef.h>
#include <stdint.h>
#include <vips/vips.h>

// Shared by the shim's decoders (CVipsShim.c, Animation.c).

// 0 when `buffer` is in a format of `allowed` (its libvips module loaded) and its structure
// claims no more than it holds (tessera__claims_fit), else TESSERA_REFUSED_FORMAT or -1 with a
// libvips error; the format's name and the loader's nickname are written where asked (NULL:
// not asked).
int tessera__check_format(const void *buffer, size_t length, unsigned allowed, char *name,
                          size_t name_len, char *nickname, size_t nickname_len);

// 0 when every length `buffer` claims fits in it, as far as the shim checks before libvips
// allocates for a claim (a PNG's chunks, tessera_png_chunks_fit); else -1 with a libvips error.
int tessera__claims_fit(const void *buffer, size_t length);

// `image` (taken: unreferenced here) as 8-bit sRGB RGBA in memory the caller frees with
// tessera_vips_free. Returns 0, or -1 with a libvips error.
int tessera__write_rgba(VipsImage *image, uint8_t **pixels, size_t *pixels_len, int *out_width,
                        int *out_height);

#endif
