/*
 * validate.c — meaning checks over records; see validate.h and docs/format.md for the list of
 * errors and warnings.
 */
#include "validate.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "pattern.h"

static bool is_slug(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
            return false;
    }
    return true;
}

static void check_id(const record *r, const char *file, errata_diags *d)
{
    const char *slash = strchr(r->id, '/');
    if (!slash || !is_slug(r->id, (size_t)(slash - r->id)) ||
        !is_slug(slash + 1, strlen(slash + 1)))
        diags_add(d, ERRATA_SEV_ERROR, file, 0, 0, "id",
                  "'%s' is not of the form domain/slug (lowercase letters, digits and '-')",
                  r->id);
    if (!is_slug(r->domain, strlen(r->domain)))
        diags_add(d, ERRATA_SEV_ERROR, file, 0, 0, "domain",
                  "'%s' must be lowercase letters, digits and '-'", r->domain);
    else if (slash && (strlen(r->domain) != (size_t)(slash - r->id) ||
                       strncmp(r->id, r->domain, strlen(r->domain)) != 0))
        diags_add(d, ERRATA_SEV_ERROR, file, 0, 0, "id",
                  "the id's domain part does not equal domain '%s'", r->domain);
    const char *loc = r->locale ? r->locale : "en";
    size_t ll = strlen(loc);
    bool loc_ok = (ll == 2 || (ll == 5 && loc[2] == '-')) && loc[0] >= 'a' && loc[0] <= 'z' &&
                  loc[1] >= 'a' && loc[1] <= 'z' &&
                  (ll == 2 || (loc[3] >= 'A' && loc[3] <= 'Z' && loc[4] >= 'A' && loc[4] <= 'Z'));
    if (!loc_ok)
        diags_add(d, ERRATA_SEV_ERROR, file, 0, 0, "locale",
                  "'%s' is not a language tag of the form xx or xx-YY", loc);
}

static void check_examples(const record *r, const pcre2_code *re, const char *file,
                           errata_diags *d)
{
    if (!r->has_examples) {
        diags_add(d, ERRATA_SEV_WARNING, file, 0, 0, "examples",
                  "the record has no examples: nothing proves its regex on real output");
        return;
    }
    char path[64];
    for (size_t i = 0; i < r->examples_match.n; i++) {
        const char *t = r->examples_match.v[i];
        int rc = pattern_search(re, t, strlen(t), NULL, NULL);
        snprintf(path, sizeof path, "examples.match[%zu]", i);
        if (rc == 0)
            diags_add(d, ERRATA_SEV_ERROR, file, 0, 0, path, "the regex does not match this example");
        else if (rc < 0)
            diags_add(d, ERRATA_SEV_ERROR, file, 0, 0, path,
                      "the regex failed on this example (PCRE2 error %d)", rc);
    }
    for (size_t i = 0; i < r->examples_no_match.n; i++) {
        const char *t = r->examples_no_match.v[i];
        snprintf(path, sizeof path, "examples.no_match[%zu]", i);
        if (pattern_search(re, t, strlen(t), NULL, NULL) != 0)
            diags_add(d, ERRATA_SEV_ERROR, file, 0, 0, path,
                      "the regex matches this near-miss, which it must not");
    }
}

/* The signature with its placeholders written as sample values (N → 1, X → x, …), so that a
 * regex that requires a number or a name where the signature says N or X still matches it. */
static char *sample_signature(const char *sig)
{
    static const struct {
        const char *word, *sample;
    } samples[] = {{"N", "1"}, {"M", "2"}, {"X", "x"}, {"Y", "y"}, {"Z", "z"},
                   {"HOST", "localhost"}, {"PORT", "8080"}, {"PATH", "/tmp/x"}, {"FILE", "x.txt"}};
    size_t len = strlen(sig);
    char *out = malloc(len * 10 + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        bool replaced = false;
        bool start = i == 0 || !(isalnum((unsigned char)sig[i - 1]) || sig[i - 1] == '_');
        for (size_t k = 0; start && k < sizeof samples / sizeof *samples; k++) {
            size_t wl = strlen(samples[k].word);
            if (i + wl > len || strncmp(sig + i, samples[k].word, wl) != 0)
                continue;
            char after = sig[i + wl]; /* the NUL at the end at most */
            if (!(isalnum((unsigned char)after) || after == '_')) {
                size_t sl = strlen(samples[k].sample);
                memcpy(out + o, samples[k].sample, sl);
                o += sl;
                i += wl;
                replaced = true;
                break;
            }
        }
        if (!replaced)
            out[o++] = sig[i++];
    }
    out[o] = '\0';
    return out;
}

static bool matches_signature(const pcre2_code *re, const char *sig)
{
    if (pattern_search(re, sig, strlen(sig), NULL, NULL) == 1)
        return true;
    char *sample = sample_signature(sig);
    bool ok = sample && pattern_search(re, sample, strlen(sample), NULL, NULL) == 1;
    free(sample);
    return ok;
}

static void check_regex(const record *r, const char *file, errata_diags *d)
{
    char why[300];
    pcre2_code *re = pattern_compile(r->regex, why, sizeof why);
    if (!re) {
        diags_add(d, ERRATA_SEV_ERROR, file, 0, 0, "regex", "does not compile: %s", why);
        return;
    }
    if (!pattern_is_specific(r->regex, why, sizeof why))
        diags_add(d, ERRATA_SEV_ERROR, file, 0, 0, "regex", "%s", why);
    if (!pattern_is_cheap_to_compile(r->regex, why, sizeof why))
        diags_add(d, ERRATA_SEV_ERROR, file, 0, 0, "regex", "%s", why);
    if (!matches_signature(re, r->signature))
        diags_add(d, ERRATA_SEV_WARNING, file, 0, 0, "regex",
                  "does not match the record's own signature (even with N, X, … as sample "
                  "values)");
    check_examples(r, re, file, d);
    pcre2_code_free(re);
}

/* The English texts a translation of item i may not simply copy. */
typedef bool (*copies_english)(const record *r, size_t i, const char *zh);

static bool workaround_text(const record *r, size_t i, const char *zh)
{
    return strcmp(zh, r->workarounds[i].action) == 0 || strcmp(zh, r->workarounds[i].how) == 0;
}

static bool dead_end_text(const record *r, size_t i, const char *zh)
{
    return (r->dead_ends[i].action[0] && strcmp(zh, r->dead_ends[i].action) == 0) ||
           strcmp(zh, r->dead_ends[i].why_fails) == 0;
}

/* workarounds_zh and dead_ends_zh: one Chinese string per item, in the items' order. */
static void check_zh_list(const strvec *zh, const char *items, size_t n_items,
                          copies_english copies, const record *r, const char *file,
                          errata_diags *d)
{
    char path[48];
    snprintf(path, sizeof path, "%s_zh", items);
    if (zh->n && zh->n != n_items)
        diags_add(d, ERRATA_SEV_WARNING, file, 0, 0, path, "has %zu entries for %zu %s", zh->n,
                  n_items, items);
    for (size_t i = 0; i < zh->n && i < n_items; i++) {
        if (copies(r, i, zh->v[i])) {
            snprintf(path, sizeof path, "%s_zh[%zu]", items, i);
            diags_add(d, ERRATA_SEV_WARNING, file, 0, 0, path,
                      "identical to %s[%zu]: not translated", items, i);
        }
    }
}

static void check_translations(const record *r, const char *file, errata_diags *d)
{
    if (r->signature_zh && strcmp(r->signature_zh, r->signature) == 0)
        diags_add(d, ERRATA_SEV_WARNING, file, 0, 0, "signature_zh",
                  "identical to signature: not translated");
    if (r->root_cause_zh && strcmp(r->root_cause_zh, r->root_cause) == 0)
        diags_add(d, ERRATA_SEV_WARNING, file, 0, 0, "root_cause_zh",
                  "identical to root_cause: not translated");
    check_zh_list(&r->workarounds_zh, "workarounds", r->n_workarounds, workaround_text, r, file,
                  d);
    check_zh_list(&r->dead_ends_zh, "dead_ends", r->n_dead_ends, dead_end_text, r, file, d);
}

static bool is_http_url(const char *s)
{
    return strncmp(s, "https://", 8) == 0 || strncmp(s, "http://", 7) == 0;
}

/* Every URL a surface renders as a link must be http(s): anything else (javascript:, data:) in
 * a contributed record would run in the reader's browser. A record must also cite at least one
 * source a reader can check, beside or beyond its documentation page. */
static void check_url_list(const strvec *urls, const char *items, size_t i, const char *file,
                           errata_diags *d, size_t *cited)
{
    for (size_t k = 0; k < urls->n; k++) {
        if (is_http_url(urls->v[k])) {
            (*cited)++;
            continue;
        }
        char path[64];
        snprintf(path, sizeof path, "%s[%zu].sources[%zu]", items, i, k);
        diags_add(d, ERRATA_SEV_ERROR, file, 0, 0, path, "'%s' is not an http(s) URL",
                  urls->v[k]);
    }
}

static void check_sources(const record *r, const char *file, errata_diags *d)
{
    if (r->official_doc_url && !is_http_url(r->official_doc_url))
        diags_add(d, ERRATA_SEV_ERROR, file, 0, 0, "official_doc_url",
                  "'%s' is not an http(s) URL", r->official_doc_url);
    size_t cited = 0;
    for (size_t i = 0; i < r->n_dead_ends; i++)
        check_url_list(&r->dead_ends[i].sources, "dead_ends", i, file, d, &cited);
    for (size_t i = 0; i < r->n_workarounds; i++)
        check_url_list(&r->workarounds[i].sources, "workarounds", i, file, d, &cited);
    if (cited == 0)
        diags_add(d, ERRATA_SEV_WARNING, file, 0, 0, "sources",
                  "no dead end or workaround cites a source: add a URL where a reader can check "
                  "the claim (documentation, the tool's source, the bug thread)");
}

void validate_record(const record *r, const char *file, errata_diags *d)
{
    check_id(r, file, d);
    check_regex(r, file, d);
    check_translations(r, file, d);
    for (size_t i = 0; i < r->n_dead_ends; i++) {
        if (r->dead_ends[i].action[0] == '\0') {
            char path[48];
            snprintf(path, sizeof path, "dead_ends[%zu].action", i);
            diags_add(d, ERRATA_SEV_WARNING, file, 0, 0, path,
                      "empty: the reader is told why something fails but not what");
        }
    }
    check_sources(r, file, d);
}

/* ------------------------------------------------------------------ across records */

typedef struct {
    const char *id;
    size_t entry;
} id_ref;

static int cmp_ref(const void *a, const void *b)
{
    const id_ref *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    return c ? c : (x->entry > y->entry) - (x->entry < y->entry);
}

static bool known_id(const id_ref *refs, size_t n, const char *id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(refs[mid].id, id);
        if (c == 0)
            return true;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* Validating one domain's folder (kb/git) sees only its records, but a link to another domain's
 * record is fine when that record's file is in the same knowledge base: the file of a record
 * with id D/S is <kb>/D/S.json, so <kb> is found from the referring record's own path. */
static bool record_file_beside(const char *file, const char *own_id, const char *id)
{
    size_t plen = strlen(file), ilen = strlen(own_id);
    if (plen < ilen + 5 || strcmp(file + plen - 5, ".json") != 0 ||
        strncmp(file + plen - 5 - ilen, own_id, ilen) != 0 || strstr(id, ".."))
        return false;
    size_t root = plen - 5 - ilen; /* the length of "<kb>/" */
    char path[4096];
    if (snprintf(path, sizeof path, "%.*s%s.json", (int)root, file, id) >= (int)sizeof path)
        return false;
    return access(path, F_OK) == 0;
}

void validate_set(const kb_set *set, errata_diags *d)
{
    id_ref *refs = calloc(set->n ? set->n : 1, sizeof *refs);
    if (!refs) {
        d->nomem = true;
        return;
    }
    size_t n = 0;
    for (size_t i = 0; i < set->n; i++)
        if (set->items[i].rec)
            refs[n++] = (id_ref){set->items[i].rec->id, i};
    qsort(refs, n, sizeof *refs, cmp_ref);
    for (size_t i = 1; i < n; i++)
        if (strcmp(refs[i].id, refs[i - 1].id) == 0)
            diags_add(d, ERRATA_SEV_ERROR, set->items[refs[i].entry].path, 0, 0, "id",
                      "duplicate id '%s', also in %s", refs[i].id,
                      set->items[refs[i - 1].entry].path);

    for (size_t i = 0; i < set->n; i++) {
        const record *r = set->items[i].rec;
        const char *file = set->items[i].path;
        if (!r)
            continue;
        size_t plen = strlen(file), ilen = strlen(r->id);
        if (plen < ilen + 5 || strcmp(file + plen - 5, ".json") != 0 ||
            strncmp(file + plen - 5 - ilen, r->id, ilen) != 0 ||
            (plen > ilen + 5 && file[plen - 6 - ilen] != '/'))
            diags_add(d, ERRATA_SEV_WARNING, file, 0, 0, "id",
                      "the file should be named <kb>/%s.json", r->id);
        for (int k = 0; k < EDGE_KINDS; k++)
            for (size_t e = 0; e < r->n_edges[k]; e++)
                if (!known_id(refs, n, r->edges[k][e].id) &&
                    !record_file_beside(file, r->id, r->edges[k][e].id)) {
                    char path[96];
                    snprintf(path, sizeof path, "transition_graph.%s[%zu]", edge_kind_names[k], e);
                    diags_add(d, ERRATA_SEV_WARNING, file, 0, 0, path,
                              "'%s' names no record in the knowledge base", r->edges[k][e].id);
                }
    }
    free(refs);
}

void validate_all(const kb_set *set, errata_diags *d)
{
    for (size_t i = 0; i < set->n; i++)
        if (set->items[i].rec)
            validate_record(set->items[i].rec, set->items[i].path, d);
    validate_set(set, d);
}

errata_code errata_validate_paths(const char *const *paths, size_t n_paths, errata_diags **out,
                                  errata_error *err)
{
    errata_diags *d = diags_new();
    if (!d)
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory");
    kb_set set;
    errata_code rc = kb_load(paths, n_paths, &set, d, err);
    if (rc != ERRATA_OK) {
        errata_diags_free(d);
        return rc;
    }
    validate_all(&set, d);
    kb_free(&set);
    if (d->nomem) {
        errata_diags_free(d);
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory while recording the findings");
    }
    *out = d;
    return ERRATA_OK;
}
