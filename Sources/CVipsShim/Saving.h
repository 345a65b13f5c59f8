#ifndef TESSERA_SAVING_H
#define TESSERA_SAVING_H

#include <stddef.h>
#include <stdint.h>
#include <vips/vips.h>

// An 8-bit bitmap of `bands` (3 or 4) as a libvips image over `pixels`, which must hold
// exactly width × height × bands bytes (libvips' savers read that many, whatever the buffer
// holds): NULL, with a libvips error, otherwise. The pixels are not copied.
VipsImage *tessera__image_over_pixels(const uint8_t *pixels, size_t pixels_len, int width,
                                      int height, int bands);

// `image` saved as `suffix` says (".png", ".jpg[Q=85]", ".png[bitdepth=16]"…), its module
// loaded first. Returns 0, or -1 with a libvips error.
int tessera__save_to_buffer(VipsImage *image, const char *suffix, void **out, size_t *out_len);

#endif
