/*
 * env_probe.c — --env-auto: what is installed here, from the lock and requirement files in a
 * directory, /etc/os-release, and the versions installed tools report.
 *
 * The tools run all at once, each through posix_spawn (no shell, so nothing in PATH or the
 * arguments is interpreted), with stdin from /dev/null, output through a pipe, and a process
 * group of their own. Whatever has not finished 3 s after the start is killed with its
 * children, so hanging tools cost errata 3 s however many there are.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "env.h"
#include "error.h"
#include "strbuf.h"

extern char **environ;

#define PROBE_TIMEOUT_MS 3000
/* pip list of a large environment is some hundred kilobytes; more is not a version. */
#define PROBE_MAX_OUTPUT (4u * 1024 * 1024)

typedef enum { OUT_VERSION, OUT_GCC, OUT_PIP_LIST } out_kind;

typedef struct {
    const char *name; /* the package it is recorded as (pip list: its own names) */
    const char *argv[8];
    const char *label; /* the packages' source */
    out_kind kind;
    bool stderr_too; /* java -version writes to stderr */
} tool;

static const tool tools[] = {
    {"python", {"python3", "--version"}, "probe: python3 --version", OUT_VERSION, false},
    {NULL,
     {"python3", "-m", "pip", "list", "--format=json", "--disable-pip-version-check"},
     "probe: python3 -m pip list --format=json",
     OUT_PIP_LIST,
     false},
    {"node", {"node", "--version"}, "probe: node --version", OUT_VERSION, false},
    {"npm", {"npm", "--version"}, "probe: npm --version", OUT_VERSION, false},
    {"gcc", {"gcc", "--version"}, "probe: gcc --version", OUT_GCC, false},
    {"git", {"git", "--version"}, "probe: git --version", OUT_VERSION, false},
    {"openssl", {"openssl", "version"}, "probe: openssl version", OUT_VERSION, false},
    {"rustc", {"rustc", "--version"}, "probe: rustc --version", OUT_VERSION, false},
    {"go", {"go", "version"}, "probe: go version", OUT_VERSION, false},
    {"java", {"java", "-version"}, "probe: java -version", OUT_VERSION, true},
};
#define N_TOOLS (sizeof tools / sizeof *tools)

typedef struct {
    const tool *t;
    pid_t pid;
    int fd;       /* read end of its output pipe; -1 once closed */
    bool running; /* spawned and not reaped */
    bool ok;      /* exited with status 0 and its output fit */
    strbuf out;
} job;

/* The first executable regular file named prog in PATH's directories (empty entries, which
 * would mean the current directory, are skipped), or NULL. */
static char *find_on_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path;;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        if (n) {
            size_t len = n + strlen(prog) + 2;
            char *full = malloc(len);
            if (!full)
                return NULL;
            snprintf(full, len, "%.*s/%s", (int)n, p, prog);
            struct stat st;
            if (stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, X_OK) == 0)
                return full;
            free(full);
        }
        if (!colon)
            return NULL;
        p = colon + 1;
    }
}

/* The environment for the tools: ours, plus PYTHONSAFEPATH=1 so that `python3 -m pip` does not
 * import a pip/ that happens to be in the current directory (Python 3.11+; older ones ignore
 * it). The strings are environ's; only the array is allocated. */
static char **child_environ(void)
{
    size_t n = 0;
    while (environ && environ[n])
        n++;
    char **envp = malloc((n + 2) * sizeof *envp);
    if (!envp)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "PYTHONSAFEPATH=", 15))
            envp[k++] = environ[i];
    envp[k++] = (char *)"PYTHONSAFEPATH=1";
    envp[k] = NULL;
    return envp;
}

static bool spawn(job *j, const char *path, char **envp)
{
    int p[2];
    if (pipe(p))
        return false;
    /* Close-on-exec, so that no tool holds another's pipe open. */
    fcntl(p[0], F_SETFD, FD_CLOEXEC);
    fcntl(p[1], F_SETFD, FD_CLOEXEC);
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc == 0 && (rc = posix_spawnattr_init(&at)) != 0)
        posix_spawn_file_actions_destroy(&fa);
    if (rc == 0) {
        sigset_t none, dfl;
        sigemptyset(&none);
        sigemptyset(&dfl);
        sigaddset(&dfl, SIGPIPE);
        rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
        rc = rc ? rc : posix_spawn_file_actions_adddup2(&fa, p[1], 1);
        rc = rc ? rc
             : j->t->stderr_too
                 ? posix_spawn_file_actions_adddup2(&fa, p[1], 2)
                 : posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
        rc = rc ? rc
                : posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                                    POSIX_SPAWN_SETSIGDEF);
        rc = rc ? rc : posix_spawnattr_setpgroup(&at, 0);
        rc = rc ? rc : posix_spawnattr_setsigmask(&at, &none);
        rc = rc ? rc : posix_spawnattr_setsigdefault(&at, &dfl);
        rc = rc ? rc : posix_spawn(&j->pid, path, &fa, &at, (char *const *)j->t->argv, envp);
        posix_spawn_file_actions_destroy(&fa);
        posix_spawnattr_destroy(&at);
    }
    close(p[1]);
    if (rc) {
        close(p[0]);
        return false;
    }
    fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
    j->fd = p[0];
    j->running = true;
    return true;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void reap(job *j, int flags)
{
    int st;
    pid_t r;
    do
        r = waitpid(j->pid, &st, flags);
    while (r < 0 && errno == EINTR);
    if (r == j->pid) {
        j->running = false;
        j->ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    } else if (r < 0) { /* reaped elsewhere (SIGCHLD ignored): its status is unknown */
        j->running = false;
        j->ok = false;
    }
}

static void close_output(job *j)
{
    close(j->fd);
    j->fd = -1;
}

static void read_output(job *j)
{
    char buf[8192];
    for (;;) {
        ssize_t r = read(j->fd, buf, sizeof buf);
        if (r > 0) {
            if (j->out.len + (size_t)r > PROBE_MAX_OUTPUT) {
                j->out.failed = true; /* not a version: drop it */
                close_output(j);
                return;
            }
            sb_append(&j->out, buf, (size_t)r);
        } else if (r < 0 && errno == EINTR) {
            continue;
        } else if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        } else { /* end of output, or an error that ends it */
            close_output(j);
            return;
        }
    }
}

/* Reads every job's output until all have exited and closed it, or the time is up; then kills
 * what still runs (its whole process group, while its pid still names it). */
static void run_jobs(job *jobs, size_t n)
{
    long long deadline = now_ms() + PROBE_TIMEOUT_MS;
    struct pollfd pfd[N_TOOLS];
    size_t of[N_TOOLS];
    for (;;) {
        size_t k = 0;
        bool running = false;
        for (size_t i = 0; i < n; i++) {
            if (jobs[i].running)
                reap(&jobs[i], WNOHANG);
            running |= jobs[i].running;
            if (jobs[i].fd >= 0) {
                pfd[k] = (struct pollfd){.fd = jobs[i].fd, .events = POLLIN};
                of[k++] = i;
            }
        }
        long long left = deadline - now_ms();
        if ((!k && !running) || left <= 0)
            break;
        /* Wake now and then to reap tools that exited without closing their output. */
        if (poll(pfd, k, left < 50 ? (int)left : 50) < 0 && errno != EINTR)
            break;
        for (size_t m = 0; m < k; m++)
            if (pfd[m].revents)
                read_output(&jobs[of[m]]);
    }
    for (size_t i = 0; i < n; i++) {
        if (jobs[i].running) {
            kill(-jobs[i].pid, SIGKILL);
            kill(jobs[i].pid, SIGKILL);
            reap(&jobs[i], 0);
            jobs[i].ok = false;
        }
        if (jobs[i].fd >= 0)
            close_output(&jobs[i]); /* it exited; a child of it still holds the pipe */
    }
}

/* The first word of s that looks like a version ("3.11.7", "v20.1.0", "go1.22.1",
 * "\"17.0.2\""), without its prefix. */
static bool version_word(const char *s, size_t n, const char **v, size_t *vn)
{
    for (size_t i = 0; i < n;) {
        while (i < n && isspace((unsigned char)s[i]))
            i++;
        size_t k = i;
        while (i < n && !isspace((unsigned char)s[i]))
            i++;
        const char *w = s + k;
        size_t wn = i - k;
        while (wn && (*w == '"' || *w == '\'' || *w == '('))
            w++, wn--;
        if (wn > 1 && *w == 'v' && isdigit((unsigned char)w[1]))
            w++, wn--;
        else if (wn > 2 && !memcmp(w, "go", 2) && isdigit((unsigned char)w[2]))
            w += 2, wn -= 2;
        if (!wn || !isdigit((unsigned char)*w))
            continue;
        size_t e = 0;
        while (e < wn && (isalnum((unsigned char)w[e]) || strchr(".+-_~", w[e])))
            e++;
        while (e && strchr(".+-_~", w[e - 1]))
            e--;
        *v = w;
        *vn = e;
        return true;
    }
    return false;
}

/* The version in a tool's output: the first line that has one (java may first say "Picked up
 * JAVA_TOOL_OPTIONS…"); for gcc the word after "gcc (Debian 12.2.0-14)". */
static bool tool_version(const job *j, const char **v, size_t *vn)
{
    env_lines it;
    const char *s;
    size_t n;
    int line;
    env_lines_init(&it, j->out.buf, j->out.len);
    while (env_lines_next(&it, &s, &n, &line)) {
        if (j->t->kind == OUT_GCC) {
            const char *close = memchr(s, ')', n);
            if (close)
                n -= (size_t)(close + 1 - s), s = close + 1;
            return version_word(s, n, v, vn);
        }
        if (n >= 10 && !memcmp(s, "Picked up ", 10))
            continue;
        if (version_word(s, n, v, vn))
            return true;
    }
    return false;
}

/* Adds what a job reported. Only running out of memory is an error: a tool whose output makes
 * no sense is skipped like one that failed. */
static errata_code record_job(environment *env, const job *j, errata_error *err)
{
    if (!j->ok || j->out.failed || !j->out.len)
        return ERRATA_OK;
    env_batch b = {.file = j->t->label, .no_line = true, .pick = ENV_PICK_LAST};
    errata_code rc = ERRATA_OK;
    if (j->t->kind == OUT_PIP_LIST) {
        if (env_parse_pip_list(&b, j->out.buf, j->out.len, NULL) == ERRATA_OK)
            rc = env_commit(env, &b, err);
    } else {
        const char *v;
        size_t vn;
        if (tool_version(j, &v, &vn) && vn) {
            rc = env_batch_add(&b, j->t->name, strlen(j->t->name), v, vn, ECO_TOOL, 0, 0, err);
            if (rc == ERRATA_OK)
                rc = env_commit(env, &b, err);
        }
    }
    env_batch_free(&b);
    return rc;
}

static errata_code probe_tools(environment *env, errata_error *err)
{
    job jobs[N_TOOLS];
    char **envp = child_environ();
    if (!envp)
        return set_error(err, ERRATA_ERR_NOMEM, "probe: out of memory");
    for (size_t i = 0; i < N_TOOLS; i++) {
        jobs[i] = (job){.t = &tools[i], .fd = -1};
        sb_init(&jobs[i].out);
        char *path = find_on_path(tools[i].argv[0]);
        if (path)
            spawn(&jobs[i], path, envp);
        free(path);
    }
    run_jobs(jobs, N_TOOLS);
    free(envp);
    errata_code rc = ERRATA_OK;
    for (size_t i = 0; i < N_TOOLS; i++) {
        if (rc == ERRATA_OK)
            rc = record_job(env, &jobs[i], err);
        sb_free(&jobs[i].out);
    }
    return rc;
}

/* Requirement files before lock files, each in name order: a later file wins, and a lock says
 * what its tool resolved where a requirements file may only say what was asked for. */
static int file_order(const void *pa, const void *pb)
{
    const char *a = *(char *const *)pa, *b = *(char *const *)pb;
    bool la = !strstr(a, "requirements") && !strstr(a, "constraints");
    bool lb = !strstr(b, "requirements") && !strstr(b, "constraints");
    if (la != lb)
        return la ? 1 : -1;
    return strcmp(a, b);
}

/* Loads the files of dir that env_known_file() names (see file_order). Every error is kept in
 * first (the first one wins) and the next file is read. */
static void probe_dir(environment *env, const char *dir, errata_code *first, errata_error *err)
{
    errata_error e = {0};
    DIR *d = opendir(dir);
    if (!d) {
        if (*first == ERRATA_OK)
            *first = set_error(err, ERRATA_ERR_IO, "%s: %s", dir, strerror(errno));
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!env_known_file(de->d_name))
            continue;
        if (n == cap) {
            size_t c = cap ? cap * 2 : 8;
            char **v = realloc(names, c * sizeof *v);
            if (!v)
                break;
            names = v;
            cap = c;
        }
        char *copy = env_strndup(de->d_name, strlen(de->d_name));
        if (!copy)
            break;
        names[n++] = copy;
    }
    if (de && *first == ERRATA_OK) /* the loop above stopped early: out of memory */
        *first = set_error(err, ERRATA_ERR_NOMEM, "%s: out of memory", dir);
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, file_order);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(dir) + strlen(names[i]) + 2;
        char *path = malloc(len);
        struct stat st;
        if (path) {
            snprintf(path, len, "%s/%s", dir, names[i]);
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                errata_code rc = env_load_file(env, path, &e);
                if (rc != ERRATA_OK && *first == ERRATA_OK)
                    *first = set_error(err, rc, "%s", e.message);
            }
        } else if (*first == ERRATA_OK) {
            *first = set_error(err, ERRATA_ERR_NOMEM, "%s: out of memory", dir);
        }
        free(path);
        free(names[i]);
    }
    free(names);
}

errata_code env_probe(environment *env, const char *dir, errata_error *err)
{
    if (!env)
        return set_error(err, ERRATA_ERR_ARG, "env_probe: missing environment");
    errata_code first = ERRATA_OK;
    errata_error e = {0};
    if (dir)
        probe_dir(env, dir, &first, err);
    /* os-release(5): /etc/os-release, else /usr/lib/os-release. */
    const char *os = access("/etc/os-release", R_OK) == 0       ? "/etc/os-release"
                     : access("/usr/lib/os-release", R_OK) == 0 ? "/usr/lib/os-release"
                                                                : NULL;
    if (os) {
        errata_code rc = env_load_file(env, os, &e);
        if (rc != ERRATA_OK && first == ERRATA_OK)
            first = set_error(err, rc, "%s", e.message);
    }
    errata_code rc = probe_tools(env, &e);
    if (rc != ERRATA_OK && first == ERRATA_OK)
        first = set_error(err, rc, "%s", e.message);
    return first;
}
