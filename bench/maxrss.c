/*
 * maxrss — runs a command and reports its wall time, CPU time and peak resident set size, for
 * bench/build-scale. GNU time would do the same but is one more package to install; the
 * kernel already keeps the peak (ru_maxrss) for every child a process waits for.
 *
 *   maxrss [-o FILE] COMMAND [ARG...]
 *
 * Writes one line, "wall_s=W user_s=U sys_s=S maxrss_kib=K status=X", to FILE (or stderr), and
 * exits with the command's status (128 + N when signal N ended it, 127 when it did not start).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
    const char *out_path = NULL;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "-o") == 0) {
        out_path = argv[2];
        first = 3;
    }
    if (first >= argc) {
        fputs("usage: maxrss [-o FILE] COMMAND [ARG...]\n", stderr);
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) {
        perror("maxrss: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[first], argv + first);
        fprintf(stderr, "maxrss: %s: %s\n", argv[first], strerror(errno));
        _exit(127);
    }
    int ws;
    while (waitpid(pid, &ws, 0) < 0)
        if (errno != EINTR) {
            perror("maxrss: waitpid");
            return 2;
        }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* The only child this process has waited for is the command, so the children's peak is
     * the command's own (the largest of it and anything it waited for in turn). */
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    int status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    FILE *out = out_path ? fopen(out_path, "w") : stderr;
    if (!out) {
        perror(out_path);
        return 2;
    }
    fprintf(out, "wall_s=%.3f user_s=%.3f sys_s=%.3f maxrss_kib=%ld status=%d\n", wall,
            seconds(ru.ru_utime), seconds(ru.ru_stime), ru.ru_maxrss, status);
    if (out != stderr && fclose(out) != 0) {
        perror(out_path);
        return 2;
    }
    return status;
}
