#include "JPEGFailure.h"

#include <string.h>

void tessera_jpeg_fail(j_common_ptr info) {
  struct tessera_jpeg_failure *failure = (struct tessera_jpeg_failure *)info->err;
  (*info->err->format_message)(info, failure->message);
  longjmp(failure->jump, 1);
}

struct jpeg_error_mgr *tessera_jpeg_failure_init(struct tessera_jpeg_failure *failure,
                                                 void (*emit)(j_common_ptr, int)) {
  memset(failure, 0, sizeof *failure);
  struct jpeg_error_mgr *manager = jpeg_std_error(&failure->manager);
  failure->manager.error_exit = tessera_jpeg_fail;
  failure->manager.emit_message = emit;
  return manager;
}

void tessera_jpeg_report(char *error, size_t error_len, const char *text) {
  if (error != NULL && error_len > 0) snprintf(error, error_len, "%s", text);
}
