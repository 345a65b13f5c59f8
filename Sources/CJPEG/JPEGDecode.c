// Photos' JPEGs decoded by libjpeg-turbo directly, at the DCT scale (1/8, 1/4, 1/2, 1) that
// still covers the box: the same shrink-on-load libvips' thumbnailer does, without opening
// libvips and its ~100 libraries on a cold launch, and without the thumbnailer's set-up per
// image. What libvips does differently is left to libvips: CMYK and YCCK files, and files
// with an embedded ICC profile (libvips converts those to sRGB).

#include <limits.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "CJPEG.h"
#include "JPEGFailure.h"

// A truncated file is an error, as libvips is asked to make it (fail_on=truncated): a download
// cut short must not be shown, or cached, as a picture with a grey end. Other warnings (a
// corrupt marker, extraneous bytes) are not fatal, as in libvips, and are not printed.
static void warn(j_common_ptr info, int level) {
  if (level < 0 && info->err->msg_code == JWRN_JPEG_EOF) tessera_jpeg_fail(info);
}

static int is_jpeg(const void *buffer, size_t length) {
  const uint8_t *bytes = buffer;
  return buffer != NULL && length >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF;
}

// Whether an APP2 segment holds an ICC profile.
static int has_icc_profile(j_decompress_ptr info) {
  for (jpeg_saved_marker_ptr marker = info->marker_list; marker != NULL; marker = marker->next) {
    if (marker->marker == JPEG_APP0 + 2 && marker->data_length >= 12 &&
        memcmp(marker->data, "ICC_PROFILE", 12) == 0) {
      return 1;
    }
  }
  return 0;
}

// The bytes libjpeg allocates for whole-image coefficient buffers before it decodes a JPEG
// of several scans (progressive, or sequential with more than one scan): 64 coefficients of
// 2 bytes for every block of every component, whatever scale it is then shown at. A 12 KB
// progressive JPEG of 10000x10000 asks for 287 MiB. 0 for a baseline JPEG, which decodes a row
// of blocks at a time. Valid after jpeg_read_header (which sets the blocks per component).
static unsigned long long coefficient_bytes(j_decompress_ptr info) {
  if (!jpeg_has_multiple_scans(info)) return 0;
  unsigned long long bytes = 0;
  for (int index = 0; index < info->num_components; index++) {
    const jpeg_component_info *component = &info->comp_info[index];
    // Rounded up to whole MCUs, as libjpeg allocates them.
    unsigned long long across = component->width_in_blocks + (unsigned)component->h_samp_factor;
    unsigned long long down = component->height_in_blocks + (unsigned)component->v_samp_factor;
    bytes += across * down * DCTSIZE2 * sizeof(JCOEF);
  }
  return bytes;
}

static void report_too_large(j_decompress_ptr info, char *error, size_t error_len) {
  char text[160];
  snprintf(text, sizeof text,
           "this progressive JPEG of %ux%u needs %llu MB to decode, more than the %llu MB allowed",
           info->image_width, info->image_height, coefficient_bytes(info) >> 20,
           TESSERA_JPEG_MAX_COEFFICIENT_BYTES >> 20);
  tessera_jpeg_report(error, error_len, text);
}

// Reads the header; 0, TESSERA_JPEG_NOT_JPEG, TESSERA_JPEG_FOR_LIBVIPS, TESSERA_JPEG_TOO_LARGE
// (several scans whose coefficients would pass the cap; nothing allocated for them) or -1. On 0 and
// TESSERA_JPEG_FOR_LIBVIPS the caller must jpeg_destroy_decompress.
static int read_header(struct jpeg_decompress_struct *info, const void *buffer, size_t length) {
  jpeg_create_decompress(info);
  jpeg_save_markers(info, JPEG_APP0 + 2, 0xFFFF);
  jpeg_mem_src(info, buffer, (unsigned long)length);
  if (jpeg_read_header(info, TRUE) != JPEG_HEADER_OK) return -1;
  if (coefficient_bytes(info) > TESSERA_JPEG_MAX_COEFFICIENT_BYTES) return TESSERA_JPEG_TOO_LARGE;
  // A cap on everything libjpeg allocates, the buffers above included (libjpeg-turbo then
  // fails with "insufficient memory" rather than allocating past it).
  info->mem->max_memory_to_use = (long)(TESSERA_JPEG_MAX_COEFFICIENT_BYTES + (64ULL << 20));
  if (info->jpeg_color_space == JCS_CMYK || info->jpeg_color_space == JCS_YCCK ||
      info->num_components == 4) {
    return TESSERA_JPEG_FOR_LIBVIPS;
  }
  if (has_icc_profile(info)) return TESSERA_JPEG_FOR_LIBVIPS;
  return 0;
}

int tessera_jpeg_header(const void *buffer, size_t length, int *out_width, int *out_height,
                        char *error, size_t error_len) {
  if (out_width == NULL || out_height == NULL) return -1;
  if (!is_jpeg(buffer, length)) {
    tessera_jpeg_report(error, error_len, "not a JPEG");
    return TESSERA_JPEG_NOT_JPEG;
  }
  struct jpeg_decompress_struct info;
  struct tessera_jpeg_failure failure;
  info.err = tessera_jpeg_failure_init(&failure, warn);
  if (setjmp(failure.jump)) {
    tessera_jpeg_report(error, error_len, failure.message);
    jpeg_destroy_decompress(&info);
    return -1;
  }
  int status = read_header(&info, buffer, length);
  *out_width = (int)info.image_width;
  *out_height = (int)info.image_height;
  if (status == TESSERA_JPEG_TOO_LARGE) report_too_large(&info, error, error_len);
  jpeg_destroy_decompress(&info);
  if (status == -1) tessera_jpeg_report(error, error_len, "no JPEG header");
  return status;
}

// The DCT scale: the largest denominator (8, 4, 2, 1) whose output still has at least
// min_width x min_height pixels (libjpeg rounds scaled sides up).
static unsigned int scale_for(unsigned int width, unsigned int height, int min_width,
                              int min_height) {
  static const unsigned int denominators[] = {8, 4, 2};
  for (size_t i = 0; i < sizeof denominators / sizeof denominators[0]; i++) {
    unsigned int d = denominators[i];
    if ((width + d - 1) / d >= (unsigned int)min_width &&
        (height + d - 1) / d >= (unsigned int)min_height) {
      return d;
    }
  }
  return 1;
}

int tessera_jpeg_decode_rgba(const void *buffer, size_t length, int min_width, int min_height,
                             int max_side, long max_pixels, uint8_t **pixels, size_t *pixels_len,
                             int *out_width, int *out_height, char *error, size_t error_len) {
  if (pixels == NULL || pixels_len == NULL || out_width == NULL || out_height == NULL ||
      min_width < 1 || min_height < 1) {
    tessera_jpeg_report(error, error_len, "bad arguments");
    return -1;
  }
  *pixels = NULL;
  if (!is_jpeg(buffer, length)) {
    tessera_jpeg_report(error, error_len, "not a JPEG");
    return TESSERA_JPEG_NOT_JPEG;
  }
  struct jpeg_decompress_struct info;
  struct tessera_jpeg_failure failure;
  info.err = tessera_jpeg_failure_init(&failure, warn);
  // volatile: read after a longjmp from inside libjpeg.
  uint8_t *volatile memory = NULL;
  if (setjmp(failure.jump)) {
    tessera_jpeg_report(error, error_len, failure.message);
    free(memory);
    jpeg_destroy_decompress(&info);
    return -1;
  }
  int status = read_header(&info, buffer, length);
  if (status == TESSERA_JPEG_TOO_LARGE) report_too_large(&info, error, error_len);
  if (status != 0) {
    jpeg_destroy_decompress(&info);
    if (status == -1) tessera_jpeg_report(error, error_len, "no JPEG header");
    return status;
  }
  // The header's numbers, checked before a byte is allocated for them.
  if (info.image_width == 0 || info.image_height == 0 || max_side < 1 ||
      info.image_width > (JDIMENSION)max_side || info.image_height > (JDIMENSION)max_side ||
      (uint64_t)info.image_width * info.image_height >
          (uint64_t)(max_pixels < 0 ? 0 : max_pixels)) {
    char text[96];
    snprintf(text, sizeof text, "the JPEG claims %ux%u pixels", (unsigned)info.image_width,
             (unsigned)info.image_height);
    tessera_jpeg_report(error, error_len, text);
    jpeg_destroy_decompress(&info);
    return -1;
  }
  info.scale_num = 1;
  info.scale_denom = scale_for(info.image_width, info.image_height, min_width, min_height);
  info.out_color_space = JCS_EXT_RGBA;
  info.dct_method = JDCT_ISLOW;
  jpeg_start_decompress(&info);
  if (info.output_components != 4 || info.output_width == 0 || info.output_height == 0) {
    jpeg_destroy_decompress(&info);
    tessera_jpeg_report(error, error_len, "libjpeg gave no RGBA");
    return -1;
  }
  size_t row = (size_t)info.output_width * 4;
  size_t size = row * info.output_height;
  memory = malloc(size);
  if (memory == NULL) {
    jpeg_destroy_decompress(&info);
    tessera_jpeg_report(error, error_len, "out of memory");
    return -1;
  }
  while (info.output_scanline < info.output_height) {
    JSAMPROW rows[4];
    JDIMENSION first = info.output_scanline;
    int count = 0;
    for (; count < 4 && first + (JDIMENSION)count < info.output_height; count++) {
      rows[count] = memory + (size_t)(first + (JDIMENSION)count) * row;
    }
    if (jpeg_read_scanlines(&info, rows, (JDIMENSION)count) == 0) break;
  }
  if (info.output_scanline < info.output_height) {
    free(memory);
    jpeg_destroy_decompress(&info);
    tessera_jpeg_report(error, error_len, "libjpeg stopped before the last row");
    return -1;
  }
  jpeg_finish_decompress(&info);
  *out_width = (int)info.output_width;
  *out_height = (int)info.output_height;
  jpeg_destroy_decompress(&info);
  *pixels = memory;
  *pixels_len = size;
  return 0;
}

void tessera_jpeg_free(void *pointer) { free(pointer); }
