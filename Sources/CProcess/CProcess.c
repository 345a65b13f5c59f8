#define _GNU_SOURCE  // pipe2
#include "CProcess.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const tessera_vipshome_without_modules = "/nonexistent/tessera-loads-photo-modules-only";

char **tessera_child_environment(void) {
  extern char **environ;
  size_t count = 0;
  while (environ[count] != NULL) count++;
  char **copy = calloc(count + 1, sizeof(char *));
  if (copy == NULL) return NULL;
  size_t kept = 0;
  const char *name = "VIPSHOME=";
  size_t prefix = strlen(name);
  for (size_t index = 0; index < count; index++) {
    const char *entry = environ[index];
    if (strncmp(entry, name, prefix) == 0 &&
        strcmp(entry + prefix, tessera_vipshome_without_modules) == 0)
      continue;
    copy[kept++] = (char *)entry;
  }
  copy[kept] = NULL;
  return copy;
}

void tessera_child_environment_free(char **environment) { free(environment); }

int tessera_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }
