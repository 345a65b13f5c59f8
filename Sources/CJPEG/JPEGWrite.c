// A tile's RGBA pixels to a JPEG by libjpeg-turbo, in memory.

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "CJPEG.h"
#include "JPEGFailure.h"

// libjpeg's warnings would go to standard error, over the gallery's screen.
static void quiet(j_common_ptr info, int level) {
  (void)info;
  (void)level;
}

int tessera_jpeg_encode(const uint8_t *rgba, size_t rgba_len, int width, int height,
                        int quality, uint8_t **jpeg, size_t *jpeg_len, char *error,
                        size_t error_len) {
  if (jpeg == NULL || jpeg_len == NULL || rgba == NULL) {
    tessera_jpeg_report(error, error_len, "no buffer");
    return -1;
  }
  *jpeg = NULL;
  *jpeg_len = 0;
  // JPEG's sides are 16-bit; the product is checked before it sizes anything.
  if (width <= 0 || height <= 0 || width > 65500 || height > 65500 ||
      rgba_len != (size_t)width * (size_t)height * 4) {
    tessera_jpeg_report(error, error_len, "the pixels are not width × height × 4 bytes");
    return -1;
  }
  if (quality < 1) quality = 1;
  if (quality > 100) quality = 100;
  // The row buffer and the output are made before setjmp, so a longjmp leaks nothing: they
  // are volatile-free locals freed on both paths below.
  uint8_t *row = malloc((size_t)width * 3);
  if (row == NULL) {
    tessera_jpeg_report(error, error_len, "out of memory");
    return -1;
  }
  struct jpeg_compress_struct info;
  struct tessera_jpeg_failure failure;
  memset(&info, 0, sizeof info);
  info.err = tessera_jpeg_failure_init(&failure, quiet);
  unsigned char *volatile output = NULL;
  unsigned long volatile output_len = 0;
  if (setjmp(failure.jump)) {
    tessera_jpeg_report(error, error_len, failure.message);
    jpeg_destroy_compress(&info);
    free(output);
    free(row);
    return -1;
  }
  jpeg_create_compress(&info);
  jpeg_mem_dest(&info, (unsigned char **)&output, (unsigned long *)&output_len);
  info.image_width = (JDIMENSION)width;
  info.image_height = (JDIMENSION)height;
  info.input_components = 3;
  info.in_color_space = JCS_RGB;
  jpeg_set_defaults(&info);
  jpeg_set_quality(&info, quality, TRUE);
  jpeg_start_compress(&info, TRUE);
  while (info.next_scanline < info.image_height) {
    const uint8_t *source = rgba + (size_t)info.next_scanline * (size_t)width * 4;
    for (int x = 0; x < width; x++) {
      row[x * 3] = source[x * 4];
      row[x * 3 + 1] = source[x * 4 + 1];
      row[x * 3 + 2] = source[x * 4 + 2];
    }
    JSAMPROW rows[1] = {row};
    jpeg_write_scanlines(&info, rows, 1);
  }
  jpeg_finish_compress(&info);
  jpeg_destroy_compress(&info);
  free(row);
  *jpeg = output;
  *jpeg_len = output_len;
  return 0;
}

void tessera_jpeg_encoded_free(void *pointer) { free(pointer); }
