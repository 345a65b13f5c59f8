#ifndef TESSERA_CPNG_ERROR_H
#define TESSERA_CPNG_ERROR_H

#include <stddef.h>

/// Copies `text` into the caller's `error` buffer, cut to fit and NUL-terminated.
void tessera_png_set_error(char *error, size_t error_len, const char *text);

#endif
