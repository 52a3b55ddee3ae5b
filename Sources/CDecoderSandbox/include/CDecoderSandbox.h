#ifndef GALLERY_DECODER_SANDBOX_H
#define GALLERY_DECODER_SANDBOX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Process, socket and memfd bits of the decoder helper protocol that Swift cannot reach directly (cmsg macros,
   posix_spawn file actions, libseccomp). Every function returns -1 with errno set on failure. */

/* A connected AF_UNIX stream socket pair, both ends close-on-exec. */
int gv_socketpair(int fds[2]);

/* Starts argv[0] (a path) with `child_fd` as its fd 3, every other fd above 2 closed, in a new session.
   Returns the pid. */
pid_t gv_spawn(const char *const argv[], int child_fd);

/* sendmsg of `length` bytes with `fd` attached (SCM_RIGHTS) when fd >= 0. Writes all or fails. */
int gv_send_with_fd(int socket, const void *buffer, size_t length, int fd);

/* Reads exactly `length` bytes; a descriptor that came with them is stored in *fd (else -1; extra ones are
   closed). Returns 0, or -1 (errno ECONNRESET on end of stream). Waits at most `timeout_ms` in all
   (-1: no bound); errno ETIMEDOUT when it ran out. */
int gv_recv_with_fd(int socket, void *buffer, size_t length, int *fd, int timeout_ms);

/* Writes all of `length` bytes (a blocking socket). */
int gv_write_all(int socket, const void *buffer, size_t length);

/* A memfd of `size` bytes that can be sealed. */
int gv_memfd_create(const char *name, size_t size);
/* Forbids any further change of size or content (F_SEAL_SHRINK|GROW|WRITE, then F_SEAL_SEAL). */
int gv_memfd_seal(int fd);
/* 1 when the shrink, grow and write seals are all present, 0 when not, -1 on error. */
int gv_memfd_is_sealed(int fd);
/* The file's size, or -1. */
long long gv_fd_size(int fd);

/* Address-space limit (bytes, 0: none) and CPU-time limit (seconds, 0: none) of this process. */
int gv_limit_resources(unsigned long long address_space, unsigned long cpu_seconds);
/* Kills this process when its parent goes away. */
int gv_die_with_parent(void);
/* Installs the helper's system-call allowlist; anything else fails with EPERM. */
int gv_install_seccomp(void);

/* Waits for `pid`; returns the signal that ended it (0 when it exited), or -1. *exit_code gets its exit code. */
int gv_reap(pid_t pid, int *exit_code);

#endif
