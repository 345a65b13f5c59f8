#include <string.h>
#include <vips/vips.h>

#include "VipsSymbols.h"

#include "CVipsShim.h"
#include "CVipsShimMetadata.h"
#include "Decoding.h"
#include "Modules.h"
#include "Saving.h"

int tessera_vips_encode_with_metadata(const uint8_t *pixels, size_t pixels_len, int width,
                                      int height, int bands, const char *suffix,
                                      const TesseraMetadataField *fields, size_t field_count,
                                      void **out, size_t *out_len) {
  if (tessera_vips_init() != 0) return -1;
  if (suffix == NULL || (fields == NULL && field_count > 0)) {
    vips_error("tessera", "no suffix, or fields without a count");
    return -1;
  }
  VipsImage *image = tessera__image_over_pixels(pixels, pixels_len, width, height, bands);
  if (image == NULL) return -1;
  for (size_t i = 0; i < field_count; i++) {
    if (fields[i].name == NULL) continue;
    if (fields[i].text != NULL)
      vips_image_set_string(image, fields[i].name, fields[i].text);
    else
      vips_image_set_int(image, fields[i].name, fields[i].number);
  }
  int status = tessera__save_to_buffer(image, suffix, out, out_len);
  g_object_unref(image);
  return status;
}

int tessera_vips_orientation(const void *buffer, size_t length) {
  if (tessera_vips_init() != 0 || buffer == NULL || length == 0) return 1;
  if (tessera__claims_fit(buffer, length) != 0) {
    vips_error_clear();
    return 1;
  }
  tessera__load_module_for_bytes(buffer, length);
  VipsImage *image = vips_image_new_from_buffer(buffer, length, "", "access",
                                                VIPS_ACCESS_SEQUENTIAL, NULL);
  if (image == NULL) {
    vips_error_clear();
    return 1;
  }
  int orientation = 1;
  if (vips_image_get_typeof(image, VIPS_META_ORIENTATION) != 0 &&
      vips_image_get_int(image, VIPS_META_ORIENTATION, &orientation) != 0)
    orientation = 1;
  g_object_unref(image);
  return orientation >= 1 && orientation <= 8 ? orientation : 1;
}

int tessera_vips_png_text(const void *buffer, size_t length, size_t max_bytes, char **out,
                          size_t *out_len) {
  if (out == NULL || out_len == NULL) return -1;
  *out = NULL;
  *out_len = 0;
  if (tessera_vips_init() != 0 || buffer == NULL || length == 0) return -1;
  if (tessera__claims_fit(buffer, length) != 0) {
    vips_error_clear();
    return -1;
  }
  VipsImage *image = NULL;
  // The PNG loader by name: no other loader sniffs these bytes.
  if (vips_pngload_buffer((void *)buffer, length, &image, "access", VIPS_ACCESS_SEQUENTIAL,
                          NULL) != 0 ||
      image == NULL) {
    vips_error_clear();
    return -1;
  }
  GString *pairs = g_string_new(NULL);
  gchar **names = vips_image_get_fields(image);
  const char *prefix = "png-comment-";
  for (int i = 0; names != NULL && names[i] != NULL; i++) {
    if (strncmp(names[i], prefix, strlen(prefix)) != 0) continue;
    // "png-comment-N-KEY": the key follows the second dash.
    const char *key = strchr(names[i] + strlen(prefix), '-');
    const char *value = NULL;
    if (key == NULL || vips_image_get_string(image, names[i], &value) != 0 || value == NULL) {
      vips_error_clear();
      continue;
    }
    key++;
    size_t needed = strlen(key) + strlen(value) + 2;
    if (pairs->len + needed > max_bytes) break;
    g_string_append_len(pairs, key, (gssize)strlen(key) + 1);
    g_string_append_len(pairs, value, (gssize)strlen(value) + 1);
  }
  g_strfreev(names);
  g_object_unref(image);
  *out_len = pairs->len;
  *out = g_string_free(pairs, FALSE);
  return 0;
}
