/*
 * helpers.c — see helpers.h.
 */

#include "helpers.h"

#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *src_root(void)
{
    const char *r = getenv("SOURCE_ROOT");
    return r ? r : ".";
}

const char *src_path(const char *rel)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", src_root(), rel);
    return buf;
}

char *make_temp_dir(void)
{
    char tmpl[] = "/tmp/errata-test-XXXXXX";
    char *d = mkdtemp(tmpl);
    assert_non_null(d);
    return strdup(d);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

void rm_tree(const char *dir) { nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

char *write_file(const char *dir, const char *rel, const char *text)
{
    size_t len = strlen(dir) + strlen(rel) + 2;
    char *path = malloc(len);
    assert_non_null(path);
    snprintf(path, len, "%s/%s", dir, rel);
    for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        mkdir(path, 0755);
        *p = '/';
    }
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
    return path;
}

char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
    buf[n] = '\0';
    fclose(fp);
    if (len)
        *len = (size_t)n;
    return buf;
}

char *seed_with(const char *key, const char *raw_value)
{
    json_error_t e;
    json_t *seed = json_load_file(src_path("kb/huggingface/torch-compile-incompatible-with-peft.json"), 0, &e);
    assert_non_null(seed);
    if (raw_value) {
        json_t *v = json_loads(raw_value, JSON_DECODE_ANY, &e);
        assert_non_null(v);
        json_object_set_new(seed, key, v);
    } else {
        json_object_del(seed, key);
    }
    char *s = json_dumps(seed, JSON_INDENT(2));
    json_decref(seed);
    return s;
}

char *test_record(const char *id, const char *regex, const char *how, double confidence,
                  const char *versions, const char *os)
{
    const char *slash = strchr(id, '/');
    char *s = NULL;
    int n = asprintf(
        &s,
        "{\"id\": \"%s\", \"signature\": \"sig of %s\", \"regex\": \"%s\", \"domain\": \"%.*s\","
        " \"category\": \"runtime_error\", \"root_cause\": \"cause of %s\","
        " \"dead_ends\": [{\"action\": \"reinstall {module}\", \"why_fails\": \"w\","
        " \"fail_rate\": 0.9, \"condition\": \"\", \"sources\": []}],"
        " \"workarounds\": [{\"action\": \"fix it\", \"success_rate\": 0.8, \"how\": \"%s\","
        " \"condition\": \"\", \"sources\": []}], \"versions\": %s, \"os_specific\": %s,"
        " \"verification_tier\": \"ai_generated\", \"confidence\": %.2f,"
        " \"fix_success_rate\": 0.5, \"resolvable\": \"yes\"}",
        id, id, regex, (int)(slash - id), id, id, how, versions, os, confidence);
    assert_true(n > 0);
    return s;
}

void add_record(const char *dir, const char *id, char *text)
{
    char rel[512];
    snprintf(rel, sizeof rel, "kb/%s.json", id);
    free(write_file(dir, rel, text));
    free(text);
}

kb_fixture *fixture_new(void)
{
    kb_fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->dir = make_temp_dir();
    return f;
}

void fixture_open(kb_fixture *f)
{
    char kb[4096];
    snprintf(kb, sizeof kb, "%s/kb", f->dir);
    f->db = build_and_open(kb, f->dir);
}

int fixture_teardown(void **state)
{
    kb_fixture *f = *state;
    errata_close(f->db);
    rm_tree(f->dir);
    free(f->dir);
    free(f);
    return 0;
}

errata_db *build_and_open(const char *kb_dir, const char *dir)
{
    char out[4096];
    snprintf(out, sizeof out, "%s/index.db", dir);
    errata_error err = {0};
    errata_build_report rep;
    errata_build_options bo = {1};
    errata_code rc = errata_build(&kb_dir, 1, out, &bo, &rep, NULL, &err);
    if (rc != ERRATA_OK)
        fail_msg("build failed: %s", err.message);
    errata_db *db = NULL;
    rc = errata_open(out, &db, &err);
    if (rc != ERRATA_OK)
        fail_msg("open failed: %s", err.message);
    return db;
}

const errata_diag *find_diag(const errata_diags *d, errata_severity sev, const char *field,
                             const char *needle)
{
    for (size_t i = 0; i < errata_diags_count(d); i++) {
        const errata_diag *x = errata_diags_get(d, i);
        if (x->severity == sev && (!field || strcmp(x->field, field) == 0) &&
            (!needle || strstr(x->message, needle)))
            return x;
    }
    return NULL;
}
