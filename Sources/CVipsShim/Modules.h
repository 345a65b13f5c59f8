#ifndef TESSERA_MODULES_H
#define TESSERA_MODULES_H

#include <stddef.h>

// libvips' HEIF and JPEG XL modules, loaded when first needed (see CVipsShim.c): for bytes
// that may be theirs, and for an encode to one of their suffixes. Safe from any thread.
void tessera__load_module_for_bytes(const void *buffer, size_t length);
void tessera__load_module_for_suffix(const char *suffix);

#endif
