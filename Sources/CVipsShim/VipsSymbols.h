#ifndef TESSERA_VIPS_SYMBOLS_H
#define TESSERA_VIPS_SYMBOLS_H

// libvips, opened at run time rather than linked: linking it made every launch load and
// relocate its ~100 libraries before main (32 ms of a 40-ms start here, `tessera --version`
// included). Opened by tessera_vips_init on the thread that first needs it (the image
// pipeline starts it in the background), that cost overlaps the terminal's set-up and the
// folder's walk. Every libvips and GLib function the shim calls goes through this table:
// after this header, `vips_init(…)` means `tessera__vips.vips_init(…)`.
//
// Private to the shim; include it after <vips/vips.h> and <gmodule.h>, last.

#include <gmodule.h>
#include <vips/vips.h>

#define TESSERA_VIPS_FUNCTIONS(X)                                                              \
  X(vips_init)                                                                                 \
  X(vips_error)                                                                                \
  X(vips_error_clear)                                                                          \
  X(vips_error_buffer_copy)                                                                    \
  X(vips_cache_set_max)                                                                        \
  X(vips_cache_set_max_mem)                                                                    \
  X(vips_cache_set_max_files)                                                                  \
  X(vips_concurrency_set)                                                                      \
  X(vips_block_untrusted_set)                                                                  \
  X(vips_operation_block_set)                                                                  \
  X(vips_type_find)                                                                            \
  X(vips_nickname_find)                                                                        \
  X(vips_foreign_find_load_buffer)                                                             \
  X(vips_image_new_from_buffer)                                                                \
  X(vips_image_new_from_memory)                                                                \
  X(vips_image_write_to_memory)                                                                \
  X(vips_image_write_to_buffer)                                                                \
  X(vips_image_get_width)                                                                      \
  X(vips_image_get_height)                                                                     \
  X(vips_image_get_bands)                                                                      \
  X(vips_image_get_format)                                                                     \
  X(vips_image_get_interpretation)                                                             \
  X(vips_image_get_typeof)                                                                     \
  X(vips_image_get_int)                                                                        \
  X(vips_image_get_array_int)                                                                  \
  X(vips_image_get_n_pages)                                                                    \
  X(vips_image_get_page_height)                                                                \
  X(vips_image_get_string)                                                                     \
  X(vips_image_get_fields)                                                                     \
  X(vips_image_set_int)                                                                        \
  X(vips_image_set_string)                                                                     \
  X(vips_thumbnail_buffer)                                                                     \
  X(vips_pngload_buffer)                                                                       \
  X(vips_autorot)                                                                              \
  X(vips_colourspace)                                                                          \
  X(vips_cast_uchar)                                                                           \
  X(vips_gaussblur)                                                                            \
  X(vips_extract_band)                                                                         \
  X(vips_bandjoin)                                                                             \
  X(vips_bandjoin2)                                                                            \
  X(vips_bandjoin_const1)                                                                      \
  X(g_object_ref)                                                                              \
  X(g_object_unref)                                                                            \
  X(g_free)                                                                                    \
  X(g_strfreev)                                                                                \
  X(g_strdup_printf)                                                                           \
  X(g_path_get_dirname)                                                                        \
  X(g_string_new)                                                                              \
  X(g_string_append_len)                                                                       \
  X(g_string_free)                                                                             \
  X(g_type_from_name)                                                                          \
  X(g_log_set_handler)                                                                         \
  X(g_module_open)                                                                             \
  X(g_module_make_resident)

#define TESSERA_VIPS_FIELD(name) __typeof__(&name) name;
struct tessera_vips_functions {
  TESSERA_VIPS_FUNCTIONS(TESSERA_VIPS_FIELD)
};
#undef TESSERA_VIPS_FIELD

extern struct tessera_vips_functions tessera__vips;

// Opens libvips and fills `tessera__vips`: 0, or -1 with the reason in `error`. Call once.
int tessera__open_libvips(char *error, size_t error_len);

#ifndef TESSERA_VIPS_SYMBOLS_DEFINE
#define vips_init (tessera__vips.vips_init)
#define vips_error (tessera__vips.vips_error)
#define vips_error_clear (tessera__vips.vips_error_clear)
#define vips_error_buffer_copy (tessera__vips.vips_error_buffer_copy)
#define vips_cache_set_max (tessera__vips.vips_cache_set_max)
#define vips_cache_set_max_mem (tessera__vips.vips_cache_set_max_mem)
#define vips_cache_set_max_files (tessera__vips.vips_cache_set_max_files)
#define vips_concurrency_set (tessera__vips.vips_concurrency_set)
#define vips_block_untrusted_set (tessera__vips.vips_block_untrusted_set)
#define vips_operation_block_set (tessera__vips.vips_operation_block_set)
#define vips_type_find (tessera__vips.vips_type_find)
#define vips_nickname_find (tessera__vips.vips_nickname_find)
#define vips_foreign_find_load_buffer (tessera__vips.vips_foreign_find_load_buffer)
#define vips_image_new_from_buffer (tessera__vips.vips_image_new_from_buffer)
#define vips_image_new_from_memory (tessera__vips.vips_image_new_from_memory)
#define vips_image_write_to_memory (tessera__vips.vips_image_write_to_memory)
#define vips_image_write_to_buffer (tessera__vips.vips_image_write_to_buffer)
#define vips_image_get_width (tessera__vips.vips_image_get_width)
#define vips_image_get_height (tessera__vips.vips_image_get_height)
#define vips_image_get_bands (tessera__vips.vips_image_get_bands)
#define vips_image_get_format (tessera__vips.vips_image_get_format)
#define vips_image_get_interpretation (tessera__vips.vips_image_get_interpretation)
#define vips_image_get_typeof (tessera__vips.vips_image_get_typeof)
#define vips_image_get_int (tessera__vips.vips_image_get_int)
#define vips_image_get_array_int (tessera__vips.vips_image_get_array_int)
#define vips_image_get_n_pages (tessera__vips.vips_image_get_n_pages)
#define vips_image_get_page_height (tessera__vips.vips_image_get_page_height)
#define vips_image_get_string (tessera__vips.vips_image_get_string)
#define vips_image_get_fields (tessera__vips.vips_image_get_fields)
#define vips_image_set_int (tessera__vips.vips_image_set_int)
#define vips_image_set_string (tessera__vips.vips_image_set_string)
#define vips_thumbnail_buffer (tessera__vips.vips_thumbnail_buffer)
#define vips_pngload_buffer (tessera__vips.vips_pngload_buffer)
#define vips_autorot (tessera__vips.vips_autorot)
#define vips_colourspace (tessera__vips.vips_colourspace)
#define vips_cast_uchar (tessera__vips.vips_cast_uchar)
#define vips_gaussblur (tessera__vips.vips_gaussblur)
#define vips_extract_band (tessera__vips.vips_extract_band)
#define vips_bandjoin (tessera__vips.vips_bandjoin)
#define vips_bandjoin2 (tessera__vips.vips_bandjoin2)
#define vips_bandjoin_const1 (tessera__vips.vips_bandjoin_const1)
// GLib's own g_object_ref macro only keeps the argument's type; the table's is plain.
#undef g_object_ref
#define g_object_ref (tessera__vips.g_object_ref)
#define g_object_unref (tessera__vips.g_object_unref)
#define g_free (tessera__vips.g_free)
#define g_strfreev (tessera__vips.g_strfreev)
#define g_strdup_printf (tessera__vips.g_strdup_printf)
#define g_path_get_dirname (tessera__vips.g_path_get_dirname)
#define g_string_new (tessera__vips.g_string_new)
#define g_string_append_len (tessera__vips.g_string_append_len)
#define g_string_free (tessera__vips.g_string_free)
#define g_type_from_name (tessera__vips.g_type_from_name)
#define g_log_set_handler (tessera__vips.g_log_set_handler)
#define g_module_open (tessera__vips.g_module_open)
#define g_module_make_resident (tessera__vips.g_module_make_resident)
#endif

#endif
