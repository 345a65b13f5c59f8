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
/// RGBA (bands = 4) or RGB (bands = 3); `suffix` picks the saver (".png[compression=3]",
/// ".jpg[Q=90]"). The caller frees `*out` with tessera_vips_free. Returns 0 on success, -1 on
/// error (see tessera_vips_last_error).
int tessera_vips_encode_with_metadata(const uint8_t *pixels, int width, int height, int bands,
                                      const char *suffix, const TesseraMetadataField *fields,
                                      size_t field_count, void **out, size_t *out_len);

/// The EXIF orientation (1…8) libvips reads from `buffer`'s header; 1 when there is none.
/// Call it only on bytes tessera_vips_header_allowed accepted: it runs the same loader, which
/// reads the header only. Orientations 5…8 swap the image's width and height once upright.
int tessera_vips_orientation(const void *buffer, size_t length);

#ifdef __cplusplus
}
#endif

#endif
