/*
 * catalog.c — what the knowledge base holds: its domains, a domain's records, statistics and
 * the error chain around a record, each as JSON, Markdown or HTML.
 *
 * Each query builds one JSON value and every format is rendered from it, so the HTTP API, the
 * MCP tools and the web pages cannot disagree about the facts.
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "error.h"
#include "html.h"
#include "strbuf.h"

static errata_code sql_error(errata_db *db, errata_error *err)
{
    return set_error(err, ERRATA_ERR_CORRUPT, "%s: reading the index: %s", db->path,
                     sqlite3_errmsg(db->sql));
}

/* ------------------------------------------------------------------ queries → JSON */

static errata_code domains_json(errata_db *db, json_t **out, errata_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->sql,
                           "SELECT domain, count(*) FROM records GROUP BY domain ORDER BY domain",
                           -1, &st, NULL) != SQLITE_OK)
        return sql_error(db, err);
    json_t *arr = json_array();
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        json_array_append_new(arr, json_pack("{s:s, s:I}", "domain",
                                             (const char *)sqlite3_column_text(st, 0), "records",
                                             (json_int_t)sqlite3_column_int64(st, 1)));
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        json_decref(arr);
        return sql_error(db, err);
    }
    *out = json_pack("{s:o}", "domains", arr);
    return ERRATA_OK;
}

static errata_code domain_json(errata_db *db, const char *domain, json_t **out, errata_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->sql,
                           "SELECT id, signature, category, verification_tier, confidence, "
                           "fix_success_rate FROM records WHERE domain = ?1 ORDER BY id",
                           -1, &st, NULL) != SQLITE_OK)
        return sql_error(db, err);
    sqlite3_bind_text(st, 1, domain, -1, SQLITE_STATIC);
    json_t *arr = json_array();
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        json_array_append_new(
            arr, json_pack("{s:s, s:s, s:s, s:s, s:f, s:f}", "id", sqlite3_column_text(st, 0),
                           "signature", sqlite3_column_text(st, 1), "category",
                           sqlite3_column_text(st, 2), "verification_tier",
                           sqlite3_column_text(st, 3), "confidence",
                           sqlite3_column_double(st, 4), "fix_success_rate",
                           sqlite3_column_double(st, 5)));
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        json_decref(arr);
        return sql_error(db, err);
    }
    if (json_array_size(arr) == 0) {
        json_decref(arr);
        return set_error(err, ERRATA_ERR_NOT_FOUND, "no domain '%s'", domain);
    }
    *out = json_pack("{s:s, s:o}", "domain", domain, "records", arr);
    return ERRATA_OK;
}

/* Runs "SELECT key, count(*) …" into an object {key: count}. */
static errata_code counts(errata_db *db, const char *sql, json_t **out, errata_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL) != SQLITE_OK)
        return sql_error(db, err);
    json_t *obj = json_object();
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        json_object_set_new(obj, (const char *)sqlite3_column_text(st, 0),
                            json_integer(sqlite3_column_int64(st, 1)));
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        json_decref(obj);
        return sql_error(db, err);
    }
    *out = obj;
    return ERRATA_OK;
}

static errata_code stats_json(errata_db *db, json_t **out, errata_error *err)
{
    json_t *by_domain = NULL, *by_tier = NULL, *edges = NULL;
    errata_code rc = counts(db, "SELECT domain, count(*) FROM records GROUP BY domain", &by_domain,
                            err);
    if (rc == ERRATA_OK)
        rc = counts(db, "SELECT verification_tier, count(*) FROM records GROUP BY 1", &by_tier, err);
    if (rc == ERRATA_OK)
        rc = counts(db, "SELECT 'edges', count(*) FROM edges", &edges, err);
    if (rc != ERRATA_OK) {
        json_decref(by_domain), json_decref(by_tier), json_decref(edges);
        return rc;
    }
    json_t *index = json_object();
    const char *keys[] = {"format_version", "kb_hash", "built_at", "errata_version"};
    for (size_t k = 0; k < 4; k++) {
        const char *v = errata_db_meta(db, keys[k]);
        json_object_set_new(index, keys[k], v ? json_string(v) : json_null());
    }
    *out = json_pack("{s:I, s:I, s:O, s:o, s:o, s:o}", "records", (json_int_t)db->n, "domains",
                     (json_int_t)json_object_size(by_domain), "edges",
                     json_object_get(edges, "edges"), "by_domain", by_domain, "by_tier", by_tier,
                     "index", index);
    json_decref(edges);
    return ERRATA_OK;
}

/* Breadth-first over the edges, both directions, up to depth steps from the root. */
static errata_code chain_json(errata_db *db, const char *id, int depth, json_t **out,
                              errata_error *err)
{
    size_t root = db_find(db, id);
    if (root == (size_t)-1)
        return set_error(err, ERRATA_ERR_NOT_FOUND, "no record with id '%s'", id);
    if (depth < 1 || depth > 5)
        return set_error(err, ERRATA_ERR_ARG, "depth must be from 1 to 5, not %d", depth);
    int *dist = malloc(db->n * sizeof *dist);
    size_t *queue = malloc(db->n * sizeof *queue);
    sqlite3_stmt *st = NULL;
    if (!dist || !queue) {
        free(dist), free(queue);
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < db->n; i++)
        dist[i] = -1;
    errata_code rc = ERRATA_OK;
    if (sqlite3_prepare_v2(db->sql,
                           "SELECT rowid, src, dst, kind, probability, condition FROM edges "
                           "WHERE src = ?1 OR dst = ?1 ORDER BY rowid",
                           -1, &st, NULL) != SQLITE_OK)
        rc = sql_error(db, err);
    json_t *nodes = json_array(), *edges = json_array(), *seen = json_object();
    size_t head = 0, tail = 0;
    dist[root] = 0;
    queue[tail++] = root;
    while (rc == ERRATA_OK && head < tail) {
        size_t cur = queue[head++];
        const char *cur_id = db->entries[cur].id;
        const record *r = db_record(db, cur, err);
        if (!r) {
            rc = ERRATA_ERR_CORRUPT;
            break;
        }
        json_array_append_new(nodes, json_pack("{s:s, s:s, s:i}", "id", cur_id, "signature",
                                               r->signature, "distance", dist[cur]));
        if (dist[cur] == depth)
            continue;
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, cur_id, -1, SQLITE_TRANSIENT);
        int step;
        while ((step = sqlite3_step(st)) == SQLITE_ROW) {
            char key[32];
            snprintf(key, sizeof key, "%lld", (long long)sqlite3_column_int64(st, 0));
            const char *src = (const char *)sqlite3_column_text(st, 1);
            const char *dst = (const char *)sqlite3_column_text(st, 2);
            const char *other = strcmp(src, cur_id) == 0 ? dst : src;
            size_t o = db_find(db, other);
            if (o == (size_t)-1)
                continue; /* a link to a record that does not exist: validate warns */
            if (!json_object_get(seen, key)) {
                json_object_set_new(seen, key, json_true());
                json_array_append_new(
                    edges,
                    json_pack("{s:s, s:s, s:s, s:o, s:o}", "from", src, "to", dst, "kind",
                              sqlite3_column_text(st, 3), "probability",
                              sqlite3_column_type(st, 4) == SQLITE_NULL
                                  ? json_null()
                                  : json_real(sqlite3_column_double(st, 4)),
                              "condition",
                              sqlite3_column_type(st, 5) == SQLITE_NULL
                                  ? json_null()
                                  : json_string((const char *)sqlite3_column_text(st, 5))));
            }
            if (dist[o] < 0) {
                dist[o] = dist[cur] + 1;
                queue[tail++] = o;
            }
        }
        if (step != SQLITE_DONE)
            rc = sql_error(db, err);
    }
    sqlite3_finalize(st);
    free(dist), free(queue);
    json_decref(seen);
    if (rc != ERRATA_OK) {
        json_decref(nodes), json_decref(edges);
        return rc;
    }
    *out = json_pack("{s:s, s:i, s:o, s:o}", "root", db->entries[root].id, "depth", depth,
                     "nodes", nodes, "edges", edges);
    return ERRATA_OK;
}

/* ------------------------------------------------------------------ JSON → formats */

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* An HTML link to prefix + target + the options' link_suffix, or plain text when there is no
 * prefix. */
static void link(strbuf *sb, const char *prefix, const errata_render_options *opts,
                 const char *target, const char *text)
{
    if (!prefix) {
        html_escape(sb, text);
        return;
    }
    sb_puts(sb, "<a href=\"");
    html_escape(sb, prefix);
    html_escape(sb, target);
    if (opts && opts->link_suffix)
        html_escape(sb, opts->link_suffix);
    sb_puts(sb, "\">");
    html_escape(sb, text);
    sb_puts(sb, "</a>");
}

static char *render_domains(const json_t *j, errata_format fmt, const errata_render_options *opts)
{
    strbuf sb;
    sb_init(&sb);
    const json_t *arr = json_object_get(j, "domains");
    size_t i;
    json_t *d;
    if (fmt == ERRATA_FORMAT_MARKDOWN) {
        sb_puts(&sb, "| domain | records |\n|---|---|\n");
        json_array_foreach(arr, i, d)
            sb_printf(&sb, "| `%s` | %lld |\n", str(d, "domain"),
                      (long long)json_integer_value(json_object_get(d, "records")));
    } else {
        sb_puts(&sb, "<ul class=\"domains\">");
        json_array_foreach(arr, i, d)
        {
            sb_puts(&sb, "<li>");
            link(&sb, opts ? opts->domain_link_prefix : NULL, opts, str(d, "domain"),
                 str(d, "domain"));
            sb_printf(&sb, " <span class=\"count\">%lld</span></li>",
                      (long long)json_integer_value(json_object_get(d, "records")));
        }
        sb_puts(&sb, "</ul>");
    }
    return sb_finish(&sb);
}

static char *render_domain(const json_t *j, errata_format fmt, const errata_render_options *opts)
{
    strbuf sb;
    sb_init(&sb);
    const json_t *arr = json_object_get(j, "records");
    size_t i;
    json_t *r;
    if (fmt == ERRATA_FORMAT_MARKDOWN) {
        sb_printf(&sb, "Records of `%s`:\n\n", str(j, "domain"));
        json_array_foreach(arr, i, r)
            sb_printf(&sb, "- `%s` — %s\n", str(r, "id"), str(r, "signature"));
    } else {
        sb_puts(&sb, "<ul class=\"records\">");
        json_array_foreach(arr, i, r)
        {
            sb_puts(&sb, "<li>");
            link(&sb, opts ? opts->link_prefix : NULL, opts, str(r, "id"), str(r, "id"));
            sb_puts(&sb, " — <code>");
            html_escape(&sb, str(r, "signature"));
            sb_puts(&sb, "</code></li>");
        }
        sb_puts(&sb, "</ul>");
    }
    return sb_finish(&sb);
}

static char *render_stats(const json_t *j, errata_format fmt)
{
    strbuf sb;
    sb_init(&sb);
    long long records = (long long)json_integer_value(json_object_get(j, "records"));
    long long domains = (long long)json_integer_value(json_object_get(j, "domains"));
    long long edges = (long long)json_integer_value(json_object_get(j, "edges"));
    const json_t *tiers = json_object_get(j, "by_tier");
    const char *k;
    json_t *v;
    if (fmt == ERRATA_FORMAT_MARKDOWN) {
        sb_printf(&sb, "%lld records in %lld domains, %lld graph edges.\n\nBy verification tier:\n\n",
                  records, domains, edges);
        json_object_foreach((json_t *)tiers, k, v)
            sb_printf(&sb, "- %s: %lld\n", k, (long long)json_integer_value(v));
        sb_printf(&sb, "\nIndex built %s from knowledge base %.12s.\n",
                  str(json_object_get(j, "index"), "built_at"),
                  str(json_object_get(j, "index"), "kb_hash"));
    } else {
        sb_printf(&sb, "<p>%lld records in %lld domains, %lld graph edges.</p><ul>", records,
                  domains, edges);
        json_object_foreach((json_t *)tiers, k, v)
        {
            sb_puts(&sb, "<li>");
            html_escape(&sb, k);
            sb_printf(&sb, ": %lld</li>", (long long)json_integer_value(v));
        }
        sb_puts(&sb, "</ul>");
    }
    return sb_finish(&sb);
}

static char *render_chain(const json_t *j, errata_format fmt, const errata_render_options *opts)
{
    strbuf sb;
    sb_init(&sb);
    const json_t *nodes = json_object_get(j, "nodes"), *edges = json_object_get(j, "edges");
    size_t i;
    json_t *x;
    if (fmt == ERRATA_FORMAT_MARKDOWN) {
        sb_printf(&sb, "Error chain around `%s` (depth %lld):\n\n", str(j, "root"),
                  (long long)json_integer_value(json_object_get(j, "depth")));
        json_array_foreach(edges, i, x)
        {
            sb_printf(&sb, "- `%s` %s `%s`", str(x, "from"), str(x, "kind"), str(x, "to"));
            if (json_is_number(json_object_get(x, "probability")))
                sb_printf(&sb, " (p=%.2f)", json_number_value(json_object_get(x, "probability")));
            if (*str(x, "condition"))
                sb_printf(&sb, " when %s", str(x, "condition"));
            sb_putc(&sb, '\n');
        }
        if (json_array_size(edges) == 0)
            sb_puts(&sb, "No linked records.\n");
    } else {
        sb_puts(&sb, "<ul class=\"chain\">");
        json_array_foreach(nodes, i, x)
        {
            sb_printf(&sb, "<li class=\"d%lld\">",
                      (long long)json_integer_value(json_object_get(x, "distance")));
            link(&sb, opts ? opts->link_prefix : NULL, opts, str(x, "id"), str(x, "id"));
            sb_puts(&sb, "</li>");
        }
        sb_puts(&sb, "</ul>");
    }
    return sb_finish(&sb);
}

/* ------------------------------------------------------------------ public */

typedef enum { Q_DOMAINS, Q_DOMAIN, Q_STATS, Q_CHAIN } query;

static errata_code run(errata_db *db, query q, const char *arg, int depth, errata_format fmt,
                       const errata_render_options *opts, char **out, errata_error *err)
{
    *out = NULL;
    if (!db)
        return set_error(err, ERRATA_ERR_ARG, "no database given");
    if (fmt != ERRATA_FORMAT_JSON && fmt != ERRATA_FORMAT_MARKDOWN && fmt != ERRATA_FORMAT_HTML)
        return set_error(err, ERRATA_ERR_ARG, "the catalog is written as JSON, Markdown or HTML");
    json_t *j = NULL;
    errata_code rc = q == Q_DOMAINS  ? domains_json(db, &j, err)
                     : q == Q_DOMAIN ? domain_json(db, arg ? arg : "", &j, err)
                     : q == Q_STATS  ? stats_json(db, &j, err)
                                     : chain_json(db, arg ? arg : "", depth, &j, err);
    if (rc != ERRATA_OK)
        return rc;
    if (fmt == ERRATA_FORMAT_JSON)
        *out = json_dumps(j, JSON_INDENT(2));
    else if (q == Q_DOMAINS)
        *out = render_domains(j, fmt, opts);
    else if (q == Q_DOMAIN)
        *out = render_domain(j, fmt, opts);
    else if (q == Q_STATS)
        *out = render_stats(j, fmt);
    else
        *out = render_chain(j, fmt, opts);
    json_decref(j);
    return *out ? ERRATA_OK : set_error(err, ERRATA_ERR_NOMEM, "out of memory");
}

errata_code errata_domains(errata_db *db, errata_format fmt, const errata_render_options *opts,
                           char **out, errata_error *err)
{
    return run(db, Q_DOMAINS, NULL, 0, fmt, opts, out, err);
}

errata_code errata_domain_records(errata_db *db, const char *domain, errata_format fmt,
                                  const errata_render_options *opts, char **out,
                                  errata_error *err)
{
    return run(db, Q_DOMAIN, domain, 0, fmt, opts, out, err);
}

errata_code errata_stats(errata_db *db, errata_format fmt, const errata_render_options *opts,
                         char **out, errata_error *err)
{
    return run(db, Q_STATS, NULL, 0, fmt, opts, out, err);
}

errata_code errata_chain(errata_db *db, const char *id, int depth, errata_format fmt,
                         const errata_render_options *opts, char **out, errata_error *err)
{
    return run(db, Q_CHAIN, id, depth, fmt, opts, out, err);
}
