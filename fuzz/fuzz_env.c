/*
 * fuzz_env.c — every reader of an environment file (env.h) on any bytes: the first byte picks
 * the reader, the rest is the file. Lock files and pip output come from the user's project and
 * are read by errata check, the HTTP check endpoint and the MCP check_environment tool, so a
 * malformed one must give an error naming the file, never a crash, a leak or undefined
 * behaviour.
 *
 * Readers: each parser directly (then the batch is committed as env_load_text commits it),
 * the whole env_load_text path with the format detected from the content (byte order mark, NUL
 * bytes, detection), and --env-set assignments.
 * Properties: a failure has a message; every package read has a name and version, and is found
 * again by its name; env_version_order, which picks the version that wins among several, is
 * antisymmetric and says a version equals itself.
 */
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "fuzz.h"

static errata_code poetry(env_batch *b, const char *t, size_t n, errata_error *e)
{
    return env_parse_toml_lock(b, t, n, ECO_PYPI, false, e);
}
static errata_code uv(env_batch *b, const char *t, size_t n, errata_error *e)
{
    return env_parse_toml_lock(b, t, n, ECO_PYPI, true, e);
}
static errata_code cargo(env_batch *b, const char *t, size_t n, errata_error *e)
{
    return env_parse_toml_lock(b, t, n, ECO_CARGO, false, e);
}

static const struct {
    const char *file;
    errata_code (*parse)(env_batch *, const char *, size_t, errata_error *);
    env_pick pick; /* as env_load.c picks for the format */
} READERS[] = {
    {"requirements.txt", env_parse_requirements, ENV_PICK_LAST},
    {"pip-list.json", env_parse_pip_list, ENV_PICK_LAST},
    {"package-lock.json", env_parse_npm_lock, ENV_PICK_HIGHEST},
    {"yarn.lock", env_parse_yarn_lock, ENV_PICK_HIGHEST},
    {"pnpm-lock.yaml", env_parse_pnpm_lock, ENV_PICK_HIGHEST},
    {"poetry.lock", poetry, ENV_PICK_HIGHEST},
    {"uv.lock", uv, ENV_PICK_HIGHEST},
    {"Cargo.lock", cargo, ENV_PICK_HIGHEST},
    {"go.mod", env_parse_go_mod, ENV_PICK_LAST},
    {"os-release", env_parse_os_release, ENV_PICK_LAST},
};
enum { N_READERS = sizeof READERS / sizeof *READERS, DETECT = N_READERS, ENV_SET, N_CHOICES };

/* One parser on text (NUL-terminated, no NUL before its end, as the parsers require). */
static errata_code parse_one(environment *env, size_t r, const char *text, errata_error *err)
{
    env_batch b = {.file = READERS[r].file, .pick = READERS[r].pick};
    errata_code rc = READERS[r].parse(&b, text, strlen(text), err);
    if (rc == ERRATA_OK)
        rc = env_commit(env, &b, err);
    env_batch_free(&b);
    return rc;
}

static void check_env(const environment *env)
{
    for (size_t i = 0; i < env->n; i++) {
        const env_package *p = &env->pkgs[i];
        if (!p->name || !p->version || !p->source)
            fuzz_fail("package %zu lacks a name, version or source", i);
        /* A name with ':' reads as an ecosystem prefix ("npm:debug") when looked up. */
        if (!strchr(p->name, ':') && !env_find(env, p->name))
            fuzz_fail("package '%s' is not found by its own name", p->name);
        if (env_version_order(p->eco, p->version, p->version) != 0)
            fuzz_fail("version '%s' is not equal to itself", p->version);
        for (size_t j = 0; j < i && j < 64; j++) {
            const env_package *q = &env->pkgs[j];
            if (q->eco != p->eco)
                continue;
            int a = env_version_order(p->eco, p->version, q->version);
            int b = env_version_order(p->eco, q->version, p->version);
            if ((a > 0) - (a < 0) != (b < 0) - (b > 0))
                fuzz_fail("versions '%s' and '%s' are each before the other", p->version,
                          q->version);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t choice = data[0] % N_CHOICES;
    char *text = fuzz_cstring(data + 1, size - 1);
    environment env;
    env_init(&env);
    errata_error err = {0};
    errata_code rc;
    if (choice < N_READERS)
        rc = parse_one(&env, choice, text, &err);
    else if (choice == DETECT)
        rc = env_load_text(&env, "environment.txt", (const char *)data + 1, size - 1, &err);
    else
        rc = env_set(&env, text, &err);
    if (rc != ERRATA_OK && !err.message[0])
        fuzz_fail("reader %zu failed without a message (code %d)", choice, rc);
    check_env(&env);
    env_free(&env);
    free(text);
    return 0;
}
