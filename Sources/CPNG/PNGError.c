#include <stdio.h>

#include "PNGError.h"

void tessera_png_set_error(char *error, size_t error_len, const char *text) {
  if (error == NULL || error_len == 0) return;
  snprintf(error, error_len, "%s", text == NULL ? "unknown error" : text);
}
