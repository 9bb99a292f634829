/*
 * verify.c — errata_verify(): does each record still describe what its tool really prints?
 *
 * A record's `reproduce.command` is run contained (sandbox.c); its output must then be answered
 * by that very record, first, through the same lookup users get — so a record passes only when
 * its regex matches the real tool's current output and no other record outranks it. A record
 * whose tools are not installed is skipped, with the tool named, never counted as verified.
 *
 * With `update`, what was learnt is written back into the record file: a verified record becomes
 * `reproduced` and `last_confirmed` today; a record that claimed `reproduced` and now fails loses
 * the claim (`ai_generated`), because only what verify confirms may say it was reproduced. The
 * file is edited as text (two values replaced, nothing else touched) and replaced atomically.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "error.h"
#include "fileio.h"
#include "index_build.h"
#include "json_edit.h"
#include "kb.h"
#include "lookup.h"
#include "sandbox.h"
#include "strbuf.h"

#define VERIFY_MAX_OUTPUT (1u << 20)     /* a reproduce command prints a screenful, not a log */
#define VERIFY_MAX_FILE_BYTES (64u << 20) /* what the command may write into its scratch dir */
#define VERIFY_DEFAULT_TIMEOUT 30.0
#define VERIFY_MAX_RECORD_FILE (1u << 20)

struct errata_verify_report {
    errata_verify_entry *v;
    size_t n, cap;
    size_t tally[3]; /* by errata_verify_state */
};

static void free_entry(errata_verify_entry *e)
{
    free((char *)e->record_id);
    free((char *)e->file);
    free((char *)e->reason);
    free((char *)e->output);
}

void errata_verify_free(errata_verify_report *rep)
{
    if (!rep)
        return;
    for (size_t i = 0; i < rep->n; i++)
        free_entry(&rep->v[i]);
    free(rep->v);
    free(rep);
}

size_t errata_verify_count(const errata_verify_report *rep) { return rep ? rep->n : 0; }
const errata_verify_entry *errata_verify_get(const errata_verify_report *rep, size_t i)
{
    return rep && i < rep->n ? &rep->v[i] : NULL;
}
size_t errata_verify_tally(const errata_verify_report *rep, errata_verify_state state)
{
    return rep && state >= 0 && state <= ERRATA_VERIFY_SKIPPED ? rep->tally[state] : 0;
}

const char *errata_verify_state_name(errata_verify_state state)
{
    static const char *const names[] = {"verified", "failed", "skipped"};
    return state >= 0 && state <= ERRATA_VERIFY_SKIPPED ? names[state] : "unknown";
}

/* ------------------------------------------------------------------ what a record requires */

static bool on_sandbox_path(const char *exe)
{
    if (strchr(exe, '/'))
        return access(exe, X_OK) == 0;
    const char *p = SANDBOX_PATH;
    while (*p) {
        size_t n = strcspn(p, ":");
        char path[4096];
        snprintf(path, sizeof path, "%.*s/%s", (int)n, p, exe);
        if (access(path, X_OK) == 0)
            return true;
        p += n + (p[n] == ':');
    }
    return false;
}

static bool deb_installed(const char *pkg)
{
    char pattern[512];
    snprintf(pattern, sizeof pattern, "/var/lib/dpkg/info/%s.list", pkg);
    if (access(pattern, F_OK) == 0)
        return true;
    snprintf(pattern, sizeof pattern, "/var/lib/dpkg/info/%s:*.list", pkg);
    glob_t g;
    bool found = glob(pattern, GLOB_NOSORT, NULL, &g) == 0 && g.gl_pathc > 0;
    globfree(&g);
    return found;
}

static bool npm_global(const char *pkg)
{
    static const char *const roots[] = {"/usr/lib/node_modules", "/usr/local/lib/node_modules"};
    for (size_t i = 0; i < sizeof roots / sizeof *roots; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s/package.json", roots[i], pkg);
        if (access(path, F_OK) == 0)
            return true;
    }
    return false;
}

/* "" when every requirement is met, else what is missing (owned). */
static char *missing_requirements(const record *r)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < r->reproduce_requires.n; i++) {
        const char *req = r->reproduce_requires.v[i];
        bool ok = strncmp(req, "deb:", 4) == 0   ? deb_installed(req + 4)
                  : strncmp(req, "npm:", 4) == 0 ? npm_global(req + 4)
                                                 : on_sandbox_path(req);
        if (!ok)
            sb_printf(&sb, "%s%s", sb.len ? ", " : "", req);
    }
    return sb_finish(&sb);
}

/* ------------------------------------------------------------------ one record */

/* The first lines of what a command printed, for a failure's reason. */
static void excerpt(strbuf *sb, const char *out)
{
    const char *p = out;
    for (int lines = 0; *p && lines < 6; lines++)
        p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
    size_t n = (size_t)(p - out);
    while (n && out[n - 1] == '\n')
        n--;
    sb_printf(sb, "%s%.*s%s", *out ? "\n" : " (it printed nothing)", (int)n, out,
              *p ? "\n…" : "");
}

/* Looks the output up and says where the record came. */
static errata_verify_state judge(errata_db *db, const record *r, const sandbox_result *run,
                                 strbuf *reason, errata_error *err, errata_code *rc)
{
    if (run->timed_out) {
        sb_puts(reason, "timed out");
        return ERRATA_VERIFY_FAILED;
    }
    errata_lookup_options lo = {.max_results = 20};
    errata_result *res = NULL;
    *rc = errata_lookup(db, run->output, run->len, &lo, &res, err);
    if (*rc == ERRATA_ERR_ARG) { /* nothing printed */
        *rc = ERRATA_OK;
        sb_puts(reason, "the command printed nothing");
        return ERRATA_VERIFY_FAILED;
    }
    if (*rc != ERRATA_OK)
        return ERRATA_VERIFY_FAILED;
    size_t rank = 0;
    for (size_t k = 0; k < res->n && !rank; k++)
        if (!res->m[k].fuzzy && strcmp(res->m[k].rec->id, r->id) == 0)
            rank = k + 1;
    errata_verify_state state = ERRATA_VERIFY_VERIFIED;
    if (rank == 0) {
        sb_printf(reason, "the output does not match the record's regex (exit %d):",
                  run->exit_status);
        excerpt(reason, run->output);
        state = ERRATA_VERIFY_FAILED;
    } else if (rank > 1) {
        sb_printf(reason, "matched, but %s ranks first", res->m[0].rec->id);
        state = ERRATA_VERIFY_FAILED;
    }
    errata_result_free(res);
    return state;
}

static errata_code verify_one(errata_db *db, const record *r, const errata_verify_options *o,
                              errata_verify_entry *e, errata_error *err)
{
    strbuf reason;
    sb_init(&reason);
    errata_code rc = ERRATA_OK;
    if (!r->has_reproduce || !r->reproduce_command[0]) {
        e->state = ERRATA_VERIFY_SKIPPED;
        sb_puts(&reason, "no reproduce recipe");
    } else {
        char *missing = missing_requirements(r);
        if (missing && *missing) {
            e->state = ERRATA_VERIFY_SKIPPED;
            sb_printf(&reason, "needs %s", missing);
        } else {
            sandbox_limits lim = {o->timeout_s > 0 ? o->timeout_s : VERIFY_DEFAULT_TIMEOUT,
                                  VERIFY_MAX_OUTPUT, VERIFY_MAX_FILE_BYTES, true};
            sandbox_result run;
            rc = sandbox_run(r->reproduce_command, &lim, &run, err);
            if (rc == ERRATA_OK) {
                e->state = judge(db, r, &run, &reason, err, &rc);
                e->seconds = run.seconds;
                e->network_isolated = run.network_isolated;
                e->output = strdup(run.output);
                sandbox_result_free(&run);
            }
        }
        free(missing);
    }
    e->reason = sb_finish(&reason);
    return rc;
}

/* ------------------------------------------------------------------ --update */

static void today_utc(char out[11])
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 11, "%Y-%m-%d", &tm);
}

/* What the record file should now say, or NULL for no change. */
static const char *new_tier(const record *r, errata_verify_state state)
{
    if (state == ERRATA_VERIFY_VERIFIED && strcmp(r->verification_tier, "ai_generated") == 0)
        return "reproduced";
    if (state == ERRATA_VERIFY_FAILED && strcmp(r->verification_tier, "reproduced") == 0)
        return "ai_generated";
    return NULL;
}

static errata_code update_file(const record *r, const char *path, errata_verify_entry *e,
                               const char *today, errata_error *err)
{
    const char *tier = new_tier(r, e->state);
    bool confirm = e->state == ERRATA_VERIFY_VERIFIED;
    if (!tier && !confirm)
        return ERRATA_OK;
    char *text = NULL;
    size_t len = 0;
    errata_code rc = read_file(path, VERIFY_MAX_RECORD_FILE, &text, &len, err);
    if (rc != ERRATA_OK)
        return rc;
    char *edited = text;
    if (tier)
        edited = json_edit_top_string(edited, "verification_tier", tier, err);
    if (edited && confirm) {
        char *next = json_edit_top_string(edited, "last_confirmed", today, err);
        if (edited != text)
            free(edited);
        edited = next;
    }
    if (!edited) {
        free(text);
        return ERRATA_ERR_INVALID; /* err names the field that could not be found */
    }
    if (strcmp(edited, text) != 0) {
        rc = write_file_atomic(path, edited, strlen(edited), err);
        e->updated = rc == ERRATA_OK;
        e->tier_changed = rc == ERRATA_OK && tier != NULL;
    }
    if (edited != text)
        free(edited);
    free(text);
    return rc;
}

/* ------------------------------------------------------------------ the run */

static bool selected(const record *r, const errata_verify_options *o)
{
    if (!r) /* a file that did not parse: the temporary build has already refused it */
        return false;
    if (o->domain && strcmp(r->domain, o->domain) != 0)
        return false;
    if (!o->n_ids)
        return true;
    for (size_t i = 0; i < o->n_ids; i++)
        if (strcmp(o->ids[i], r->id) == 0)
            return true;
    return false;
}

static errata_code check_ids_exist(const kb_set *set, const errata_verify_options *o,
                                   errata_error *err)
{
    for (size_t i = 0; i < o->n_ids; i++) {
        bool found = false;
        for (size_t k = 0; k < set->n && !found; k++)
            found = set->items[k].rec && strcmp(set->items[k].rec->id, o->ids[i]) == 0;
        if (!found)
            return set_error(err, ERRATA_ERR_NOT_FOUND, "no record '%s' in the knowledge base",
                             o->ids[i]);
    }
    return ERRATA_OK;
}

static errata_code append(errata_verify_report *rep, const errata_verify_entry *e,
                          errata_error *err)
{
    if (rep->n == rep->cap) {
        size_t cap = rep->cap ? rep->cap * 2 : 64;
        errata_verify_entry *p = realloc(rep->v, cap * sizeof *p);
        if (!p)
            return set_error(err, ERRATA_ERR_NOMEM, "out of memory");
        rep->v = p;
        rep->cap = cap;
    }
    rep->v[rep->n++] = *e;
    rep->tally[e->state]++;
    return ERRATA_OK;
}

static errata_code verify_set(const kb_set *set, errata_db *db, const errata_verify_options *o,
                              errata_verify_report *rep, errata_error *err)
{
    char today[11];
    if (o->today)
        snprintf(today, sizeof today, "%s", o->today);
    else
        today_utc(today);
    errata_code rc = ERRATA_OK;
    for (size_t i = 0; rc == ERRATA_OK && i < set->n; i++) {
        const record *r = set->items[i].rec;
        if (!selected(r, o))
            continue;
        errata_verify_entry e = {0};
        e.record_id = strdup(r->id);
        e.file = strdup(set->items[i].path);
        rc = verify_one(db, r, o, &e, err);
        if (rc == ERRATA_OK && o->update)
            rc = update_file(r, set->items[i].path, &e, today, err);
        if (rc == ERRATA_OK && (!e.record_id || !e.file || !e.reason))
            rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory");
        if (rc == ERRATA_OK)
            rc = append(rep, &e, err);
        if (rc != ERRATA_OK) {
            free_entry(&e);
            break;
        }
        if (o->progress)
            o->progress(&rep->v[rep->n - 1], o->progress_arg);
    }
    return rc;
}

errata_code errata_verify(const char *const *kb_dirs, size_t n_dirs,
                          const errata_verify_options *opts, errata_verify_report **out,
                          errata_error *err)
{
    *out = NULL;
    errata_verify_options none = {0};
    const errata_verify_options *o = opts ? opts : &none;
    kb_set set = {0};
    errata_code rc = kb_load(kb_dirs, n_dirs, &set, NULL, err);
    if (rc != ERRATA_OK)
        return rc;
    rc = check_ids_exist(&set, o, err);
    errata_db *db = NULL;
    char index[4096];
    if (rc == ERRATA_OK)
        rc = index_build_temporary(kb_dirs, n_dirs, index, sizeof index, &db, err);
    errata_verify_report *rep = rc == ERRATA_OK ? calloc(1, sizeof *rep) : NULL;
    if (rc == ERRATA_OK && !rep)
        rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory");
    if (rc == ERRATA_OK)
        rc = verify_set(&set, db, o, rep, err);
    if (db) {
        errata_close(db);
        unlink(index);
    }
    kb_free(&set);
    if (rc != ERRATA_OK) {
        errata_verify_free(rep);
        return rc;
    }
    *out = rep;
    return ERRATA_OK;
}
