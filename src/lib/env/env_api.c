/*
 * env_api.c — the public errata_env_* functions (errata.h): a handle over an environment, and
 * each way of filling it, delegating to the reader that owns that input.
 */
#include <stdio.h>
#include <stdlib.h>

#include "env.h"

errata_code errata_env_new(errata_env **out, errata_error *err)
{
    *out = calloc(1, sizeof **out);
    if (!*out) {
        if (err) {
            err->code = ERRATA_ERR_NOMEM;
            snprintf(err->message, sizeof err->message, "out of memory");
        }
        return ERRATA_ERR_NOMEM;
    }
    env_init(&(*out)->e);
    return ERRATA_OK;
}

void errata_env_free(errata_env *env)
{
    if (!env)
        return;
    env_free(&env->e);
    free(env);
}

errata_code errata_env_load_file(errata_env *env, const char *path, errata_error *err)
{
    return env_load_file(&env->e, path, err);
}

errata_code errata_env_load_text(errata_env *env, const char *name, const char *text, size_t len,
                                 errata_error *err)
{
    return env_load_text(&env->e, name, text, len, err);
}

errata_code errata_env_set(errata_env *env, const char *assignment, errata_error *err)
{
    return env_set(&env->e, assignment, err);
}

errata_code errata_env_probe(errata_env *env, const char *dir, errata_error *err)
{
    return env_probe(&env->e, dir, err);
}

size_t errata_env_count(const errata_env *env) { return env ? env->e.n : 0; }
