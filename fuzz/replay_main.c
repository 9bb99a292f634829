/*
 * replay_main.c — runs a harness without libFuzzer: on every file named on the command line, and
 * on every file of every folder named (dot files skipped, in name order), once each. Built with
 * every harness into a replay executable, which the test suite 'fuzz' runs on the harness's
 * seed corpus and regressions, so that every input that ever crashed a harness is tried again
 * by the ordinary tests, under gcc's sanitizers too. Exits 1 when a path cannot be read or no
 * input was found: a test that ran nothing must not pass.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* libFuzzer's optional hook; a harness may define it. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* Runs the harness on the bytes of one file, in a buffer of exactly their size so that the
 * sanitizers see a read past the end. */
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        char *bigger = n == cap ? realloc(buf, cap *= 2) : buf;
        if (!bigger)
            free(buf);
        buf = bigger;
    }
    fclose(f);
    uint8_t *exact = buf ? malloc(n ? n : 1) : NULL;
    if (!exact) {
        free(buf);
        fprintf(stderr, "%s: out of memory\n", path);
        return -1;
    }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int visible(const struct dirent *e) { return e->d_name[0] != '.'; }

/* Runs every regular file of dir; the number run, or -1. */
static long run_dir(const char *dir)
{
    struct dirent **names;
    int n = scandir(dir, &names, visible, alphasort);
    if (n < 0) {
        perror(dir);
        return -1;
    }
    long ran = 0;
    for (int i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        if (ran >= 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode))
            ran = run_file(path) == 0 ? ran + 1 : -1;
        free(names[i]);
    }
    free(names);
    return ran;
}

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    long total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        long ran = stat(argv[i], &st) != 0 ? (perror(argv[i]), -1)
                   : S_ISDIR(st.st_mode)   ? run_dir(argv[i])
                                           : (run_file(argv[i]) == 0 ? 1 : -1);
        if (ran < 0)
            return 1;
        total += ran;
    }
    printf("%s: %ld input(s) replayed without a crash\n", argv[0], total);
    return total > 0 ? 0 : 1;
}
