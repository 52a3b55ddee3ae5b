#define _GNU_SOURCE
#include "CDecoderSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <seccomp.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int gv_socketpair(int fds[2]) {
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return -1;
    /* A helper that stops reading must not hold the app's sender forever. */
    struct timeval bound = { .tv_sec = 120 };
    setsockopt(fds[0], SOL_SOCKET, SO_SNDTIMEO, &bound, sizeof bound);
    return 0;
}

pid_t gv_spawn(const char *const argv[], int child_fd) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    if (posix_spawn_file_actions_init(&actions) != 0) return -1;
    posix_spawnattr_init(&attributes);
    /* dup2 onto itself would keep close-on-exec: go through another number first. */
    int source = child_fd;
    if (child_fd == 3) {
        source = fcntl(child_fd, F_DUPFD_CLOEXEC, 10);
        if (source < 0) return -1;
    }
    posix_spawn_file_actions_adddup2(&actions, source, 3);
    posix_spawn_file_actions_addclosefrom_np(&actions, 4);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    pid_t pid = -1;
    int result = posix_spawn(&pid, argv[0], &actions, &attributes, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (source != child_fd) close(source);
    if (result != 0) {
        errno = result;
        return -1;
    }
    return pid;
}

int gv_send_with_fd(int socket, const void *buffer, size_t length, int fd) {
    struct iovec vector = { .iov_base = (void *)buffer, .iov_len = length };
    union { char space[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    struct msghdr message = { .msg_iov = &vector, .msg_iovlen = 1 };
    if (fd >= 0) {
        memset(&control, 0, sizeof control);
        message.msg_control = control.space;
        message.msg_controllen = sizeof control.space;
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(header), &fd, sizeof(int));
    }
    ssize_t sent;
    do { sent = sendmsg(socket, &message, MSG_NOSIGNAL); } while (sent < 0 && errno == EINTR);
    if (sent < 0) return -1;
    if ((size_t)sent < length) return gv_write_all(socket, (const char *)buffer + sent, length - (size_t)sent);
    return 0;
}

int gv_write_all(int socket, const void *buffer, size_t length) {
    const char *next = buffer;
    while (length > 0) {
        ssize_t sent = send(socket, next, length, MSG_NOSIGNAL);
        if (sent < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        next += sent;
        length -= (size_t)sent;
    }
    return 0;
}

static long long now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

int gv_recv_with_fd(int socket, void *buffer, size_t length, int *fd, int timeout_ms) {
    *fd = -1;
    char *next = buffer;
    long long deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
    while (length > 0) {
        if (deadline >= 0) {
            long long left = deadline - now_ms();
            struct pollfd watched = { .fd = socket, .events = POLLIN };
            int ready = left > 0 ? poll(&watched, 1, (int)left) : 0;
            if (ready < 0 && errno == EINTR) continue;
            if (ready < 0) return -1;
            if (ready == 0) {
                errno = ETIMEDOUT;
                return -1;
            }
        }
        struct iovec vector = { .iov_base = next, .iov_len = length };
        union { char space[CMSG_SPACE(4 * sizeof(int))]; struct cmsghdr align; } control;
        struct msghdr message = { .msg_iov = &vector, .msg_iovlen = 1, .msg_control = control.space,
                                  .msg_controllen = sizeof control.space };
        ssize_t got = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return -1;
        for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
            if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
            size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t i = 0; i < count; i++) {
                int received;
                memcpy(&received, CMSG_DATA(header) + i * sizeof(int), sizeof(int));
                if (*fd < 0) *fd = received; else close(received);
            }
        }
        if (got == 0) {
            if (*fd >= 0) { close(*fd); *fd = -1; }
            errno = ECONNRESET;
            return -1;
        }
        next += got;
        length -= (size_t)got;
    }
    return 0;
}

int gv_memfd_create(const char *name, size_t size) {
    int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    if (ftruncate(fd, (off_t)size) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int gv_memfd_seal(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
}

int gv_memfd_is_sealed(int fd) {
    int seals = fcntl(fd, F_GET_SEALS);
    if (seals < 0) return -1;
    int wanted = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE;
    return (seals & wanted) == wanted;
}

long long gv_fd_size(int fd) {
    struct stat status;
    if (fstat(fd, &status) != 0) return -1;
    return (long long)status.st_size;
}

int gv_limit_resources(unsigned long long address_space, unsigned long cpu_seconds) {
    if (address_space > 0) {
        struct rlimit limit = { .rlim_cur = address_space, .rlim_max = address_space };
        if (setrlimit(RLIMIT_AS, &limit) != 0) return -1;
    }
    if (cpu_seconds > 0) {
        /* SIGXCPU at the soft limit (the app reports it), SIGKILL one second later. */
        struct rlimit limit = { .rlim_cur = cpu_seconds, .rlim_max = cpu_seconds + 1 };
        if (setrlimit(RLIMIT_CPU, &limit) != 0) return -1;
    }
    struct rlimit none = { 0, 0 };
    setrlimit(RLIMIT_CORE, &none);
    return 0;
}

int gv_die_with_parent(void) {
    pid_t parent = getppid();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    /* The parent may have gone before the request. */
    if (getppid() != parent) _exit(1);
    return 0;
}

int gv_install_seccomp(void) {
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ERRNO(EPERM));
    if (!filter) return -1;
    /* What decoding into memory and answering on the socket needs: memory, the two fds' I/O, time, signals,
       exiting. No open, no socket, no exec, no fork. */
    static const int allowed[] = {
        SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(readv), SCMP_SYS(writev), SCMP_SYS(recvmsg), SCMP_SYS(sendmsg),
        SCMP_SYS(recvfrom), SCMP_SYS(sendto), SCMP_SYS(close), SCMP_SYS(fstat), SCMP_SYS(newfstatat), SCMP_SYS(lseek),
        SCMP_SYS(poll), SCMP_SYS(ppoll), SCMP_SYS(memfd_create), SCMP_SYS(ftruncate), SCMP_SYS(fcntl),
        SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(mprotect), SCMP_SYS(madvise), SCMP_SYS(brk),
        SCMP_SYS(futex), SCMP_SYS(clock_gettime), SCMP_SYS(clock_nanosleep), SCMP_SYS(nanosleep),
        SCMP_SYS(gettimeofday), SCMP_SYS(getrusage), SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(getrandom),
        SCMP_SYS(rt_sigreturn), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigaction), SCMP_SYS(sigaltstack),
        SCMP_SYS(sched_yield), SCMP_SYS(sched_getaffinity), SCMP_SYS(exit), SCMP_SYS(exit_group),
        SCMP_SYS(restart_syscall), SCMP_SYS(tgkill), SCMP_SYS(set_robust_list), SCMP_SYS(rseq),
    };
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++) {
        if (seccomp_rule_add(filter, SCMP_ACT_ALLOW, allowed[i], 0) != 0) {
            seccomp_release(filter);
            return -1;
        }
    }
    /* A thread may be started (GLib's worker, a loader's), never a process. */
    seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD));
    seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    int result = seccomp_load(filter);
    seccomp_release(filter);
    if (result != 0) {
        errno = -result;
        return -1;
    }
    return 0;
}

int gv_reap(pid_t pid, int *exit_code) {
    int status = 0;
    pid_t done;
    do { done = waitpid(pid, &status, 0); } while (done < 0 && errno == EINTR);
    if (done < 0) return -1;
    *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}
