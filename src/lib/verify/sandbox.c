/*
 * sandbox.c — runs one record's reproduce command, contained: see sandbox.h.
 *
 * The child is made with fork() rather than posix_spawn() because it must change itself before
 * exec: its own process group (so a timeout kills everything it started), a new network
 * namespace, resource limits and a new working directory. Whether the namespace could be made is
 * reported back through a close-on-exec pipe, which also carries an exec failure's errno.
 */
#define _GNU_SOURCE
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "error.h"

/* nobody and nogroup on Debian: the conventional unprivileged ids. */
#define SANDBOX_NOBODY 65534

const char SANDBOX_PATH[] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    if (remove(path) != 0 && errno == EACCES) { /* a command may have made a directory 0500 */
        char *slash = strrchr(path, '/');
        if (slash) {
            *slash = '\0';
            chmod(path, 0700);
            *slash = '/';
        }
        remove(path);
    }
    return 0;
}

static void remove_tree(const char *dir) { nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

/* In the child: everything up to exec. Reports on status_fd: 'N' network isolated or 'n' not,
 * then, only if exec fails, 'E' and its errno. Never returns. */
/* A new network namespace has only a loopback interface, and it is down: recipes that start a
 * server on 127.0.0.1 and connect to it would see "Network is unreachable", which no user
 * sees. Brought up here, before the privileges are dropped; the namespace still reaches
 * nothing outside. */
static void loopback_up(void)
{
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return;
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    memcpy(ifr.ifr_name, "lo", 3);
    if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0) {
        ifr.ifr_flags |= IFF_UP;
        (void)ioctl(s, SIOCSIFFLAGS, &ifr);
    }
    close(s);
}

static void child(const char *command, const char *dir, const sandbox_limits *lim, int out_fd,
                  int status_fd)
{
    setpgid(0, 0);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0)
        dup2(devnull, 0);
    dup2(out_fd, 1);
    dup2(out_fd, 2);
    char isolated = 'n';
    if (lim->isolate_network &&
        (unshare(CLONE_NEWNET) == 0 || unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0)) {
        isolated = 'N';
        loopback_up();
    }
    /* As root, the command runs as nobody: a reproduce recipe must not be able to change the
     * machine (install packages, write /etc), and the namespace is made before dropping. */
    if (geteuid() == 0 &&
        (setgroups(0, NULL) != 0 || setgid(SANDBOX_NOBODY) != 0 || setuid(SANDBOX_NOBODY) != 0))
        _exit(125);
    (void)!write(status_fd, &isolated, 1);
    struct rlimit core = {0, 0};
    setrlimit(RLIMIT_CORE, &core);
    struct rlimit fsize = {lim->max_file_bytes, lim->max_file_bytes};
    setrlimit(RLIMIT_FSIZE, &fsize);
    rlim_t cpu = (rlim_t)lim->timeout_s + 2;
    struct rlimit cpu_limit = {cpu, cpu + 1};
    setrlimit(RLIMIT_CPU, &cpu_limit);
    if (chdir(dir) != 0)
        _exit(126);
    char home[4200], tmp[4200], path[sizeof SANDBOX_PATH + 8];
    snprintf(home, sizeof home, "HOME=%s", dir);
    snprintf(tmp, sizeof tmp, "TMPDIR=%s", dir);
    snprintf(path, sizeof path, "PATH=%s", SANDBOX_PATH);
    char *envp[] = {path, home, tmp, "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TERM=dumb",
                    "NO_COLOR=1", NULL};
    char *argv[] = {"sh", "-c", (char *)command, NULL};
    execve("/bin/sh", argv, envp);
    int e = errno;
    char msg[1 + sizeof e] = {'E'};
    memcpy(msg + 1, &e, sizeof e);
    (void)!write(status_fd, msg, sizeof msg);
    _exit(127);
}

/* Appends what the pipe holds now; returns false at end of file. */
static bool drain(int fd, sandbox_result *r, size_t max)
{
    char buf[16384];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0)
        return errno == EINTR || errno == EAGAIN;
    if (n == 0)
        return false;
    size_t keep = r->len < max ? max - r->len : 0;
    if ((size_t)n > keep)
        r->truncated = true;
    else
        keep = (size_t)n;
    if (keep) {
        char *p = realloc(r->output, r->len + keep + 1);
        if (!p)
            return false; /* reported by the caller as out of memory */
        r->output = p;
        memcpy(r->output + r->len, buf, keep);
        r->len += keep;
        r->output[r->len] = '\0';
    }
    return true;
}

/* Reads the child's output until it and everything it started are gone, or time is up. */
static void collect(pid_t pid, int fd, const sandbox_limits *lim, double start,
                    sandbox_result *r)
{
    int status = 0;
    bool exited = false, eof = false;
    double grace_end = 0;
    while (!eof) {
        double left = (exited ? grace_end : start + lim->timeout_s) - now_s();
        if (left <= 0) {
            if (!exited)
                r->timed_out = true;
            break;
        }
        struct pollfd p = {fd, POLLIN, 0};
        int timeout_ms = left > 0.1 ? 100 : (int)(left * 1000) + 1;
        if (poll(&p, 1, timeout_ms) > 0)
            eof = !drain(fd, r, lim->max_output);
        if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
            exited = true;
            /* Whatever it left running in its group would hold the pipe open: end it, and read
             * what is still buffered for a moment. */
            kill(-pid, SIGKILL);
            grace_end = now_s() + 1.0;
        }
    }
    kill(-pid, SIGKILL);
    if (!exited)
        waitpid(pid, &status, 0);
    if (WIFEXITED(status))
        r->exit_status = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        r->exit_status = -1, r->signal = WTERMSIG(status);
}

errata_code sandbox_run(const char *command, const sandbox_limits *lim, sandbox_result *r,
                        errata_error *err)
{
    memset(r, 0, sizeof *r);
    const char *tmpdir = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/errata-verify-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(dir))
        return set_error(err, ERRATA_ERR_IO, "%s: cannot make a scratch directory: %s", dir,
                         strerror(errno));
    if (geteuid() == 0 && chown(dir, SANDBOX_NOBODY, SANDBOX_NOBODY) != 0) {
        int e = errno;
        remove_tree(dir);
        return set_error(err, ERRATA_ERR_IO, "%s: cannot hand it to nobody: %s", dir,
                         strerror(e));
    }
    int out[2], st[2];
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(st, O_CLOEXEC) != 0) {
        remove_tree(dir);
        return set_error(err, ERRATA_ERR_IO, "cannot make a pipe: %s", strerror(errno));
    }
    double start = now_s();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(out[0]), close(out[1]), close(st[0]), close(st[1]);
        remove_tree(dir);
        return set_error(err, ERRATA_ERR_IO, "cannot start a process: %s", strerror(e));
    }
    if (pid == 0)
        child(command, dir, lim, out[1], st[1]); /* never returns */
    setpgid(pid, pid); /* also here, so that the group exists before any kill(-pid) */
    close(out[1]), close(st[1]);

    /* 'N' or 'n', then 'E' and an errno only when exec failed; EOF when exec succeeded. */
    char status[2 + sizeof(int)];
    size_t got = 0;
    for (ssize_t n; got < sizeof status; got += (size_t)n) {
        n = read(st[0], status + got, sizeof status - got);
        if (n < 0 && errno == EINTR) {
            n = 0;
            continue;
        }
        if (n <= 0)
            break;
    }
    close(st[0]);
    r->network_isolated = got >= 1 && status[0] == 'N';
    collect(pid, out[0], lim, start, r);
    close(out[0]);
    r->seconds = now_s() - start;
    remove_tree(dir);
    if (got == sizeof status && status[1] == 'E') {
        int e;
        memcpy(&e, status + 2, sizeof e);
        sandbox_result_free(r);
        return set_error(err, ERRATA_ERR_IO, "/bin/sh: cannot run: %s", strerror(e));
    }
    if (!r->output && !(r->output = strdup("")))
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory");
    return ERRATA_OK;
}

void sandbox_result_free(sandbox_result *r)
{
    free(r->output);
    r->output = NULL;
    r->len = 0;
}
