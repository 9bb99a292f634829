/*
 * cli_env.c — the environment options shared by `errata lookup` and `errata check`.
 */
#include <stdlib.h>

#include "cli.h"

int cli_env_option(cli_env *e, int opt, const char *arg)
{
    switch (opt) {
    case 'F':
        if (e->n_files == sizeof e->files / sizeof *e->files) {
            cli_error("at most %zu --env files", sizeof e->files / sizeof *e->files);
            return -1;
        }
        e->files[e->n_files++] = arg;
        return 1;
    case 'S':
        if (e->n_sets == sizeof e->sets / sizeof *e->sets) {
            cli_error("at most %zu --env-set", sizeof e->sets / sizeof *e->sets);
            return -1;
        }
        e->sets[e->n_sets++] = arg;
        return 1;
    case 'A':
        e->automatic = true;
        return 1;
    }
    return 0;
}

bool cli_env_given(const cli_env *e) { return e->n_files || e->n_sets || e->automatic; }

errata_env *cli_env_build(const cli_env *e)
{
    errata_env *env = NULL;
    errata_error err = {0};
    if (errata_env_new(&env, &err) != ERRATA_OK) {
        cli_report(&err);
        return NULL;
    }
    /* The probe first: files and --env-set given explicitly win over what it finds. */
    if (e->automatic && errata_env_probe(env, ".", &err) != ERRATA_OK)
        cli_error("--env-auto: %s (continuing with what was read)", err.message);
    for (size_t i = 0; i < e->n_files; i++)
        if (errata_env_load_file(env, e->files[i], &err) != ERRATA_OK) {
            cli_report(&err);
            errata_env_free(env);
            return NULL;
        }
    for (size_t i = 0; i < e->n_sets; i++)
        if (errata_env_set(env, e->sets[i], &err) != ERRATA_OK) {
            cli_report(&err);
            errata_env_free(env);
            return NULL;
        }
    return env;
}
