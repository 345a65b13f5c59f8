// PNG decoded by libpng directly: a shared thumbnail shows before libvips, with its ~100
// libraries, has even loaded. libpng's simplified API does every conversion (palette, grey,
// 16-bit, gamma) to sRGB RGBA.

#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CPNG.h"
#include "PNGError.h"

int tessera_png_decode_rgba(const void *buffer, size_t length, int max_side, long max_pixels,
                            uint8_t **pixels, size_t *pixels_len, int *out_width,
                            int *out_height, char *error, size_t error_len) {
  if (buffer == NULL || length < 8 || pixels == NULL || pixels_len == NULL ||
      out_width == NULL || out_height == NULL) {
    tessera_png_set_error(error, error_len, "not a PNG");
    return -1;
  }
  *pixels = NULL;
  if (png_sig_cmp((png_const_bytep)buffer, 0, 8) != 0) {
    tessera_png_set_error(error, error_len, "not a PNG");
    return TESSERA_PNG_NOT_PNG;
  }
  if (tessera_png_chunks_fit(buffer, length, error, error_len) != 0) return -1;
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, buffer, length)) {
    tessera_png_set_error(error, error_len, image.message);
    png_image_free(&image);
    return -1;
  }
  // The header's numbers, checked before a byte is allocated for them.
  if (image.width == 0 || image.height == 0 || max_side < 1 ||
      image.width > (png_uint_32)max_side || image.height > (png_uint_32)max_side ||
      (uint64_t)image.width * image.height > (uint64_t)(max_pixels < 0 ? 0 : max_pixels)) {
    char text[96];
    snprintf(text, sizeof text, "the PNG claims %ux%u pixels", (unsigned)image.width,
             (unsigned)image.height);
    tessera_png_set_error(error, error_len, text);
    png_image_free(&image);
    return -1;
  }
  if ((image.format & PNG_FORMAT_FLAG_LINEAR) != 0) {
    tessera_png_set_error(error, error_len, "16-bit samples");
    png_image_free(&image);
    return TESSERA_PNG_SIXTEEN_BIT;
  }
  image.format = PNG_FORMAT_RGBA;
  size_t size = PNG_IMAGE_SIZE(image);
  uint8_t *memory = malloc(size);
  if (memory == NULL) {
    tessera_png_set_error(error, error_len, "out of memory");
    png_image_free(&image);
    return -1;
  }
  if (!png_image_finish_read(&image, NULL, memory, 0, NULL)) {
    tessera_png_set_error(error, error_len, image.message);
    free(memory);
    png_image_free(&image);
    return -1;
  }
  *pixels = memory;
  *pixels_len = size;
  *out_width = (int)image.width;
  *out_height = (int)image.height;
  png_image_free(&image);
  return 0;
}

void tessera_png_free(void *pointer) { free(pointer); }
