#define TESSERA_VIPS_SYMBOLS_DEFINE
#include "VipsSymbols.h"

#include <dlfcn.h>
#include <stdio.h>

struct tessera_vips_functions tessera__vips;

// The libvips this shim was compiled against (its ABI: libvips.so.42 since 8.0).
#define TESSERA_LIBVIPS_SONAME "libvips.so.42"

int tessera__open_libvips(char *error, size_t error_len) {
  // Global: the HEIF and JPEG XL modules loaded later resolve libvips' symbols through it.
  void *library = dlopen(TESSERA_LIBVIPS_SONAME, RTLD_NOW | RTLD_GLOBAL);
  if (library == NULL) {
    const char *reason = dlerror();
    snprintf(error, error_len, "libvips could not be loaded (%s): install libvips42",
             reason != NULL ? reason : TESSERA_LIBVIPS_SONAME);
    return -1;
  }
#define TESSERA_VIPS_LOOKUP(name)                                                              \
  *(void **)(&tessera__vips.name) = dlsym(library, #name);                                     \
  if (tessera__vips.name == NULL) {                                                            \
    snprintf(error, error_len, "%s has no %s: libvips is older than Tessera needs",            \
             TESSERA_LIBVIPS_SONAME, #name);                                                   \
    return -1;                                                                                 \
  }
  TESSERA_VIPS_FUNCTIONS(TESSERA_VIPS_LOOKUP)
#undef TESSERA_VIPS_LOOKUP
  return 0;
}
