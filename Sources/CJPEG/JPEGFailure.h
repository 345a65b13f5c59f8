#ifndef TESSERA_CJPEG_FAILURE_H
#define TESSERA_CJPEG_FAILURE_H

// Private to CJPEG: the one error manager its reader and writer fit libjpeg's error exits
// (longjmp) with. Each caller sets `jump` with setjmp before calling into libjpeg; libjpeg's
// message for a failure is then in `message`.

#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>

#include <jpeglib.h>

struct tessera_jpeg_failure {
  struct jpeg_error_mgr manager;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

/// libjpeg's error_exit: the message kept, then back to the caller's setjmp.
void tessera_jpeg_fail(j_common_ptr info);

/// Points `err` at `failure`, cleared, with tessera_jpeg_fail as its exit and `emit` as its
/// message handler (libjpeg's own would print on standard error, over the gallery's screen).
struct jpeg_error_mgr *tessera_jpeg_failure_init(struct tessera_jpeg_failure *failure,
                                                 void (*emit)(j_common_ptr, int));

/// Copies `text` into the caller's `error` buffer (NUL-terminated, cut to `error_len`).
void tessera_jpeg_report(char *error, size_t error_len, const char *text);

#endif
