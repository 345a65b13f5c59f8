#ifndef TESSERA_CVIPSSHIM_ANIMATION_H
#define TESSERA_CVIPSSHIM_ANIMATION_H

// An animation's frames (GIF, animated WebP), for the detail view to play. Kept apart from
// CVipsShim.h's still decoders; like it, never includes vips.h.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returned when the bytes hold a single picture: nothing was decoded.
#define TESSERA_NOT_ANIMATED (-5)

/// What tessera_vips_animation_rgba decoded.
typedef struct {
  /// One frame's sides: every frame has them (libvips composes each onto the canvas).
  int frame_width;
  int frame_height;
  /// Frames decoded: at most the `max_frames` asked for.
  int frame_count;
  /// How many times the animation plays: 0 forever (GIF's NETSCAPE loop 0, WebP's 0).
  int loop;
} TesseraAnimation;

/// Decodes the first `max_frames` frames of an animated GIF or WebP in `buffer` (a format of
/// `allowed`, else TESSERA_REFUSED_FORMAT), each shrunk to fit `target_width` x
/// `target_height` (never enlarged), and smaller still when all frames would take more than
/// `max_bytes` of RGBA: the budget is checked before any frame is decoded. `*pixels` holds
/// the frames one below the other (8-bit sRGB RGBA; free with tessera_vips_free) and
/// `delays_ms[0..<frame_count]` each frame's delay as the file states it (it may be 0).
/// Returns 0, TESSERA_NOT_ANIMATED for a single picture, or -1 with a libvips error.
int tessera_vips_animation_rgba(const void *buffer, size_t length, unsigned allowed,
                                int target_width, int target_height, int max_frames,
                                size_t max_bytes, uint8_t **pixels, size_t *pixels_len,
                                int *delays_ms, TesseraAnimation *animation);

#ifdef __cplusplus
}
#endif

#endif
