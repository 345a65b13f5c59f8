#define _GNU_SOURCE  // dladdr
#include "CVipsShim.h"

#include <CPNG.h>
#include <CProcess.h>

#include <dlfcn.h>
#include <gmodule.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <vips/vips.h>

#include "VipsSymbols.h"
// (After VipsSymbols.h: every libvips call below goes through the table it opens.)
#include "LoaderFormats.h"
#include "Modules.h"
#include "Decoding.h"
#include "Saving.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_result = -1;
// Why libvips could not be opened, for tessera_vips_last_error (its own error buffer is in
// the library that did not open).
static char open_error[256];

// libvips reports recoverable trouble through g_log on stderr, which would scribble over a
// full-screen terminal UI. Tessera reads errors from the error buffer instead.
static void drop_log(const gchar *domain, GLogLevelFlags level, const gchar *message,
                     gpointer data) {
  (void)domain;
  (void)level;
  (void)message;
  (void)data;
}

// Decoders by trust: no call in this process can reach a loader outside
// TESSERA_FORMATS_LOCAL, whatever the bytes. Each decode checks its own, narrower allow-list
// first (network bytes never reach TIFF or JPEG XL); this is the floor under that.
static void block_loaders(void) {
#if VIPS_MAJOR_VERSION > 8 || (VIPS_MAJOR_VERSION == 8 && VIPS_MINOR_VERSION >= 13)
  vips_block_untrusted_set(TRUE);
  vips_operation_block_set("VipsForeignLoad", TRUE);
  // libvips marks jxlload untrusted; Tessera reads JPEG XL from local folders only, which the
  // per-call allow-list enforces.
  for (const char *const *name = tessera_allowed_loader_classes; *name != NULL; name++)
    vips_operation_block_set(*name, FALSE);
#else
  // Before 8.13 libvips cannot block loaders; the per-call allow-list is the only guard.
#endif
}

// libvips loads every module in $VIPSHOME/lib/vips-modules-X.Y when VIPSHOME is set (else
// beside itself). Pointed at a folder with no modules for the length of its start-up, it
// loads none: not the ImageMagick, PDF and OpenSlide loaders (blocked here anyway), whose
// libraries cost twice what the rest of libvips' start does (20 ms against 10 here). The
// two photo modules, HEIF and JPEG XL, are loaded by name from beside libvips when bytes
// that may be theirs first arrive.
//
// The variable is set before main, while the process has one thread: setenv reallocates the
// environment that other threads read (getenv in glibc, Foundation, the Swift runtime), so
// setting it when libvips starts, on a worker thread, raced them. It stays set; a Tessera
// started by Tessera (which inherits it) recognises it as its own, and every other program
// Tessera starts is given the environment without it (tessera_child_environment).
static int modules_by_name = 0;

// The Swift runtime finds a static executable's arguments by walking back from `environ`,
// which setenv moves to the heap: without this, a static `tessera` saw no arguments at all
// (every invocation became the default gallery). glibc hands constructors the real argc and
// argv; the runtime's own override interface is given them before the environment changes.
extern void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) __attribute__((weak));

__attribute__((constructor)) static void arrange_vipshome(int argc, char **argv, char **envp) {
  (void)envp;
  if (_swift_stdlib_overrideUnsafeArgvArgc != NULL && argv != NULL && argc >= 0)
    _swift_stdlib_overrideUnsafeArgvArgc(argv, argc);
  const char *home = getenv("VIPSHOME");
  if (home == NULL) {
    modules_by_name = setenv("VIPSHOME", tessera_vipshome_without_modules, 1) == 0;
  } else {
    modules_by_name = strcmp(home, tessera_vipshome_without_modules) == 0;
  }
}

static pthread_once_t heif_once = PTHREAD_ONCE_INIT;
static pthread_once_t jxl_once = PTHREAD_ONCE_INIT;

static void load_module(const char *name) {
  Dl_info info;
  if (!modules_by_name || dladdr((void *)vips_init, &info) == 0 || info.dli_fname == NULL) return;
  char *directory = g_path_get_dirname(info.dli_fname);
  char *path = g_strdup_printf("%s/vips-modules-%d.%d/%s.so", directory, VIPS_MAJOR_VERSION,
                               VIPS_MINOR_VERSION, name);
  // A missing module is a format this machine cannot decode: its files fail with the
  // "not in any image format" error, as they would without the module.
  GModule *module = g_module_open(path, G_MODULE_BIND_LAZY);
  if (module != NULL) g_module_make_resident(module);
  g_free(path);
  g_free(directory);
#if VIPS_MAJOR_VERSION > 8 || (VIPS_MAJOR_VERSION == 8 && VIPS_MINOR_VERSION >= 13)
  // The module's loaders are new subclasses of the blocked VipsForeignLoad: the allow-list is
  // applied to them. Only unblocking: a decode running on another thread is never refused.
  for (const char *const *allowed = tessera_allowed_loader_classes; *allowed != NULL; allowed++)
    vips_operation_block_set(*allowed, FALSE);
#endif
}

static void load_heif_module(void) { load_module("vips-heif"); }
static void load_jxl_module(void) { load_module("vips-jxl"); }

// The module for bytes that may be HEIF/AVIF (an ISO base media `ftyp` box) or JPEG XL (a
// bare codestream or its container), loaded the first time such bytes arrive, before libvips
// is asked what they are. O(1).
void tessera__load_module_for_bytes(const void *buffer, size_t length) {
  static const unsigned char jxl_container[12] = {0, 0, 0, 0x0C, 'J', 'X', 'L', ' ',
                                                  0x0D, 0x0A, 0x87, 0x0A};
  const unsigned char *bytes = buffer;
  if (bytes == NULL) return;
  if (length >= 12 && memcmp(bytes + 4, "ftyp", 4) == 0) {
    pthread_once(&heif_once, load_heif_module);
  } else if ((length >= 2 && bytes[0] == 0xFF && bytes[1] == 0x0A) ||
             (length >= 12 && memcmp(bytes, jxl_container, 12) == 0)) {
    pthread_once(&jxl_once, load_jxl_module);
  }
}

// The module for an encode to `suffix` (".avif", ".heic", ".jxl"…). O(1).
void tessera__load_module_for_suffix(const char *suffix) {
  if (suffix == NULL) return;
  if (strstr(suffix, ".avif") != NULL || strstr(suffix, ".hei") != NULL) {
    pthread_once(&heif_once, load_heif_module);
  } else if (strstr(suffix, ".jxl") != NULL) {
    pthread_once(&jxl_once, load_jxl_module);
  }
}

static void do_init(void) {
  if (tessera__open_libvips(open_error, sizeof open_error) != 0) return;
  g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, drop_log,
                    NULL);
  init_result = vips_init("tessera") == 0 ? 0 : -1;
  if (init_result == 0) {
    // The operation cache keeps decoded images alive by their inputs; a pipeline that
    // decodes each distinct image once gains nothing from it and pays in memory.
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    // Tessera runs several decodes at once, one per core; each should not also fan out.
    vips_concurrency_set(1);
    block_loaders();
  }
}

int tessera_vips_init(void) {
  pthread_once(&init_once, do_init);
  return init_result;
}

int tessera_vips_format(const void *buffer, size_t length, char *name, size_t name_len) {
  if (tessera_vips_init() != 0) {
    if (name != NULL && name_len > 0) name[0] = '\0';
    return -1;
  }
  tessera__load_module_for_bytes(buffer, length);
  return tessera_detect_format(buffer, length, name, name_len, NULL, 0);
}

/// Checks `buffer`'s format against `allowed`: 0 when it may be decoded, -1 (with an error
/// set) when nothing recognises it, TESSERA_REFUSED_FORMAT when it is outside the list.
int tessera__check_format(const void *buffer, size_t length, unsigned allowed, char *name,
                          size_t name_len, char *nickname, size_t nickname_len) {
  if (buffer == NULL || length == 0) {
    vips_error("tessera", "empty buffer");
    return -1;
  }
  tessera__load_module_for_bytes(buffer, length);
  char format_name[64];
  int format = tessera_detect_format(buffer, length, format_name, sizeof format_name, nickname,
                                     nickname_len);
  if (name != NULL && name_len > 0) {
    strncpy(name, format_name, name_len - 1);
    name[name_len - 1] = '\0';
  }
  if (format < 0) {
    vips_error("tessera", "the bytes are not in any image format");
    return -1;
  }
  if (format == 0 || ((unsigned)format & allowed) == 0) {
    vips_error("tessera", "%s images are not decoded here", format_name);
    return TESSERA_REFUSED_FORMAT;
  }
  return tessera__claims_fit(buffer, length);
}

int tessera__claims_fit(const void *buffer, size_t length) {
  char claim[128];
  if (tessera_png_chunks_fit(buffer, length, claim, sizeof claim) == 0) return 0;
  vips_error("tessera", "%s", claim);
  return -1;
}

static int header(const void *buffer, size_t length, unsigned allowed, int *width, int *height,
                  int *bands, char *name, size_t name_len, char *nickname, size_t nickname_len) {
  if (tessera_vips_init() != 0) return -1;
  int checked =
      tessera__check_format(buffer, length, allowed, name, name_len, nickname, nickname_len);
  if (checked != 0) return checked;
  // new_from_buffer reads the header only; pixels are decoded on first use, which never comes.
  VipsImage *image = vips_image_new_from_buffer(buffer, length, "", "access",
                                                VIPS_ACCESS_SEQUENTIAL, NULL);
  if (image == NULL) return -1;
  *width = vips_image_get_width(image);
  *height = vips_image_get_height(image);
  *bands = vips_image_get_bands(image);
  g_object_unref(image);
  return 0;
}

int tessera_vips_header_allowed(const void *buffer, size_t length, unsigned allowed, int *width,
                                int *height, int *bands, char *format_name,
                                size_t format_name_len) {
  return header(buffer, length, allowed, width, height, bands, format_name, format_name_len, NULL,
                0);
}

int tessera_vips_header(const void *buffer, size_t length, int *width, int *height, int *bands,
                        char *loader, size_t loader_len) {
  return header(buffer, length, TESSERA_FORMATS_LOCAL, width, height, bands, NULL, 0, loader,
                loader_len);
}

static int to_srgb_rgba(VipsImage *in, VipsImage **out) {
  VipsImage *t[4] = {NULL, NULL, NULL, NULL};
  int result = -1;
  VipsImage *current = in;
  g_object_ref(current);

  if (vips_image_get_interpretation(current) != VIPS_INTERPRETATION_sRGB) {
    if (vips_colourspace(current, &t[0], VIPS_INTERPRETATION_sRGB, NULL)) goto done;
    g_object_unref(current);
    current = t[0];
    t[0] = NULL;
  }
  if (vips_image_get_format(current) != VIPS_FORMAT_UCHAR) {
    if (vips_cast_uchar(current, &t[1], NULL)) goto done;
    g_object_unref(current);
    current = t[1];
    t[1] = NULL;
  }
  int bands = vips_image_get_bands(current);
  if (bands == 1 || bands == 2) {
    // Grey (with or without alpha) that colourspace left alone: spread to RGB.
    VipsImage *grey = NULL;
    if (vips_extract_band(current, &grey, 0, NULL)) goto done;
    VipsImage *rgb = NULL;
    VipsImage *parts[3] = {grey, grey, grey};
    if (vips_bandjoin(parts, &rgb, 3, NULL)) {
      g_object_unref(grey);
      goto done;
    }
    if (bands == 2) {
      VipsImage *alpha = NULL, *joined = NULL;
      if (vips_extract_band(current, &alpha, 1, NULL)) {
        g_object_unref(grey);
        g_object_unref(rgb);
        goto done;
      }
      if (vips_bandjoin2(rgb, alpha, &joined, NULL)) {
        g_object_unref(grey);
        g_object_unref(rgb);
        g_object_unref(alpha);
        goto done;
      }
      g_object_unref(alpha);
      g_object_unref(rgb);
      rgb = joined;
    }
    g_object_unref(grey);
    g_object_unref(current);
    current = rgb;
    bands = vips_image_get_bands(current);
  }
  if (bands == 3) {
    if (vips_bandjoin_const1(current, &t[2], 255.0, NULL)) goto done;
    g_object_unref(current);
    current = t[2];
    t[2] = NULL;
  } else if (bands > 4) {
    if (vips_extract_band(current, &t[3], 0, "n", 4, NULL)) goto done;
    g_object_unref(current);
    current = t[3];
    t[3] = NULL;
  }
  *out = current;
  current = NULL;
  result = 0;
done:
  if (current != NULL) g_object_unref(current);
  for (int i = 0; i < 4; i++)
    if (t[i] != NULL) g_object_unref(t[i]);
  return result;
}

// `image` (released here) as sRGB RGBA bytes in memory the caller frees with g_free: what
// every decode hands back. 0, or -1 with libvips' error set.
int tessera__write_rgba(VipsImage *image, uint8_t **pixels, size_t *pixels_len, int *out_width,
                        int *out_height) {
  VipsImage *rgba = NULL;
  int status = to_srgb_rgba(image, &rgba);
  g_object_unref(image);
  if (status != 0) return -1;
  size_t size = 0;
  void *memory = vips_image_write_to_memory(rgba, &size);
  if (memory == NULL) {
    g_object_unref(rgba);
    return -1;
  }
  *out_width = vips_image_get_width(rgba);
  *out_height = vips_image_get_height(rgba);
  g_object_unref(rgba);
  *pixels = memory;
  *pixels_len = size;
  return 0;
}

int tessera_vips_thumbnail_rgba(const void *buffer, size_t length, int target_width,
                                int target_height, int fit, uint8_t **pixels, size_t *pixels_len,
                                int *out_width, int *out_height) {
  return tessera_vips_thumbnail_rgba_allowed(buffer, length, TESSERA_FORMATS_LOCAL, target_width,
                                             target_height, fit, pixels, pixels_len, out_width,
                                             out_height);
}

int tessera_vips_thumbnail_rgba_allowed(const void *buffer, size_t length, unsigned allowed,
                                        int target_width, int target_height, int fit,
                                        uint8_t **pixels, size_t *pixels_len, int *out_width,
                                        int *out_height) {
  if (tessera_vips_init() != 0) return -1;
  int checked = tessera__check_format(buffer, length, allowed, NULL, 0, NULL, 0);
  if (checked != 0) return checked;
  if (target_width < 1 || target_height < 1) {
    vips_error("tessera", "target size must be positive, got %dx%d", target_width, target_height);
    return -1;
  }
  VipsImage *thumb = NULL;
  int status;
  switch (fit) {
    case TESSERA_FIT_FILL:
      status = vips_thumbnail_buffer((void *)buffer, length, &thumb, target_width, "height",
                                     target_height, "crop", VIPS_INTERESTING_CENTRE, "size",
                                     VIPS_SIZE_DOWN, "option_string", "fail_on=truncated", NULL);
      break;
    case TESSERA_FIT_EXACT:
      status = vips_thumbnail_buffer((void *)buffer, length, &thumb, target_width, "height",
                                     target_height, "size", VIPS_SIZE_FORCE, "option_string",
                                     "fail_on=truncated", NULL);
      break;
    default:
      status = vips_thumbnail_buffer((void *)buffer, length, &thumb, target_width, "height",
                                     target_height, "size", VIPS_SIZE_DOWN, "option_string",
                                     "fail_on=truncated", NULL);
      break;
  }
  if (status != 0) return -1;
  return tessera__write_rgba(thumb, pixels, pixels_len, out_width, out_height);
}

int tessera_vips_load_rgba_allowed(const void *buffer, size_t length, unsigned allowed,
                                   uint8_t **pixels, size_t *pixels_len, int *out_width,
                                   int *out_height) {
  if (tessera_vips_init() != 0) return -1;
  int checked = tessera__check_format(buffer, length, allowed, NULL, 0, NULL, 0);
  if (checked != 0) return checked;
  VipsImage *loaded = vips_image_new_from_buffer(buffer, length, "fail_on=truncated", "access",
                                                 VIPS_ACCESS_SEQUENTIAL, NULL);
  if (loaded == NULL) return -1;
  VipsImage *upright = NULL;
  int status = vips_autorot(loaded, &upright, NULL);
  g_object_unref(loaded);
  if (status != 0) return -1;
  return tessera__write_rgba(upright, pixels, pixels_len, out_width, out_height);
}

VipsImage *tessera__image_over_pixels(const uint8_t *pixels, size_t pixels_len, int width,
                                      int height, int bands) {
  if (pixels == NULL || width < 1 || height < 1 || (bands != 3 && bands != 4) ||
      (uint64_t)width * (uint64_t)height > SIZE_MAX / 4 ||
      pixels_len != (size_t)width * (size_t)height * (size_t)bands) {
    vips_error("tessera", "bad bitmap: %zu bytes for %dx%d with %d bands", pixels_len, width,
               height, bands);
    return NULL;
  }
  VipsImage *image =
      vips_image_new_from_memory(pixels, pixels_len, width, height, bands, VIPS_FORMAT_UCHAR);
  if (image != NULL) image->Type = VIPS_INTERPRETATION_sRGB;
  return image;
}

int tessera__save_to_buffer(VipsImage *image, const char *suffix, void **out, size_t *out_len) {
  if (image == NULL || suffix == NULL || out == NULL || out_len == NULL) return -1;
  tessera__load_module_for_suffix(suffix);
  // libvips 8.14's PNG saver asked for 16 bits reads an 8-bit image's rows as 16-bit ones:
  // twice each row's bytes, past the end of its own buffer (AddressSanitizer found it in the
  // tests' 16-bit fixture; a 15-line C program shows it on libvips 8.14.1). The image is
  // made 16-bit first, as the saver should have done.
  if (strstr(suffix, "bitdepth=16") != NULL && vips_image_get_format(image) == VIPS_FORMAT_UCHAR) {
    VipsImage *wide = NULL;
    if (vips_colourspace(image, &wide, VIPS_INTERPRETATION_RGB16, NULL) != 0) return -1;
    int status = vips_image_write_to_buffer(wide, suffix, out, out_len, NULL);
    g_object_unref(wide);
    return status == 0 ? 0 : -1;
  }
  return vips_image_write_to_buffer(image, suffix, out, out_len, NULL) == 0 ? 0 : -1;
}

int tessera_vips_encode(const uint8_t *pixels, size_t pixels_len, int width, int height,
                        int bands, const char *suffix, void **out, size_t *out_len) {
  if (tessera_vips_init() != 0) return -1;
  VipsImage *image = tessera__image_over_pixels(pixels, pixels_len, width, height, bands);
  if (image == NULL) return -1;
  int status = tessera__save_to_buffer(image, suffix, out, out_len);
  g_object_unref(image);
  return status;
}

void tessera_vips_free(void *pointer) {
  // Anything to free came from libvips, which is open by then.
  if (pointer != NULL) g_free(pointer);
}

int tessera_vips_has_operation(const char *nickname) {
  if (tessera_vips_init() != 0 || nickname == NULL) return 0;
  return vips_type_find("VipsOperation", nickname) != 0;
}

size_t tessera_vips_last_error(char *buffer, size_t length) {
  if (tessera_vips_init() != 0) {
    const char *reason = open_error[0] != '\0' ? open_error : "libvips did not start";
    size_t n = 0;
    if (buffer != NULL && length > 0) {
      n = strlen(reason);
      if (n > length - 1) n = length - 1;
      memcpy(buffer, reason, n);
      buffer[n] = '\0';
    }
    return n;
  }
  // vips_error_buffer() hands out the shared buffer itself, which other threads append to
  // while it is read; the copy is taken (and the buffer cleared) under libvips' lock.
  char *text = vips_error_buffer_copy();
  size_t n = 0;
  if (buffer != NULL && length > 0 && text != NULL) {
    n = strlen(text);
    if (n > length - 1) n = length - 1;
    memcpy(buffer, text, n);
    buffer[n] = '\0';
  } else if (buffer != NULL && length > 0) {
    buffer[0] = '\0';
  }
  g_free(text);
  return n;
}
