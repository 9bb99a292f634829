/*
 * check.c — errata_check(): the known errors an environment is exposed to, before they happen.
 *
 * Every record with version constraints is decided against the environment; those that apply
 * are listed, most trusted first. Records without constraints are left out: they apply to
 * everyone and would bury the warnings that are specific to these versions.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "applicability.h"
#include "db.h"
#include "error.h"
#include "render_labels.h"
#include "strbuf.h"
#include "uri.h"

typedef struct {
    const record *rec;
    applicability app;
    bool problem; /* under the caller's fail_on: reported as a problem, not a note */
} exposure;

static int cmp_exposure(const void *a, const void *b)
{
    const record *x = ((const exposure *)a)->rec, *y = ((const exposure *)b)->rec;
    if (x->confidence != y->confidence)
        return x->confidence > y->confidence ? -1 : 1;
    if (x->fix_success_rate != y->fix_success_rate)
        return x->fix_success_rate > y->fix_success_rate ? -1 : 1;
    return strcmp(x->id, y->id);
}

/* "path:line" → path and line (0 when there is none). */
static void split_source(const char *source, char *path, size_t size, int *line)
{
    *line = 0;
    snprintf(path, size, "%s", source ? source : "");
    char *colon = strrchr(path, ':');
    if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
        *line = atoi(colon + 1);
        *colon = '\0';
    }
}

/* The workaround every surface shows first: the best rated. */
static const char *first_workaround(const record *r)
{
    return r->n_workarounds ? r->workarounds[record_workaround_at(r, 0)].action : "";
}

static char *render_text(const exposure *v, size_t n, const environment *env, bool markdown,
                         errata_lang lang)
{
    const labels *L = render_labels(lang);
    bool zh = lang == ERRATA_LANG_ZH;
    strbuf sb;
    sb_init(&sb);
    if (n == 0)
        sb_printf(&sb, L->check_none_fmt, env->n, env->n == 1 ? "" : "s");
    else
        sb_printf(&sb, L->check_some_fmt, n, n == 1 ? "" : "s", env->n, env->n == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++) {
        const record *r = v[i].rec;
        const char *sig = zh && r->signature_zh ? r->signature_zh : r->signature;
        size_t k = r->n_workarounds ? record_workaround_at(r, 0) : 0;
        const char *fix = zh && r->n_workarounds && record_workaround_zh(r, k)
                              ? record_workaround_zh(r, k)
                              : first_workaround(r);
        if (markdown)
            sb_printf(&sb, "\n- `%s` (%s %.2f, %s %.2f): %s\n  - %s %s\n  - %s: %s\n", r->id,
                      L->confidence, r->confidence, L->fix_rate, r->fix_success_rate, sig,
                      L->because, v[i].app.reason, L->first_try, fix);
        else
            sb_printf(&sb, "\n  %s  (%s %.2f, %s %.2f)\n    %s\n    %s %s%s%s%s\n    %s: %s\n",
                      r->id, L->confidence, r->confidence, L->fix_rate, r->fix_success_rate, sig,
                      L->because, v[i].app.reason, v[i].app.source ? " (" : "",
                      v[i].app.source ? v[i].app.source : "", v[i].app.source ? ")" : "",
                      L->first_try, fix);
    }
    return sb_finish(&sb);
}

static json_t *os_json(const environment *env)
{
    if (!env->os_id)
        return json_null();
    return json_pack("{s:s, s:o, s:o}", "id", env->os_id, "version_id",
                     env->os_version_id ? json_string(env->os_version_id) : json_null(),
                     "pretty_name", env->os_pretty ? json_string(env->os_pretty) : json_null());
}

static char *render_json(const exposure *v, size_t n, const environment *env)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        const record *r = v[i].rec;
        json_array_append_new(
            arr, json_pack("{s:s, s:s, s:s, s:f, s:f, s:s, s:o, s:s}", "id", r->id, "signature",
                           r->signature, "domain", r->domain, "confidence", r->confidence,
                           "fix_success_rate", r->fix_success_rate, "reason", v[i].app.reason,
                           "source", v[i].app.source ? json_string(v[i].app.source) : json_null(),
                           "first_workaround", first_workaround(r)));
    }
    json_t *root = json_pack("{s:s, s:{s:I, s:o}, s:I, s:o}", "errata_version", ERRATA_VERSION,
                             "environment", "packages", (json_int_t)env->n, "os", os_json(env),
                             "count", (json_int_t)n, "records", arr);
    char *out = json_dumps(root, JSON_INDENT(2));
    json_decref(root);
    return out;
}

/* SARIF 2.1.0: one rule per record, one result per exposure, located at the line of the
 * environment file that holds the deciding package, so CI shows it on that line. */
/* SARIF 2.1.0: one rule per record, one result per exposure, located at the line of the
 * environment file that holds the deciding package, so CI shows it on that line. A version
 * that came from --env-set or a probe of the machine has no file: its result is located at
 * fallback_uri, line 1, because GitHub's upload refuses a result without a location. An
 * exposure only says "this can happen at your version": it is a note, unless the caller's
 * fail_on makes it a problem (a warning). */
static char *render_sarif(const exposure *v, size_t n, const char *fallback_uri)
{
    json_t *rules = json_array(), *results = json_array();
    for (size_t i = 0; i < n; i++) {
        const record *r = v[i].rec;
        const char *level = v[i].problem ? "warning" : "note";
        json_t *rule = json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}}", "id", r->id,
                                 "name", r->id, "shortDescription", "text", r->signature,
                                 "fullDescription", "text", r->root_cause, "help", "text",
                                 first_workaround(r), "defaultConfiguration", "level", level);
        if (r->official_doc_url)
            json_object_set_new(rule, "helpUri", json_string(r->official_doc_url));
        json_array_append_new(rules, rule);
        char path[1024];
        int line;
        split_source(v[i].app.source, path, sizeof path, &line);
        if (!path[0] || strncmp(path, "probe:", 6) == 0 || strcmp(path, "--env-set") == 0) {
            split_source(fallback_uri, path, sizeof path, &line); /* "path:line" → path */
            line = 1;
        }
        strbuf msg;
        sb_init(&msg);
        sb_printf(&msg, "%s can happen here: %s. First try: %s", r->signature, v[i].app.reason,
                  first_workaround(r));
        json_t *result = json_pack("{s:s, s:I, s:s, s:{s:s}}", "ruleId", r->id, "ruleIndex",
                                   (json_int_t)i, "level", level, "message", "text",
                                   msg.buf ? msg.buf : "");
        sb_free(&msg);
        strbuf uri;
        sb_init(&uri);
        uri_escape_path(&uri, path);
        json_t *phys = json_pack("{s:{s:s}, s:{s:i}}", "artifactLocation", "uri",
                                 uri.buf ? uri.buf : "", "region", "startLine", line > 0 ? line : 1);
        sb_free(&uri);
        json_object_set_new(result, "locations", json_pack("[{s:o}]", "physicalLocation", phys));
        json_array_append_new(results, result);
    }
    json_t *root = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:o}}, s:o}]}", "$schema",
                             "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0",
                             "runs", "tool", "driver", "name", "errata", "version",
                             ERRATA_VERSION, "rules", rules, "results", results);
    char *out = json_dumps(root, JSON_INDENT(2));
    json_decref(root);
    return out;
}

/* The first file the environment was read from ("path:line"), for the results whose versions
 * came from no file. */
static const char *first_file(const environment *env)
{
    for (size_t i = 0; i < env->n; i++) {
        const char *src = env->pkgs[i].source;
        if (src && *src && strncmp(src, "probe:", 6) != 0 && strcmp(src, "--env-set") != 0)
            return src;
    }
    return "errata-environment";
}

errata_code errata_check(errata_db *db, const errata_env *env, errata_format fmt,
                         char **out, size_t *count, errata_error *err)
{
    return errata_check_with(db, env, NULL, fmt, out, count, NULL, err);
}

errata_code errata_check_with(errata_db *db, const errata_env *env,
                              const errata_check_options *opts, errata_format fmt, char **out,
                              size_t *count, size_t *problems, errata_error *err)
{
    *out = NULL;
    if (!db || !env)
        return set_error(err, ERRATA_ERR_ARG, "check needs an index and an environment");
    if (fmt != ERRATA_FORMAT_TEXT && fmt != ERRATA_FORMAT_JSON && fmt != ERRATA_FORMAT_MARKDOWN &&
        fmt != ERRATA_FORMAT_SARIF)
        return set_error(err, ERRATA_ERR_ARG, "check writes text, JSON, Markdown or SARIF");
    const char *fail_on = opts && opts->fail_on ? opts->fail_on : NULL;
    static const record none = {.category = ""};
    if (fail_on && record_in_list(&none, fail_on) < 0)
        return set_error(err, ERRATA_ERR_ARG, "'%s': give categories (dependency_error, "
                         "runtime_error, …) or any, separated by commas", fail_on);
    exposure *v = calloc(db->n ? db->n : 1, sizeof *v);
    if (!v)
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory");
    size_t n = 0, n_problems = 0;
    errata_code rc = ERRATA_OK;
    for (size_t i = 0; i < db->n && rc == ERRATA_OK; i++) {
        const record *r = db_record(db, i, err);
        if (!r) {
            rc = ERRATA_ERR_CORRUPT;
            break;
        }
        if (r->n_versions == 0)
            continue;
        applicability a;
        if (!applicability_of(r, &env->e, &a)) {
            rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory");
            break;
        }
        if (a.state == ERRATA_APPLICABILITY_APPLIES) {
            bool problem = fail_on && record_in_list(r, fail_on) == 1;
            n_problems += problem;
            v[n++] = (exposure){r, a, problem};
        } else {
            applicability_clear(&a);
        }
    }
    if (rc == ERRATA_OK) {
        if (n > 1)
            qsort(v, n, sizeof *v, cmp_exposure);
        errata_lang lang = opts ? opts->lang : ERRATA_LANG_EN;
        *out = fmt == ERRATA_FORMAT_JSON    ? render_json(v, n, &env->e)
               : fmt == ERRATA_FORMAT_SARIF ? render_sarif(v, n, first_file(&env->e))
                                           : render_text(v, n, &env->e,
                                                         fmt == ERRATA_FORMAT_MARKDOWN, lang);
        if (!*out)
            rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory");
        if (count)
            *count = n;
        if (problems)
            *problems = n_problems;
    }
    for (size_t i = 0; i < n; i++)
        applicability_clear(&v[i].app);
    free(v);
    return rc;
}
