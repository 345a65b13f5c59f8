// PNG written by libpng's full API, which (unlike the simplified one) lets the caller pick
// zlib's level and the row filters: kitty's uploads want the smallest file, thumbnails the
// quickest write. libpng reports errors by longjmp, which Swift cannot catch, so it stays here.

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "CPNG.h"
#include "PNGError.h"

/// The growing output buffer libpng writes into.
struct output {
  uint8_t *bytes;
  size_t length;
  size_t capacity;
  int failed;
};

static void write_bytes(png_structp png, png_bytep data, size_t length) {
  struct output *out = png_get_io_ptr(png);
  if (out->failed) return;
  if (length > SIZE_MAX - out->length) {
    out->failed = 1;
    png_error(png, "output too large");
  }
  if (out->length + length > out->capacity) {
    size_t capacity = out->capacity < 4096 ? 4096 : out->capacity;
    while (capacity < out->length + length) {
      if (capacity > SIZE_MAX / 2) {
        capacity = out->length + length;
        break;
      }
      capacity *= 2;
    }
    uint8_t *grown = realloc(out->bytes, capacity);
    if (grown == NULL) {
      out->failed = 1;
      png_error(png, "out of memory");
    }
    out->bytes = grown;
    out->capacity = capacity;
  }
  memcpy(out->bytes + out->length, data, length);
  out->length += length;
}

static void flush_nothing(png_structp png) { (void)png; }

/// libpng's messages go to the caller's buffer, never to standard error (the gallery owns
/// the terminal).
struct messages {
  char *error;
  size_t error_len;
};

static void on_error(png_structp png, png_const_charp message) {
  struct messages *messages = png_get_error_ptr(png);
  if (messages != NULL) tessera_png_set_error(messages->error, messages->error_len, message);
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

static int filter_mask(TesseraPNGFilters filters) {
  switch (filters) {
  case TESSERA_PNG_FILTERS_NONE: return PNG_FILTER_NONE;
  case TESSERA_PNG_FILTERS_FAST: return PNG_FILTER_SUB;
  default: return PNG_ALL_FILTERS;
  }
}

int tessera_png_encode(const uint8_t *rgba, size_t rgba_len, int width, int height,
                       int drop_alpha, int level, TesseraPNGFilters filters,
                       const TesseraPNGText *text, int text_count, uint8_t **png,
                       size_t *png_len, char *error, size_t error_len) {
  if (rgba == NULL || png == NULL || png_len == NULL || width < 1 || height < 1 ||
      level < 0 || level > 9 || text_count < 0 || (text_count > 0 && text == NULL) ||
      (uint64_t)width > PNG_USER_WIDTH_MAX || (uint64_t)height > PNG_USER_HEIGHT_MAX) {
    tessera_png_set_error(error, error_len, "bad arguments");
    return -1;
  }
  // The pixels must be exactly what the size says: libpng reads width × 4 bytes a row.
  if ((uint64_t)width * (uint64_t)height > SIZE_MAX / 4 ||
      rgba_len != (size_t)width * (size_t)height * 4) {
    tessera_png_set_error(error, error_len, "the pixel count does not match the size");
    return -1;
  }
  *png = NULL;
  *png_len = 0;
  struct messages messages = {error, error_len};
  png_structp writer =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, &messages, on_error, on_warning);
  if (writer == NULL) {
    tessera_png_set_error(error, error_len, "libpng could not start");
    return -1;
  }
  png_infop info = png_create_info_struct(writer);
  // Volatile: read after a longjmp back into this frame.
  struct output out = {NULL, 0, 0, 0};
  struct output *volatile output = &out;
  png_bytep *volatile rows = NULL;
  png_textp volatile chunks = NULL;
  if (info == NULL || setjmp(png_jmpbuf(writer))) {
    if (info == NULL) tessera_png_set_error(error, error_len, "libpng could not start");
    png_destroy_write_struct(&writer, info == NULL ? NULL : &info);
    free(output->bytes);
    free(rows);
    free(chunks);
    return -1;
  }
  png_set_write_fn(writer, output, write_bytes, flush_nothing);
  png_set_compression_level(writer, level);
  png_set_filter(writer, PNG_FILTER_TYPE_BASE, filter_mask(filters));
  png_set_IHDR(writer, info, (png_uint_32)width, (png_uint_32)height, 8,
               drop_alpha ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
  if (text_count > 0) {
    chunks = calloc((size_t)text_count, sizeof(png_text));
    if (chunks == NULL) png_error(writer, "out of memory");
    for (int index = 0; index < text_count; index++) {
      switch (text[index].kind) {
      case TESSERA_PNG_TEXT_DEFLATED: chunks[index].compression = PNG_TEXT_COMPRESSION_zTXt; break;
      case TESSERA_PNG_TEXT_INTERNATIONAL_DEFLATED:
        chunks[index].compression = PNG_ITXT_COMPRESSION_zTXt;
        break;
      default: chunks[index].compression = PNG_TEXT_COMPRESSION_NONE; break;
      }
      chunks[index].key = (png_charp)text[index].key;
      chunks[index].text = (png_charp)text[index].text;
    }
    png_set_text(writer, info, chunks, text_count);
  }
  png_write_info(writer, info);
  // Each pixel's fourth byte is a filler libpng skips.
  if (drop_alpha) png_set_filler(writer, 0, PNG_FILLER_AFTER);
  rows = malloc((size_t)height * sizeof(png_bytep));
  if (rows == NULL) png_error(writer, "out of memory");
  for (int row = 0; row < height; row++) {
    rows[row] = (png_bytep)(rgba + (size_t)row * (size_t)width * 4);
  }
  png_write_image(writer, rows);
  png_write_end(writer, NULL);
  png_destroy_write_struct(&writer, &info);
  free(rows);
  free(chunks);
  *png = output->bytes;
  *png_len = output->length;
  return 0;
}

int tessera_png_encode_indexed(const uint8_t *indices, size_t indices_len, int width, int height,
                               const uint8_t *palette_rgb, int palette_count, int level,
                               TesseraPNGFilters filters, uint8_t **png, size_t *png_len,
                               char *error, size_t error_len) {
  if (indices == NULL || palette_rgb == NULL || png == NULL || png_len == NULL || width < 1 ||
      height < 1 || level < 0 || level > 9 || palette_count < 1 ||
      palette_count > PNG_MAX_PALETTE_LENGTH || (uint64_t)width > PNG_USER_WIDTH_MAX ||
      (uint64_t)height > PNG_USER_HEIGHT_MAX) {
    tessera_png_set_error(error, error_len, "bad arguments");
    return -1;
  }
  if ((uint64_t)width * (uint64_t)height > SIZE_MAX ||
      indices_len != (size_t)width * (size_t)height) {
    tessera_png_set_error(error, error_len, "the pixel count does not match the size");
    return -1;
  }
  // An index past the palette makes a PNG that decoders refuse: checked before libpng runs.
  for (size_t index = 0; index < indices_len; index++) {
    if (indices[index] >= palette_count) {
      tessera_png_set_error(error, error_len, "an index past the palette");
      return -1;
    }
  }
  *png = NULL;
  *png_len = 0;
  struct messages messages = {error, error_len};
  png_structp writer =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, &messages, on_error, on_warning);
  if (writer == NULL) {
    tessera_png_set_error(error, error_len, "libpng could not start");
    return -1;
  }
  png_infop info = png_create_info_struct(writer);
  struct output out = {NULL, 0, 0, 0};
  struct output *volatile output = &out;
  png_bytep *volatile rows = NULL;
  if (info == NULL || setjmp(png_jmpbuf(writer))) {
    if (info == NULL) tessera_png_set_error(error, error_len, "libpng could not start");
    png_destroy_write_struct(&writer, info == NULL ? NULL : &info);
    free(output->bytes);
    free(rows);
    return -1;
  }
  png_color entries[PNG_MAX_PALETTE_LENGTH];
  for (int entry = 0; entry < palette_count; entry++) {
    entries[entry].red = palette_rgb[entry * 3];
    entries[entry].green = palette_rgb[entry * 3 + 1];
    entries[entry].blue = palette_rgb[entry * 3 + 2];
  }
  png_set_write_fn(writer, output, write_bytes, flush_nothing);
  png_set_compression_level(writer, level);
  png_set_filter(writer, PNG_FILTER_TYPE_BASE, filter_mask(filters));
  png_set_IHDR(writer, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_PALETTE,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
  png_set_PLTE(writer, info, entries, palette_count);
  png_write_info(writer, info);
  rows = malloc((size_t)height * sizeof(png_bytep));
  if (rows == NULL) png_error(writer, "out of memory");
  for (int row = 0; row < height; row++) {
    rows[row] = (png_bytep)(indices + (size_t)row * (size_t)width);
  }
  png_write_image(writer, rows);
  png_write_end(writer, NULL);
  png_destroy_write_struct(&writer, &info);
  free(rows);
  *png = output->bytes;
  *png_len = output->length;
  return 0;
}
