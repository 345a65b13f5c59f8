// libFuzzer harness for the C shim over arbitrary bytes: a PNG's compressed text and its decode
// by libpng (as shared thumbnails are read), a JPEG's header and decode by libjpeg-turbo (as
// photos' JPEGs are read) and the PNG encode of what it gave, then the header read and thumbnail with the
// network allow-list, exactly as the image pipeline decodes bytes from a server. Only the
// photo decoders (JPEG, PNG, WebP, GIF, HEIF/AVIF) can be reached.
//
// Build and run (from the repository root; `scripts/fuzz.sh CVipsShim shim-thumbnail 30`
// does the same):
//   clang -fsanitize=fuzzer,address -g -O1 -I Sources/CVipsShim/include -I Sources/CPNG/include \
//     -I Sources/CJPEG/include -I Sources/CProcess/include $(pkg-config --cflags vips) \
//     Fuzz/CVipsShim/harness.c Sources/CVipsShim/*.c Sources/CPNG/*.c Sources/CJPEG/*.c \
//     Sources/CProcess/*.c -lpng16 -lz -ljpeg -ldl -o /tmp/fuzz-shim
//   mkdir -p /tmp/fuzz-shim-corpus
//   /tmp/fuzz-shim -max_total_time=30 -rss_limit_mb=4096 /tmp/fuzz-shim-corpus \
//     Fuzz/corpus/shim-thumbnail
// (new inputs go to the first folder; the seeds in Fuzz/corpus/shim-thumbnail stay as they
// are. With GNU gold as the default linker, `-fuse-ld=lld` silences its "Cannot export local
// symbol" warnings.)

#include <stdint.h>
#include <stdlib.h>

#include "CVipsShim.h"
#include "CVipsShimMetadata.h"
#include "CPNG.h"
#include "CJPEG.h"

// The pipeline refuses images over 100 megapixels from the header before decoding; the
// harness refuses far less, so one input cannot exhaust memory and hide the next bug.
enum { MAX_FUZZ_PIXELS = 4 * 1000 * 1000, JMSG_BUFFER = 256 };

/// A local thumbnail's compressed text, inflated by libvips' PNG loader: at most `limit`
/// bytes of NUL-terminated key, value pairs.
static void png_text(const uint8_t *data, size_t size) {
  const size_t limit = 4096;
  char *text = NULL;
  size_t length = 0;
  if (tessera_vips_png_text(data, size, limit, &text, &length) == 0) {
    if (length > limit || (length > 0 && (text == NULL || text[length - 1] != 0))) abort();
    size_t fields = 0;
    for (size_t i = 0; i < length; i++) fields += text[i] == 0;
    if (fields % 2 != 0) abort();
  }
  tessera_vips_free(text);
}

/// A shared thumbnail decoded by libpng (no libvips), held to the largest thumbnail's size.
static void shared_thumbnail(const uint8_t *data, size_t size) {
  uint8_t *pixels = NULL;
  size_t length = 0;
  int width = 0, height = 0;
  char error[128];
  if (tessera_png_decode_rgba(data, size, 1024, 1024L * 1024, &pixels, &length, &width, &height,
                              error, sizeof error) == 0) {
    if (pixels == NULL || width < 1 || height < 1 || width > 1024 || height > 1024 ||
        length != (size_t)width * (size_t)height * 4)
      abort();
    volatile uint8_t sink = pixels[length - 1];
    (void)sink;
  }
  tessera_png_free(pixels);
}

/// A photo's JPEG decoded by libjpeg-turbo at the smallest DCT scale covering a tile, held to
/// the harness's pixel limit; what it gives is encoded as a thumbnail PNG by libpng.
static void jpeg_photo(const uint8_t *data, size_t size) {
  int stored_width = 0, stored_height = 0;
  char error[JMSG_BUFFER];
  int status = tessera_jpeg_header(data, size, &stored_width, &stored_height, error, sizeof error);
  if (status == 0 && (stored_width < 1 || stored_height < 1)) abort();
  uint8_t *pixels = NULL;
  size_t length = 0;
  int width = 0, height = 0;
  int min_side = 1 + (int)(size % 64);
  if (tessera_jpeg_decode_rgba(data, size, min_side, min_side, 65535, MAX_FUZZ_PIXELS, &pixels,
                               &length, &width, &height, error, sizeof error) == 0) {
    if (pixels == NULL || width < 1 || height < 1 ||
        length != (size_t)width * (size_t)height * 4 ||
        (int64_t)width * height > MAX_FUZZ_PIXELS)
      abort();
    uint8_t *png = NULL;
    size_t png_length = 0;
    if (tessera_png_encode(pixels, length, width, height, 0, 1, TESSERA_PNG_FILTERS_FAST, NULL, 0,
                           &png, &png_length, error, sizeof error) == 0) {
      if (png == NULL || png_length < 8) abort();
    }
    tessera_png_free(png);
  }
  tessera_jpeg_free(pixels);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (tessera_vips_init() != 0) abort();
  png_text(data, size);
  shared_thumbnail(data, size);
  jpeg_photo(data, size);
  int width = 0, height = 0, bands = 0;
  char name[64];
  int status = tessera_vips_header_allowed(data, size, TESSERA_FORMATS_NETWORK, &width, &height,
                                           &bands, name, sizeof name);
  char error[256];
  tessera_vips_last_error(error, sizeof error);
  if (status != 0) return 0;
  if (width < 1 || height < 1 || (int64_t)width * height > MAX_FUZZ_PIXELS) return 0;
  static const int fits[] = {TESSERA_FIT_INSIDE, TESSERA_FIT_FILL, TESSERA_FIT_EXACT};
  int fit = fits[size % 3];
  uint8_t *pixels = NULL;
  size_t length = 0;
  int out_width = 0, out_height = 0;
  status = tessera_vips_thumbnail_rgba_allowed(data, size, TESSERA_FORMATS_NETWORK, 32, 24, fit,
                                               &pixels, &length, &out_width, &out_height);
  tessera_vips_last_error(error, sizeof error);
  if (status == 0) {
    // The contract the Swift decoder relies on: a tightly packed RGBA bitmap of that size.
    if (pixels == NULL || out_width < 1 || out_height < 1 ||
        length != (size_t)out_width * (size_t)out_height * 4)
      abort();
    volatile uint8_t sink = pixels[length - 1];
    (void)sink;
  }
  tessera_vips_free(pixels);
  return 0;
}
