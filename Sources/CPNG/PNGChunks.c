// The chunk walk that stands between outside bytes and libpng's allocations.

#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "CPNG.h"
#include "PNGError.h"

/// A chunk's type for a message: its four letters when they are letters, as PNG requires.
static void chunk_name(const uint8_t *type, char name[5]) {
  for (int i = 0; i < 4; i++) {
    uint8_t c = type[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) {
      strcpy(name, "?");
      return;
    }
    name[i] = (char)c;
  }
  name[4] = '\0';
}

int tessera_png_chunks_fit(const void *buffer, size_t length, char *error, size_t error_len) {
  const uint8_t *bytes = buffer;
  if (buffer == NULL || length < 8 || png_sig_cmp(bytes, 0, 8) != 0) return 0;
  // Length (4), type (4), data, CRC (4): the header and the CRC frame each chunk's data.
  enum { FRAME = 12 };
  size_t offset = 8;
  while (offset < length) {
    if (length - offset < FRAME) {
      tessera_png_set_error(error, error_len, "the PNG ends inside a chunk's header");
      return -1;
    }
    const uint8_t *chunk = bytes + offset;
    uint32_t claimed = png_get_uint_32(chunk);
    size_t remaining = length - offset - FRAME;
    if (claimed > remaining) {
      char name[5];
      chunk_name(chunk + 4, name);
      char text[128];
      snprintf(text, sizeof text, "a PNG %s chunk claims %u bytes where %zu remain", name,
               (unsigned)claimed, remaining);
      tessera_png_set_error(error, error_len, text);
      return -1;
    }
    if (memcmp(chunk + 4, "IEND", 4) == 0) return 0;
    offset += FRAME + claimed;
  }
  // No IEND: libpng says what is missing, having been asked for nothing it cannot read.
  return 0;
}
