#ifndef TESSERA_CVIPSSHIM_METADATA_H
#define TESSERA_CVIPSSHIM_METADATA_H

// Encoding with metadata fields: PNG text chunks (freedesktop.org thumbnails) and EXIF
// orientation (tests). Kept apart from CVipsShim.h's decoders; like it, never includes vips.h.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One metadata field to set on the image before it is saved: `name` is libvips' field name,
/// either a string field (`text` not NULL) or an integer one (`text` NULL, `number` used).
///
/// libvips turns `png-comment-N-KEY` string fields into PNG tEXt chunks KEY=text (N orders
/// them), and the integer field `orientation` (1…8) into the EXIF Orientation tag of a JPEG.
typedef struct {
  const char *name;
  const char *text;
  int number;
} TesseraMetadataField;

/// tessera_vips_encode (CVipsShim.h) with `fields` set on the image first. `pixels` is 8-bit
/// RGBA (bands = 4) or RGB (bands = 3), exactly width × height × bands bytes; `suffix` picks the saver (".png[compression=3]",
/// ".jpg[Q=90]"). The caller frees `*out` with tessera_vips_free. Returns 0 on success, -1 on
/// error (see tessera_vips_last_error).
int tessera_vips_encode_with_metadata(const uint8_t *pixels, size_t pixels_len, int width,
                                      int height, int bands, const char *suffix,
                                      const TesseraMetadataField *fields, size_t field_count,
                                      void **out, size_t *out_len);

/// The EXIF orientation (1…8) libvips reads from `buffer`'s header; 1 when there is none.
/// Call it only on bytes tessera_vips_header_allowed accepted: it runs the same loader, which
/// reads the header only. Orientations 5…8 swap the image's width and height once upright.
int tessera_vips_orientation(const void *buffer, size_t length);

/// The text chunks of the PNG in `buffer` (tEXt, and zTXt and iTXt inflated by libvips' PNG
/// loader, which alone is run: bytes that are not a PNG are refused), as `key NUL value NUL`
/// pairs in order, in `*out` (`*out_len` bytes, at most `max_bytes`: pairs past it are left
/// out). Reads the header only. The caller frees `*out` with tessera_vips_free. Returns 0 on
/// success, -1 when libvips cannot read the PNG.
int tessera_vips_png_text(const void *buffer, size_t length, size_t max_bytes, char **out,
                          size_t *out_len);

#ifdef __cplusplus
}
#endif

#endif
