#include <vips/vips.h>
#include "VipsSymbols.h"

#include "CVipsShim.h"
#include "CVipsShimProcessing.h"
#include "Saving.h"

int tessera_vips_gaussblur_rgba(const uint8_t *pixels, size_t pixels_len, int width, int height,
                                double sigma, uint8_t **out, size_t *out_len) {
  if (tessera_vips_init() != 0) return -1;
  if (!(sigma >= 0.1 && sigma <= 100.0) || out == NULL || out_len == NULL) {
    vips_error("tessera", "a blur's sigma must be within 0.1…100, got %g", sigma);
    return -1;
  }
  VipsImage *image = tessera__image_over_pixels(pixels, pixels_len, width, height, 4);
  if (image == NULL) return -1;
  VipsImage *blurred = NULL;
  // 8-bit precision (integer arithmetic) is libvips' fast path, and all an 8-bit result needs.
  int status = vips_gaussblur(image, &blurred, sigma, "precision", VIPS_PRECISION_INTEGER, NULL);
  g_object_unref(image);
  if (status != 0) return -1;
  VipsImage *bytes = NULL;
  status = vips_cast_uchar(blurred, &bytes, NULL);
  g_object_unref(blurred);
  if (status != 0) return -1;
  size_t size = 0;
  void *memory = vips_image_write_to_memory(bytes, &size);
  int same = vips_image_get_width(bytes) == width && vips_image_get_height(bytes) == height &&
             vips_image_get_bands(bytes) == 4;
  g_object_unref(bytes);
  if (memory == NULL) return -1;
  if (!same || size != pixels_len) {
    g_free(memory);
    vips_error("tessera", "the blur returned %zu bytes for %zu", size, pixels_len);
    return -1;
  }
  *out = memory;
  *out_len = size;
  return 0;
}
