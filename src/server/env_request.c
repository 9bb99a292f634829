/*
 * env_request.c — an environment given in a request, as the HTTP check endpoint and the MCP
 * check_environment tool both take it: {"files": [{"name", "content"}], "packages": {name:
 * version}}. Only the request's shape is read here; the files are parsed by liberrata.
 */
#include <stdio.h>
#include <string.h>

#include "handlers.h"

errata_env *env_from_request(const json_t *req, char *why, size_t why_size, bool *bad_shape)
{
    const json_t *files = json_object_get(req, "files");
    const json_t *packages = json_object_get(req, "packages");
    *bad_shape = true;
    if (files && !json_is_array(files)) {
        snprintf(why, why_size, "\"files\" must be an array of {\"name\", \"content\"}");
        return NULL;
    }
    if (packages && !json_is_object(packages)) {
        snprintf(why, why_size, "\"packages\" must be an object of name: version");
        return NULL;
    }
    if (json_array_size(files) == 0 && json_object_size(packages) == 0) {
        snprintf(why, why_size, "give the environment: \"files\" (lock files, pip freeze, …) or "
                                "\"packages\" ({\"torch\": \"2.3.0\"})");
        return NULL;
    }
    errata_env *env = NULL;
    errata_error err = {0};
    if (errata_env_new(&env, &err) != ERRATA_OK) {
        *bad_shape = false;
        snprintf(why, why_size, "%s", err.message);
        return NULL;
    }
    size_t i;
    const json_t *f;
    json_array_foreach(files, i, f)
    {
        const char *name = json_string_value(json_object_get(f, "name"));
        const json_t *content = json_object_get(f, "content");
        if (!name || !json_is_string(content)) {
            snprintf(why, why_size, "files[%zu] needs \"name\" and \"content\", strings", i);
            errata_env_free(env);
            return NULL;
        }
        if (errata_env_load_text(env, name, json_string_value(content),
                                 json_string_length(content), &err) != ERRATA_OK) {
            *bad_shape = false;
            snprintf(why, why_size, "%s", err.message);
            errata_env_free(env);
            return NULL;
        }
    }
    const char *name;
    const json_t *version;
    json_object_foreach((json_t *)packages, name, version)
    {
        char assignment[512];
        if (!json_is_string(version)) {
            snprintf(why, why_size, "packages.%.200s must be a version string", name);
            errata_env_free(env);
            return NULL;
        }
        snprintf(assignment, sizeof assignment, "%s=%s", name, json_string_value(version));
        if (errata_env_set(env, assignment, &err) != ERRATA_OK) {
            *bad_shape = false;
            snprintf(why, why_size, "packages.%.200s: %s", name, err.message);
            errata_env_free(env);
            return NULL;
        }
    }
    return env;
}
