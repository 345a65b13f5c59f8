// zlib's own compressor and checksum: kitty's `o=z` uploads and PNG chunk checks.

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "CPNG.h"

int tessera_zlib_compress(const uint8_t *bytes, size_t length, int level, uint8_t **out,
                          size_t *out_len) {
  if ((bytes == NULL && length > 0) || out == NULL || out_len == NULL || level < 0 || level > 9) {
    return -1;
  }
  *out = NULL;
  uLong bound = compressBound((uLong)length);
  if ((size_t)(uLong)length != length || bound < length) return -1;
  uint8_t *memory = malloc(bound > 0 ? bound : 1);
  if (memory == NULL) return -1;
  uLongf written = bound;
  if (compress2(memory, &written, bytes, (uLong)length, level) != Z_OK) {
    free(memory);
    return -1;
  }
  *out = memory;
  *out_len = written;
  return 0;
}

int tessera_zlib_uncompress(const uint8_t *bytes, size_t length, size_t max_out, uint8_t **out,
                            size_t *out_len) {
  if (bytes == NULL || out == NULL || out_len == NULL || length > UINT32_MAX) return -1;
  *out = NULL;
  z_stream stream;
  memset(&stream, 0, sizeof stream);
  if (inflateInit(&stream) != Z_OK) return -1;
  size_t capacity = 4096;
  uint8_t *memory = malloc(capacity);
  if (memory == NULL) {
    inflateEnd(&stream);
    return -1;
  }
  stream.next_in = (Bytef *)bytes;
  stream.avail_in = (uInt)length;
  size_t written = 0;
  int status = Z_OK;
  while (status == Z_OK) {
    if (written == capacity) {
      if (capacity >= max_out) break;
      size_t grown = capacity > max_out / 2 ? max_out : capacity * 2;
      uint8_t *bigger = realloc(memory, grown);
      if (bigger == NULL) break;
      memory = bigger;
      capacity = grown;
    }
    size_t room = capacity - written;
    stream.next_out = memory + written;
    stream.avail_out = room > UINT32_MAX ? UINT32_MAX : (uInt)room;
    uInt before = stream.avail_out;
    status = inflate(&stream, Z_NO_FLUSH);
    written += before - stream.avail_out;
    if (status == Z_BUF_ERROR && stream.avail_in == 0) break;
    if (status == Z_BUF_ERROR) status = Z_OK;
  }
  inflateEnd(&stream);
  // Only a whole stream, every input byte used, counts.
  if (status != Z_STREAM_END || stream.avail_in != 0) {
    free(memory);
    return -1;
  }
  *out = memory;
  *out_len = written;
  return 0;
}

uint32_t tessera_crc32(uint32_t crc, const uint8_t *bytes, size_t length) {
  if (bytes == NULL || length == 0) return crc;
  return (uint32_t)crc32_z((uLong)crc, bytes, length);
}
