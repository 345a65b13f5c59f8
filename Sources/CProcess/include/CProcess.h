#ifndef TESSERA_CPROCESS_H
#define TESSERA_CPROCESS_H

/// The value Tessera gives VIPSHOME before main, so that libvips' start loads no module (the
/// photo modules are then loaded by name). Programs Tessera starts must not inherit it: a
/// libvips program started with it would load none (tessera_child_environment).
extern const char *const tessera_vipshome_without_modules;

/// The environment for a program Tessera starts: this process's, without VIPSHOME when it
/// holds tessera_vipshome_without_modules. A NULL-terminated array of the process's own
/// strings; free the array (not the strings) with tessera_child_environment_free. NULL when
/// out of memory.
char **tessera_child_environment(void);
void tessera_child_environment_free(char **environment);

/// pipe2(fds, O_CLOEXEC): both ends close on exec from the moment they exist, so a child that
/// another thread spawns meanwhile cannot inherit them (glibc's pipe2 is not visible to
/// Swift). Returns 0, or -1 with errno set.
int tessera_pipe_cloexec(int fds[2]);

#endif
