#include <math.h>
#include <stdio.h>
#include <string.h>
#include <vips/vips.h>
#include "VipsSymbols.h"

#include "CVipsShim.h"
#include "CVipsShimAnimation.h"
#include "Decoding.h"

// The frame size that fits `target` inside the canvas (never enlarging) and keeps
// `frames` frames of RGBA within `max_bytes`. Computed in doubles: the sides come from a
// hostile header and their product can exceed any int.
static void fitted_frame(int canvas_width, int canvas_height, int frames, size_t max_bytes,
                         int *target_width, int *target_height) {
  double scale = fmin(1.0, fmin((double)*target_width / canvas_width,
                                (double)*target_height / canvas_height));
  double width = canvas_width * scale;
  double height = canvas_height * scale;
  double budget = (double)max_bytes / 4.0 / frames;
  if (width * height > budget) {
    double shrink = sqrt(budget / (width * height));
    width *= shrink;
    height *= shrink;
  }
  *target_width = (int)fmax(1.0, floor(width));
  *target_height = (int)fmax(1.0, floor(height));
}

int tessera_vips_animation_rgba(const void *buffer, size_t length, unsigned allowed,
                                int target_width, int target_height, int max_frames,
                                size_t max_bytes, uint8_t **pixels, size_t *pixels_len,
                                int *delays_ms, TesseraAnimation *animation) {
  if (tessera_vips_init() != 0) return -1;
  if (target_width < 1 || target_height < 1 || max_frames < 1 || max_bytes < 4 ||
      delays_ms == NULL || animation == NULL) {
    vips_error("tessera", "bad animation request: %dx%d, %d frames, %zu bytes", target_width,
               target_height, max_frames, max_bytes);
    return -1;
  }
  char nickname[64] = "";
  int checked = tessera__check_format(buffer, length, allowed, NULL, 0, nickname, sizeof nickname);
  if (checked != 0) return checked;
  // Only these loaders compose frames onto one canvas with delays; a multi-page TIFF or HEIF
  // holds pages, not an animation.
  if (strcmp(nickname, "gifload_buffer") != 0 && strcmp(nickname, "webpload_buffer") != 0) {
    return TESSERA_NOT_ANIMATED;
  }
  VipsImage *header = vips_image_new_from_buffer(buffer, length, "", "access",
                                                 VIPS_ACCESS_SEQUENTIAL, NULL);
  if (header == NULL) return -1;
  int pages = vips_image_get_n_pages(header);
  int canvas_width = vips_image_get_width(header);
  int canvas_height = vips_image_get_page_height(header);
  g_object_unref(header);
  if (pages < 2) return TESSERA_NOT_ANIMATED;
  if (canvas_width < 1 || canvas_height < 1) {
    vips_error("tessera", "an animation of %dx%d pixels", canvas_width, canvas_height);
    return -1;
  }
  int frames = pages < max_frames ? pages : max_frames;
  fitted_frame(canvas_width, canvas_height, frames, max_bytes, &target_width, &target_height);

  char options[64];
  snprintf(options, sizeof options, "n=%d,fail_on=truncated", frames);
  VipsImage *strip = NULL;
  if (vips_thumbnail_buffer((void *)buffer, length, &strip, target_width, "height", target_height,
                            "size", VIPS_SIZE_DOWN, "option_string", options, NULL) != 0) {
    return -1;
  }
  int frame_height = vips_image_get_page_height(strip);
  int strip_height = vips_image_get_height(strip);
  if (frame_height < 1 || strip_height % frame_height != 0 ||
      strip_height / frame_height != frames) {
    vips_error("tessera", "%d rows are not %d frames of %d", strip_height, frames, frame_height);
    g_object_unref(strip);
    return -1;
  }
  int *delays = NULL;
  int delay_count = 0;
  if (vips_image_get_typeof(strip, "delay") != 0 &&
      vips_image_get_array_int(strip, "delay", &delays, &delay_count) == 0) {
    for (int index = 0; index < frames; index++) {
      delays_ms[index] = index < delay_count ? delays[index] : 0;
    }
  } else {
    memset(delays_ms, 0, sizeof(int) * (size_t)frames);
  }
  int loop = 0;
  if (vips_image_get_typeof(strip, "loop") == 0 || vips_image_get_int(strip, "loop", &loop) != 0) {
    loop = 0;
  }
  int width = 0;
  int height = 0;
  if (tessera__write_rgba(strip, pixels, pixels_len, &width, &height) != 0) return -1;
  animation->frame_width = width;
  animation->frame_height = frame_height;
  animation->frame_count = frames;
  animation->loop = loop < 0 ? 0 : loop;
  return 0;
}
