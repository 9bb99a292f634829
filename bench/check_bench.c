/*
 * check_bench.c — how long `errata check` takes on a large environment.
 *
 *   check_bench INDEX [RUNS]
 *
 * Builds a 500-package pip freeze (20 packages the knowledge base has constraints for, 480
 * others), then times, in the same process: reading it (the baseline: the cost every check
 * pays anyway) and errata_check() of it against every record. Prints both and their ratio.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errata.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: check_bench INDEX [RUNS]\n");
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 200;
    static const char *known[] = {"torch==2.3.0", "transformers==4.40.0", "peft==0.10.0",
                                  "tensorflow==2.16.1", "keras==3.3.3", "openai==1.30.1",
                                  "httpx==0.28.1", "protobuf==4.25.3", "datasets==2.19.0",
                                  "pip==24.0", "numpy==1.26.4", "requests==2.31.0",
                                  "urllib3==2.2.1", "flask==3.0.3", "sqlalchemy==2.0.30",
                                  "pydantic==2.7.1", "jinja2==3.1.4", "click==8.1.7",
                                  "certifi==2024.2.2", "idna==3.7"};
    size_t cap = 64 * 1024, n = 0;
    char *freeze = malloc(cap);
    for (size_t i = 0; i < 20; i++)
        n += (size_t)snprintf(freeze + n, cap - n, "%s\n", known[i]);
    for (int i = 0; i < 480; i++)
        n += (size_t)snprintf(freeze + n, cap - n, "package-%03d==%d.%d.%d\n", i, i % 7, i % 13, i % 5);
    errata_db *db;
    errata_error err;
    if (errata_open(argv[1], &db, &err) != ERRATA_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    size_t count = 0;
    double t0 = now_us();
    for (int r = 0; r < runs; r++) {
        errata_env *env;
        errata_env_new(&env, &err);
        errata_env_load_text(env, "pip-freeze.txt", freeze, n, &err);
        errata_env_free(env);
    }
    double parse = (now_us() - t0) / runs;
    errata_env *env;
    errata_env_new(&env, &err);
    errata_env_load_text(env, "pip-freeze.txt", freeze, n, &err);
    char *out = NULL;
    errata_check(db, env, ERRATA_FORMAT_JSON, &out, &count, &err); /* warm: records parsed once */
    free(out);
    t0 = now_us();
    for (int r = 0; r < runs; r++) {
        errata_check(db, env, ERRATA_FORMAT_JSON, &out, &count, &err);
        free(out);
    }
    double check = (now_us() - t0) / runs;
    printf("environment: %zu packages; knowledge base: %zu records; %zu apply\n",
           errata_env_count(env), errata_db_record_count(db), count);
    printf("read the environment (baseline): %8.1f us\n", parse);
    printf("check it against every record:   %8.1f us\n", check);
    printf("ratio check/read:                %8.1fx\n", check / parse);
    errata_env_free(env);
    errata_close(db);
    free(freeze);
    return 0;
}
