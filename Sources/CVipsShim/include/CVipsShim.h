#ifndef TESSERA_CVIPSSHIM_H
#define TESSERA_CVIPSSHIM_H

// Non-variadic wrappers over libvips. Swift cannot call libvips' variadic API, and this header
// deliberately does not include <vips/vips.h>, so Swift never parses glib.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How a decoded image is fitted into the target box.
typedef enum {
  /// Scale down (never up) so the whole image fits inside the box; aspect ratio kept.
  TESSERA_FIT_INSIDE = 0,
  /// Scale so the image covers the box, then crop the centre to exactly the box.
  TESSERA_FIT_FILL = 1,
  /// Scale to exactly the box, ignoring the aspect ratio.
  TESSERA_FIT_EXACT = 2,
} TesseraFit;

/// The image formats Tessera decodes, as bits of an allow-list. Every other format libvips
/// could read (SVG, PDF, ImageMagick's, OpenSlide, MAT, CSV, FITS, PPM, …) is never decoded.
typedef enum {
  TESSERA_FORMAT_JPEG = 1 << 0,
  TESSERA_FORMAT_PNG = 1 << 1,
  TESSERA_FORMAT_WEBP = 1 << 2,
  TESSERA_FORMAT_GIF = 1 << 3,
  /// HEIC and AVIF (one libheif loader reads both).
  TESSERA_FORMAT_HEIF = 1 << 4,
  TESSERA_FORMAT_TIFF = 1 << 5,
  TESSERA_FORMAT_JXL = 1 << 6,
  /// What bytes from the network may reach: the photo decoders.
  TESSERA_FORMATS_NETWORK = TESSERA_FORMAT_JPEG | TESSERA_FORMAT_PNG | TESSERA_FORMAT_WEBP |
                            TESSERA_FORMAT_GIF | TESSERA_FORMAT_HEIF,
  /// What files from a folder the user chose may reach: the photo decoders, TIFF, JPEG XL.
  TESSERA_FORMATS_LOCAL = TESSERA_FORMATS_NETWORK | TESSERA_FORMAT_TIFF | TESSERA_FORMAT_JXL,
} TesseraFormat;

/// Returned when the bytes are in a format outside the allow-list given (nothing was decoded).
#define TESSERA_REFUSED_FORMAT (-2)

/// Starts libvips once per process (thread-safe, idempotent). Returns 0 on success.
/// Loaders outside TESSERA_FORMATS_LOCAL are blocked process-wide (and libvips' untrusted
/// ones with them), so no call in the process can reach them.
int tessera_vips_init(void);

/// Names the format of `buffer` from its first bytes, the way libvips picks a loader: writes
/// a name a person reads ("JPEG", "SVG", "PDF") to `name` (NUL-terminated, truncated to
/// `name_len`) and returns its TesseraFormat bit, 0 for a recognised format outside
/// TESSERA_FORMATS_LOCAL, or -1 when nothing recognises the bytes. Runs no decoder.
int tessera_vips_format(const void *buffer, size_t length, char *name, size_t name_len);

/// Reads an encoded image's header only: dimensions and band count. The format must be in
/// `allowed` (TesseraFormat bits); otherwise nothing is parsed, its name is written to
/// `format_name` and TESSERA_REFUSED_FORMAT is returned. `format_name` also receives the
/// name on success. Returns 0 on success, -1 on error (see tessera_vips_last_error).
int tessera_vips_header_allowed(const void *buffer, size_t length, unsigned allowed, int *width,
                                int *height, int *bands, char *format_name,
                                size_t format_name_len);

/// Decodes `buffer` straight to a bitmap no larger than `target_width` x `target_height`
/// (libvips' shrink-on-load thumbnail: JPEG is decoded at 1/2, 1/4 or 1/8 scale when that
/// suffices), converted to sRGB, 8-bit RGBA. The format must be in `allowed`, else
/// TESSERA_REFUSED_FORMAT. The caller frees `*pixels` with tessera_vips_free.
/// `fit` is a TesseraFit. Images are never upscaled except with TESSERA_FIT_EXACT.
/// Returns 0 on success, -1 on error.
int tessera_vips_thumbnail_rgba_allowed(const void *buffer, size_t length, unsigned allowed,
                                        int target_width, int target_height, int fit,
                                        uint8_t **pixels, size_t *pixels_len, int *out_width,
                                        int *out_height);

/// Whether libvips in this process has the operation `nickname` (e.g. "heifload_buffer"):
/// 1 or 0. Tessera loads only the libvips modules it decodes photos with.
int tessera_vips_has_operation(const char *nickname);

/// Decodes all of `buffer` at its own size (turned upright by its EXIF orientation),
/// converted to sRGB, 8-bit RGBA: for images already small, such as shared thumbnails, which
/// the caller resizes itself. The format must be in `allowed`, else TESSERA_REFUSED_FORMAT;
/// the caller checks the header's size first. The caller frees `*pixels` with
/// tessera_vips_free. Returns 0 on success, -1 on error.
int tessera_vips_load_rgba_allowed(const void *buffer, size_t length, unsigned allowed,
                                   uint8_t **pixels, size_t *pixels_len, int *out_width,
                                   int *out_height);

/// tessera_vips_header_allowed for TESSERA_FORMATS_LOCAL, writing the loader's nickname
/// (e.g. "jpegload_buffer") to `loader` instead of the format's name.
int tessera_vips_header(const void *buffer, size_t length, int *width, int *height, int *bands,
                        char *loader, size_t loader_len);

/// tessera_vips_thumbnail_rgba_allowed for TESSERA_FORMATS_LOCAL.
int tessera_vips_thumbnail_rgba(const void *buffer, size_t length, int target_width,
                                int target_height, int fit, uint8_t **pixels, size_t *pixels_len,
                                int *out_width, int *out_height);

/// Encodes an 8-bit RGBA (bands = 4) or RGB (bands = 3) bitmap; `pixels_len` must be exactly
/// width × height × bands (anything else is refused: libvips' savers read that many bytes).
/// `suffix` picks the saver and its options the libvips way: ".jpg[Q=85]", ".png",
/// ".webp[Q=80]", ".gif", ".png[bitdepth=16]". The caller frees `*out` with tessera_vips_free.
/// Returns 0 on success, -1 on error.
int tessera_vips_encode(const uint8_t *pixels, size_t pixels_len, int width, int height,
                        int bands, const char *suffix, void **out, size_t *out_len);

/// Frees memory returned by this shim.
void tessera_vips_free(void *pointer);

/// Copies libvips' accumulated error text into `buffer`, NUL-terminated, and clears it.
/// Returns the number of bytes written. The buffer is one per process: the copy is taken
/// under libvips' own lock (vips_error_buffer_copy), but with several decodes at once the
/// text may be another thread's.
size_t tessera_vips_last_error(char *buffer, size_t length);

#ifdef __cplusplus
}
#endif

// Encoding with metadata (PNG text chunks, EXIF orientation), in its own header.
#include "CVipsShimMetadata.h"
// Animations' frames, in their own header.
#include "CVipsShimAnimation.h"
// Processors, in their own header.
#include "CVipsShimProcessing.h"

#endif
