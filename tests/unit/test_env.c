/*
 * test_env.c — reading a user's environment: every listing and lock format from fixtures made
 * by the real tools where possible (tests/fixtures/env), name normalisation, which entry wins,
 * malformed files reported with their file and line, the size limit, --env-set, and --env-auto
 * on a directory while a tool hangs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "env.h"

/* ---------------------------------------------------------------- helpers */

static const char *fixture(const char *rel)
{
    static char buf[4096];
    const char *root = getenv("SOURCE_ROOT");
    snprintf(buf, sizeof buf, "%s/tests/fixtures/env/%s", root ? root : ".", rel);
    return buf;
}

static void load_ok(environment *env, const char *rel)
{
    errata_error err = {0};
    if (env_load_file(env, fixture(rel), &err) != ERRATA_OK)
        fail_msg("%s: %s", rel, err.message);
}

static const env_package *pkg(const environment *env, const char *name, const char *version)
{
    const env_package *p = env_find(env, name);
    if (!p)
        fail_msg("package %s not found", name);
    if (strcmp(p->version, version))
        fail_msg("package %s: version %s, expected %s", name, p->version, version);
    return p;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* Loads text named name, expecting failure with code and a message containing needle; a failed
 * load adds nothing. */
static void load_fails(const char *name, const char *text, errata_code code, const char *needle)
{
    environment env;
    env_init(&env);
    errata_error err = {0};
    errata_code rc = env_load_text(&env, name, text, strlen(text), &err);
    if (rc != code)
        fail_msg("%s: code %d, expected %d (%s)", name, rc, code, err.message);
    if (!strstr(err.message, needle))
        fail_msg("%s: message \"%s\" lacks \"%s\"", name, err.message, needle);
    assert_int_equal(env.n, 0);
    env_free(&env);
}

static char *make_temp_dir(void)
{
    char tmpl[] = "/tmp/errata-env-XXXXXX";
    char *d = mkdtemp(tmpl);
    assert_non_null(d);
    return strdup(d);
}

static void rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
            rm_tree(path);
        else
            unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static void write_text(const char *dir, const char *name, const char *text, mode_t mode)
{
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_true(n > 0 && (size_t)n < sizeof path);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
    chmod(path, mode);
}

static char *slurp(const char *path)
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
    return buf;
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* ---------------------------------------------------------------- Python */

static void pip_freeze_of_this_machine(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    load_ok(&env, "pip/pip-freeze.txt"); /* detected by content: name==version lines */
    assert_int_equal(env.n, 92);
    const env_package *p = pkg(&env, "flask", "3.1.3");
    assert_int_equal(p->eco, ECO_PYPI);
    assert_true(ends_with(p->source, "pip/pip-freeze.txt:24"));
    pkg(&env, "typing-extensions", "4.15.0");
    pkg(&env, "Pydantic.Core", "2.46.4");
    pkg(&env, "antlr4-python3-runtime", "4.13.2");
    env_free(&env);
}

static void pip_freeze_direct_references_and_editables(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    load_ok(&env, "pip/freeze-mixed.txt");
    pkg(&env, "alembic", "1.13.2");
    pkg(&env, "localpkg", "0.1.0"); /* from pip's "# Editable install … (localpkg==0.1.0)" */
    pkg(&env, "numpy", "1.26.4");   /* from the wheel's file name */
    pkg(&env, "requests", "2.32.3");
    assert_null(env_find(&env, "tool"));    /* -e git+…: no version written */
    assert_null(env_find(&env, "certifi")); /* a conda build tree: no version written */
    assert_int_equal(env.n, 4);
    env_free(&env);
}

static void pip_list_json_of_this_machine(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    load_ok(&env, "pip/pip-list.json");
    assert_int_equal(env.n, 94);
    const env_package *p = pkg(&env, "Flask", "3.1.3");
    assert_true(ends_with(p->source, "pip/pip-list.json:1"));
    pkg(&env, "typing_extensions", "4.15.0");
    assert_non_null(env_find(&env, "pip"));
    env_free(&env);
}

static void requirements_pins_only(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    load_ok(&env, "requirements/requirements.txt");
    const env_package *p = pkg(&env, "asgiref", "3.8.1"); /* continued with '\' and hashes */
    assert_true(ends_with(p->source, "requirements.txt:12"));
    pkg(&env, "Django", "4.2.14");
    pkg(&env, "sqlparse", "0.5.1");           /* === */
    pkg(&env, "torch", "2.3.1+cu121");        /* with a marker */
    pkg(&env, "requests", "2.31.0");          /* extras, spaces, marker */
    pkg(&env, "typing-extensions", "4.12.2"); /* with a trailing comment */
    pkg(&env, "zope-interface", "6.4.post2");
    pkg(&env, "mypkg", "1.4.0");           /* name @ wheel URL */
    pkg(&env, "legacy_sdist", "2.0.1");    /* name @ sdist URL */
    pkg(&env, "localpkg", "0.9.2");        /* a bare path to a wheel */
    assert_null(env_find(&env, "numpy"));  /* a range */
    assert_null(env_find(&env, "pillow")); /* no version */
    assert_null(env_find(&env, "black"));  /* a wildcard */
    assert_null(env_find(&env, "tool"));   /* -e */
    assert_null(env_find(&env, "other"));  /* a git URL */
    assert_int_equal(env.n, 10);
    env_free(&env);
}

static void requirements_errors_name_the_line(void **state)
{
    (void)state;
    load_fails("x/requirements.txt", "a==1\n# fine\n==1.0\n", ERRATA_ERR_ARG,
               "x/requirements.txt:3: expected a package name");
    load_fails("requirements.txt", "foo==\n", ERRATA_ERR_ARG,
               "requirements.txt:1: missing version");
    load_fails("requirements.txt", "a==1\nfoo bar\n", ERRATA_ERR_ARG, "requirements.txt:2:");
    load_fails("requirements.txt", "--bogus-option x\n", ERRATA_ERR_ARG,
               "requirements.txt:1: unknown option \"--bogus-option\"");
    load_fails("requirements.txt", "foo[bar==1.0\n", ERRATA_ERR_ARG, "requirements.txt:1: '['");
    load_fails("requirements.txt", "a==1 \\\n  --hash=sha256:00 \\\n  --frobnicate\n",
               ERRATA_ERR_ARG, "requirements.txt:1: unknown option \"--frobnicate\"");
    load_fails("requirements-dev.txt", "foo=>1.0\n", ERRATA_ERR_ARG, "requirements-dev.txt:1:");
}

static void requirements_crlf_and_bom(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    const char *text = "\xEF\xBB\xBF"
                       "alpha==1.0\r\nbeta==2.0 \\\r\n  --hash=sha256:ab\r\n";
    errata_error err = {0};
    assert_int_equal(env_load_text(&env, "requirements.txt", text, strlen(text), &err), ERRATA_OK);
    pkg(&env, "alpha", "1.0");
    pkg(&env, "beta", "2.0");
    env_free(&env);
}

/* ---------------------------------------------------------------- TOML locks */

static void poetry_lock(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    load_ok(&env, "poetry/poetry.lock");
    assert_int_equal(env.n, 7);
    const env_package *p = pkg(&env, "requests", "2.32.3");
    assert_int_equal(p->eco, ECO_PYPI);
    assert_true(ends_with(p->source, "poetry.lock:37"));
    pkg(&env, "Charset_Normalizer", "3.3.2");
    pkg(&env, "typing.extensions", "4.12.2");
    pkg(&env, "mylib", "0.3.1");          /* from git, with a [package.source] table */
    assert_null(env_find(&env, "socks")); /* an extra, not a package */
    env_free(&env);
}

static void uv_lock(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    load_ok(&env, "uv/uv.lock");
    pkg(&env, "anyio", "4.4.0");
    pkg(&env, "numpy", "2.1.0"); /* two versions by resolution markers: the highest */
    pkg(&env, "sniffio", "1.3.1");
    assert_null(env_find(&env, "myproject")); /* the project, its version dynamic */
    assert_int_equal(env.n, 4);
    env_free(&env);
}

static void cargo_locks(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    load_ok(&env, "cargo/real/Cargo.lock"); /* from cargo generate-lockfile, version = 4 */
    const env_package *p = pkg(&env, "envcargo", "0.1.0");
    assert_int_equal(p->eco, ECO_CARGO);
    assert_int_equal(env.n, 1);
    load_ok(&env, "cargo/deps/Cargo.lock");
    pkg(&env, "syn", "2.0.72"); /* syn 1 and syn 2: the highest */
    pkg(&env, "Serde", "1.0.204");
    pkg(&env, "unicode-ident", "1.0.12");
    assert_null(env_find(&env, "unicode_ident")); /* Cargo names are not PEP 503 */
    assert_int_equal(env.n, 1 + 8);
    env_free(&env);
}

static void toml_errors_name_the_line(void **state)
{
    (void)state;
    load_fails("poetry.lock", "[[package]\nname = \"a\"\nversion = \"1\"\n", ERRATA_ERR_ARG,
               "poetry.lock:1: table header without closing ']]'");
    load_fails("Cargo.lock", "version = 3\n\n[[package]]\nname = \"a\"\nversion = \"1\n",
               ERRATA_ERR_ARG, "Cargo.lock:5: string not closed");
    load_fails("poetry.lock",
               "[[package]]\nname = \"a\"\nversion = \"1\"\nfiles = [\n  {file = \"x\"},\n",
               ERRATA_ERR_ARG, "poetry.lock:4: array not closed");
    load_fails("Cargo.lock", "[[package]]\nname = \"a\"\nsource = \"x\"\n", ERRATA_ERR_ARG,
               "Cargo.lock:1: [[package]] \"a\" has no version");
    load_fails("uv.lock",
               "[[package]]\nname = \"a\"\nversion = \"1\"\nwheels = [ { url = \"x\" ]\n",
               ERRATA_ERR_ARG, "uv.lock:4:");
    load_fails("poetry.lock", "[[package]]\nname \"a\"\n", ERRATA_ERR_ARG,
               "poetry.lock:2: expected '='");
    load_fails("poetry.lock", "[[package]]\nname = \"a\" junk\n", ERRATA_ERR_ARG,
               "poetry.lock:2: unexpected text");
    load_fails("Cargo.lock", "[[package]]\nname = \"a\\q\"\n", ERRATA_ERR_ARG,
               "Cargo.lock:2: invalid escape");
    load_fails("Cargo.lock", "[[package]]\nversion = \"1\"\n", ERRATA_ERR_ARG,
               "Cargo.lock:1: [[package]] without a name");
    load_fails("Cargo.lock", "[[package]]\nname = 3\n", ERRATA_ERR_ARG, "Cargo.lock:2:");
}

static void toml_strings_and_values(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    const char *text = "# @generated by Cargo\n"
                       "version = 3\n"
                       "date = 1979-05-27 07:32:00Z\n"
                       "doc = \"\"\"\nmany \\\n   lines \"quoted\" \"\"\"\n"
                       "lit = '''raw\\n'''\n"
                       "nested = [[1, 2], [\"a\", { b = [3] }], ]\n"
                       "[[package]]\n"
                       "\"name\" = \"caf\\u00e9\"  # a comment\n"
                       "version = '1.0.0'\n"
                       "[package.metadata]\n"
                       "name = \"not-a-package\"\n";
    errata_error err = {0};
    if (env_load_text(&env, "Cargo.lock", text, strlen(text), &err) != ERRATA_OK)
        fail_msg("%s", err.message);
    assert_int_equal(env.n, 1);
    pkg(&env, "caf\xc3\xa9", "1.0.0");
    assert_true(ends_with(env.pkgs[0].source, "Cargo.lock:10"));
    env_free(&env);
}

/* ---------------------------------------------------------------- npm */

static void package_lock_v3_top_level_wins(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    load_ok(&env, "npm-v3/package-lock.json");
    /* debug 4.3.4 nests ms 2.1.2; the project's own ms 2.1.3 is at the top. */
    const env_package *p = pkg(&env, "ms", "2.1.3");
    assert_int_equal(p->eco, ECO_NPM);
    assert_true(ends_with(p->source, "npm-v3/package-lock.json:43"));
    pkg(&env, "debug", "4.3.4");
    pkg(&env, "left-pad", "1.3.0");
    assert_null(env_find(&env, "envnpm")); /* the project itself */
    assert_int_equal(env.n, 3);
    env_free(&env);
}

static void package_lock_v2_and_v1(void **state)
{
    (void)state;
    for (int v = 1; v <= 2; v++) {
        environment env;
        env_init(&env);
        load_ok(&env, v == 1 ? "npm-v1/package-lock.json" : "npm-v2/package-lock.json");
        const env_package *p = pkg(&env, "ms", "2.1.3"); /* over debug's nested ms 2.0.0 */
        assert_true(ends_with(p->source, v == 1 ? ":24" : ":35"));
        pkg(&env, "debug", "2.6.9");
        pkg(&env, "@types/ms", "0.7.34");
        assert_null(env_find(&env, "Debug")); /* npm names are exact */
        assert_int_equal(env.n, 3);
        env_free(&env);
    }
}

static void package_lock_errors(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    errata_error err = {0};
    assert_int_equal(env_load_file(&env, fixture("bad/truncated/package-lock.json"), &err),
                     ERRATA_ERR_ARG);
    assert_non_null(strstr(err.message, "truncated/package-lock.json:35: invalid JSON"));
    assert_int_equal(env.n, 0);
    env_free(&env);
    load_fails("package-lock.json",
               "{\n  \"name\": \"x\",\n  \"lockfileVersion\": 4,\n  \"packages\": {}\n}\n",
               ERRATA_ERR_ARG, "package-lock.json:3: lockfileVersion 4 is not supported");
    load_fails("package-lock.json", "{\"name\": \"x\"}", ERRATA_ERR_ARG,
               "no integer lockfileVersion");
    load_fails("package-lock.json", "[1, 2]", ERRATA_ERR_ARG,
               "package-lock.json:1: expected a JSON object");
    load_fails("package-lock.json",
               "{\n\"lockfileVersion\": 3,\n\"packages\": {\n\"\": {},\n\"node_modules/a\": "
               "{\"version\": \"1.0.0\"},\n"
               "\"node_modules/b\": {\"resolved\": \"x\"}\n}\n}\n",
               ERRATA_ERR_ARG, "package-lock.json:6: packages[\"node_modules/b\"] has no version");
}

static void package_lock_aliases_links_and_scopes(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    const char *text = "{\n\"name\": \"p\",\n\"lockfileVersion\": 3,\n\"packages\": {\n"
                       "\"\": {\"name\": \"p\", \"version\": \"1.0.0\"},\n"
                       "\"packages/lib\": {\"name\": \"lib\", \"version\": \"0.0.1\"},\n"
                       "\"node_modules/lib\": {\"resolved\": \"packages/lib\", \"link\": true},\n"
                       "\"node_modules/@babel/core\": {\"version\": \"7.24.0\"},\n"
                       "\"node_modules/a/node_modules/@babel/core\": {\"version\": \"7.0.0\"},\n"
                       "\"node_modules/my-ms\": {\"name\": \"ms\", \"version\": \"2.1.1\"}\n}}\n";
    errata_error err = {0};
    if (env_load_text(&env, "package-lock.json", text, strlen(text), &err) != ERRATA_OK)
        fail_msg("%s", err.message);
    const env_package *p = pkg(&env, "@babel/core", "7.24.0");
    assert_true(ends_with(p->source, "package-lock.json:8"));
    pkg(&env, "ms", "2.1.1");
    assert_null(env_find(&env, "lib"));
    assert_int_equal(env.n, 2);
    env_free(&env);
}

/* ---------------------------------------------------------------- yarn */

static void yarn_v1_and_berry(void **state)
{
    (void)state;
    for (int berry = 0; berry <= 1; berry++) {
        environment env;
        env_init(&env);
        load_ok(&env, berry ? "yarn-berry/yarn.lock" : "yarn-v1/yarn.lock");
        const env_package *p = pkg(&env, "ms", "2.1.3"); /* of 2.0.0 and 2.1.3, the highest */
        assert_true(ends_with(p->source, berry ? ":41" : ":22"));
        pkg(&env, "debug", "2.6.9");
        pkg(&env, "@types/ms", "0.7.34");
        assert_null(env_find(&env, "envyarn")); /* berry's workspace entry: the project */
        assert_null(env_find(&env, "__metadata"));
        assert_int_equal(env.n, 3);
        env_free(&env);
    }
}

static void yarn_headers_and_errors(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    const char *text = "# yarn lockfile v1\n\n\n"
                       "\"@babel/code-frame@^7.0.0\", \"@babel/code-frame@^7.10.4\":\n"
                       "  version \"7.24.7\"\n"
                       "  dependencies:\n"
                       "    version \"99\"\n\n"
                       "string-width-cjs@npm:string-width@^4.2.0, string-width@^4.1.0:\n"
                       "  version \"4.2.3\"\n"
                       "\"node-types@npm:@types/node@^20\":\n"
                       "  version: 20.14.9\n";
    errata_error err = {0};
    if (env_load_text(&env, "yarn.lock", text, strlen(text), &err) != ERRATA_OK)
        fail_msg("%s", err.message);
    pkg(&env, "@babel/code-frame", "7.24.7");
    pkg(&env, "string-width", "4.2.3"); /* the alias string-width-cjs is string-width */
    pkg(&env, "@types/node", "20.14.9");
    assert_null(env_find(&env, "string-width-cjs"));
    assert_null(env_find(&env, "node-types"));
    assert_int_equal(env.n, 3);
    env_free(&env);
    load_fails("yarn.lock", "# yarn lockfile v1\n\nfoo@^1.0.0\n  version \"1.0.0\"\n",
               ERRATA_ERR_ARG, "yarn.lock:3: expected an entry header");
    load_fails("yarn.lock", "foo@^1.0.0:\n  resolved \"x\"\n\nbar@1:\n  version \"1\"\n",
               ERRATA_ERR_ARG, "yarn.lock:1: entry \"foo\" has no version");
    load_fails("yarn.lock", "  version \"1\"\n", ERRATA_ERR_ARG, "yarn.lock:1: indented line");
    load_fails("yarn.lock", "nameless:\n  version \"1\"\n", ERRATA_ERR_ARG,
               "yarn.lock:1: \"nameless\" is not package@range");
}

/* ---------------------------------------------------------------- pnpm */

static void pnpm_v5_v6_v9(void **state)
{
    (void)state;
    const char *files[] = {"pnpm-v5/pnpm-lock.yaml", "pnpm-v6/pnpm-lock.yaml",
                           "pnpm-v9/pnpm-lock.yaml"};
    for (size_t i = 0; i < 3; i++) {
        environment env;
        env_init(&env);
        load_ok(&env, files[i]);
        /* ms 2.0.0 is debug's; the project's own dependency says 2.1.3 */
        const env_package *p = pkg(&env, "ms", "2.1.3");
        assert_int_equal(p->eco, ECO_NPM);
        pkg(&env, "debug", "2.6.9");
        pkg(&env, "@types/ms", "0.7.34");
        assert_int_equal(env.n, 3);
        env_free(&env);
    }
}

static void pnpm_workspaces_peers_and_aliases(void **state)
{
    (void)state;
    const char *files[] = {"pnpm-ws-v6/pnpm-lock.yaml", "pnpm-ws-v9/pnpm-lock.yaml"};
    for (size_t i = 0; i < 2; i++) {
        environment env;
        env_init(&env);
        load_ok(&env, files[i]);
        const env_package *p = pkg(&env, "ms", "2.1.3"); /* the root project's over packages/a's */
        assert_true(ends_with(p->source, ":14"));
        pkg(&env, "use-sync-external-store", "1.2.2"); /* without "(react@18.3.1)" */
        pkg(&env, "react", "18.3.1");
        pkg(&env, "bufferutil", "4.1.0");
        pkg(&env, "js-tokens", "4.0.0");      /* only in packages: */
        assert_null(env_find(&env, "my-ms")); /* an alias of ms */
        env_free(&env);
    }
}

static void pnpm_errors(void **state)
{
    (void)state;
    load_fails("pnpm-lock.yaml", "lockfileVersion: '4.0'\n", ERRATA_ERR_ARG,
               "pnpm-lock.yaml:1: lockfileVersion 4.0 is not supported");
    load_fails("pnpm-lock.yaml", "lockfileVersion: '9.0'\n\nimporters:\n  .:\n    dependencies\n",
               ERRATA_ERR_ARG, "pnpm-lock.yaml:5: expected \"key: value\"");
    load_fails("pnpm-lock.yaml", "lockfileVersion: '9.0'\ngarbage\n", ERRATA_ERR_ARG,
               "pnpm-lock.yaml:2:");
    load_fails("pnpm-lock.yaml", "packages:\n  a@1.0.0:\n", ERRATA_ERR_ARG,
               "pnpm-lock.yaml:1: no lockfileVersion");
    load_fails("pnpm-lock.yaml", "lockfileVersion: '9.0'\npackages:\n\t  a@1.0.0: {}\n",
               ERRATA_ERR_ARG, "pnpm-lock.yaml:3: a tab");
}

/* ---------------------------------------------------------------- Go, OS */

static void go_mod(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    load_ok(&env, "go/go.mod");
    const env_package *p = pkg(&env, "go", "1.22");
    assert_int_equal(p->eco, ECO_GO);
    assert_true(ends_with(p->source, "go.mod:3"));
    pkg(&env, "github.com/google/uuid", "v1.6.0");
    pkg(&env, "GitHub.com/Spf13/Cobra", "v1.8.1");
    pkg(&env, "golang.org/x/sync", "v0.7.0");
    pkg(&env, "github.com/spf13/pflag", "v1.0.5");
    pkg(&env, "gopkg.in/yaml.v3", "v3.0.1");
    assert_int_equal(env.n, 7);
    env_free(&env);
    load_fails("go.mod", "module x\n\nrequire (\n\tgithub.com/a/b v1.0.0\n", ERRATA_ERR_ARG,
               "go.mod:3: block not closed");
    load_fails("go.mod", "module x\nrequire (\n\tgithub.com/a/b\n)\n", ERRATA_ERR_ARG,
               "go.mod:3: expected \"module/path v1.2.3\"");
    load_fails("go.mod", "module x\nrequire github.com/a/b 1.0\n", ERRATA_ERR_ARG,
               "go.mod:2: \"1.0\" is not a module version");
    load_fails("go.mod", "module x\nfrobnicate y\n", ERRATA_ERR_ARG,
               "go.mod:2: unknown directive \"frobnicate\"");
}

static void os_release(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    load_ok(&env, "os/debian/os-release"); /* a copy of this machine's */
    assert_string_equal(env.os_id, "debian");
    assert_string_equal(env.os_version_id, "12");
    assert_string_equal(env.os_pretty, "Debian GNU/Linux 12 (bookworm)");
    const env_package *p = pkg(&env, "debian", "12");
    assert_int_equal(p->eco, ECO_OS);
    assert_true(ends_with(p->source, "os-release:3"));
    load_ok(&env, "os/ubuntu/os-release");
    assert_string_equal(env.os_id, "ubuntu");
    assert_string_equal(env.os_version_id, "22.04");
    assert_string_equal(env.os_pretty, "Ubuntu 22.04.4 LTS");
    pkg(&env, "Ubuntu", "22.04");
    assert_int_equal(env.n, 2);
    env_free(&env);
    load_fails("os-release", "ID=debian\nthis is not a pair\n", ERRATA_ERR_ARG,
               "os-release:2: expected KEY=value");
    load_fails("os-release", "ID=\"debian\nVERSION_ID=12\n", ERRATA_ERR_ARG,
               "os-release:1: quote not closed");
}

static void os_release_without_version(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    const char *text =
        "NAME=\"Arch Linux\"\nPRETTY_NAME='Arch \"Linux\"'\nID=arch\nBUILD_ID=rolling\n";
    errata_error err = {0};
    assert_int_equal(env_load_text(&env, "os-release", text, strlen(text), &err), ERRATA_OK);
    assert_string_equal(env.os_id, "arch");
    assert_null(env.os_version_id);
    assert_string_equal(env.os_pretty, "Arch \"Linux\"");
    assert_int_equal(env.n, 0); /* a rolling release has no version to compare */
    env_free(&env);
}

/* ---------------------------------------------------------------- detection, finding */

static void detection_by_content(void **state)
{
    (void)state;
    static const struct {
        const char *fixture, *as, *name, *version;
    } cases[] = {
        {"npm-v3/package-lock.json", "lock.json", "left-pad", "1.3.0"},
        {"pnpm-v9/pnpm-lock.yaml", "lock.yaml", "debug", "2.6.9"},
        {"yarn-v1/yarn.lock", "yarn-old.txt", "debug", "2.6.9"},
        {"yarn-berry/yarn.lock", "berry.txt", "debug", "2.6.9"},
        {"cargo/deps/Cargo.lock", "deps.toml", "anyhow", "1.0.86"},
        {"poetry/poetry.lock", "py.lock.txt", "idna", "3.7"},
        {"uv/uv.lock", "uv.toml", "sniffio", "1.3.1"},
        {"go/go.mod", "gomod.txt", "go", "1.22"},
        {"os/ubuntu/os-release", "release.txt", "ubuntu", "22.04"},
        {"pip/pip-list.json", "list.json", "flask", "3.1.3"},
        {"pip/freeze-mixed.txt", "freeze", "alembic", "1.13.2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *text = slurp(fixture(cases[i].fixture));
        environment env;
        env_init(&env);
        errata_error err = {0};
        if (env_load_text(&env, cases[i].as, text, strlen(text), &err) != ERRATA_OK)
            fail_msg("%s as %s: %s", cases[i].fixture, cases[i].as, err.message);
        pkg(&env, cases[i].name, cases[i].version);
        env_free(&env);
        free(text);
    }
}

static void detection_of_requirements_and_marks(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    errata_error err = {0};
    static const char *const texts[] = {
        "-r common.txt\nrequests==2.31.0\n",       /* an option first */
        "# deps\nDjango>=4.2\nrequests==2.31.0\n", /* a range first */
        "\xEF\xBB\xBFrequests[socks] == 2.31.0\n", /* a byte order mark */
    };
    for (size_t i = 0; i < 3; i++) {
        if (env_load_text(&env, "base.txt", texts[i], strlen(texts[i]), &err) != ERRATA_OK)
            fail_msg("case %zu: %s", i, err.message);
        pkg(&env, "requests", "2.31.0");
    }
    const char *pnpm = "\xEF\xBB\xBFlockfileVersion: '9.0'\n\npackages:\n\n  a@1.0.0:\n"
                       "    resolution: {integrity: sha512-x}\n";
    assert_int_equal(env_load_text(&env, "pnpm-lock.yaml", pnpm, strlen(pnpm), &err), ERRATA_OK);
    pkg(&env, "a", "1.0.0");
    const char *yarn = "\"@scope/a@^1.0.0\", \"@scope/a@^1.1.0\":\n  version \"1.2.0\"\n";
    assert_int_equal(env_load_text(&env, "lock.txt", yarn, strlen(yarn), &err), ERRATA_OK);
    pkg(&env, "@scope/a", "1.2.0");
    const char *gomod = "// generated\nmodule example.com/x\n\ngo 1.21.3\n";
    assert_int_equal(env_load_text(&env, "gomod", gomod, strlen(gomod), &err), ERRATA_OK);
    pkg(&env, "go", "1.21.3");
    env_free(&env);
}

static void unknown_format_is_an_error(void **state)
{
    (void)state;
    load_fails("notes.txt", "hello world\nthis is prose\n", ERRATA_ERR_ARG,
               "notes.txt: unknown format");
    load_fails("data.json", "{\"a\": 1}", ERRATA_ERR_ARG, "data.json: unknown format");
    load_fails("empty", "", ERRATA_ERR_ARG, "empty: unknown format");
    load_fails("Gemfile.lock", "GEM\n  remote: https://rubygems.org/\n", ERRATA_ERR_ARG,
               "Gemfile.lock: unknown format");
    const char nul[] = "a==1\nb==2\0c==3\n";
    environment env;
    env_init(&env);
    errata_error err = {0};
    assert_int_equal(env_load_text(&env, "requirements.txt", nul, sizeof nul - 1, &err),
                     ERRATA_ERR_ARG);
    assert_non_null(strstr(err.message, "requirements.txt:2: a NUL byte"));
    assert_int_equal(env_load_file(&env, fixture("no/such/requirements.txt"), &err), ERRATA_ERR_IO);
    assert_non_null(strstr(err.message, "no/such/requirements.txt"));
    env_free(&env);
}

static void name_normalisation(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    errata_error err = {0};
    const char *py = "Typing_Extensions==4.12.2\nzope.interface==6.4\n";
    assert_int_equal(env_load_text(&env, "requirements.txt", py, strlen(py), &err), ERRATA_OK);
    const char *js = "foo@^1.0.0:\n  version \"1.0.0\"\n\"@Scope/Bar@^2\":\n  version \"2.0.0\"\n";
    assert_int_equal(env_load_text(&env, "yarn.lock", js, strlen(js), &err), ERRATA_OK);
    pkg(&env, "typing-extensions", "4.12.2");
    pkg(&env, "TYPING.EXTENSIONS", "4.12.2");
    pkg(&env, "typing__extensions", "4.12.2");
    pkg(&env, "Zope-Interface", "6.4");
    assert_null(env_find(&env, "typingextensions"));
    pkg(&env, "foo", "1.0.0");
    assert_null(env_find(&env, "Foo"));
    pkg(&env, "@Scope/Bar", "2.0.0");
    assert_null(env_find(&env, "@scope/bar"));
    /* an ecosystem prefix restricts the search */
    pkg(&env, "pypi:typing-extensions", "4.12.2");
    assert_null(env_find(&env, "npm:typing-extensions"));
    pkg(&env, "npm:foo", "1.0.0");
    assert_null(env_find(&env, "pypi:foo"));
    assert_null(env_find(&env, NULL));
    env_free(&env);
}

static void later_entries_win(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    errata_error err = {0};
    const char *a = "requests==2.0.0\nflask==1.0\nRequests==2.1.0\n";
    assert_int_equal(env_load_text(&env, "a/requirements.txt", a, strlen(a), &err), ERRATA_OK);
    assert_int_equal(env.n, 2); /* one per name within a file: the later line */
    const env_package *p = pkg(&env, "requests", "2.1.0");
    assert_true(ends_with(p->source, "a/requirements.txt:3"));
    const char *b = "[{\"name\": \"requests\", \"version\": \"2.32.3\"}]";
    assert_int_equal(env_load_text(&env, "pip-list.json", b, strlen(b), &err), ERRATA_OK);
    pkg(&env, "requests", "2.32.3"); /* a later file over an earlier one */
    assert_int_equal(env_set(&env, "requests==3.0.0", &err), ERRATA_OK);
    p = pkg(&env, "requests", "3.0.0");
    assert_string_equal(p->source, "--env-set");
    assert_int_equal(p->eco, ECO_PYPI); /* took the known package's ecosystem */
    pkg(&env, "flask", "1.0");
    env_free(&env);
}

static void env_set_forms(void **state)
{
    (void)state;
    environment env;
    env_init(&env);
    errata_error err = {0};
    assert_int_equal(env_set(&env, "node=20.11.1", &err), ERRATA_OK);
    const env_package *p = pkg(&env, "Node", "20.11.1");
    assert_int_equal(p->eco, ECO_TOOL);
    assert_string_equal(p->source, "--env-set");
    assert_int_equal(env_set(&env, "torch==2.3.1+cu121", &err), ERRATA_OK);
    pkg(&env, "torch", "2.3.1+cu121");
    assert_int_equal(env_set(&env, " gcc = 12.2.0 ", &err), ERRATA_OK);
    pkg(&env, "gcc", "12.2.0");
    assert_int_equal(env_set(&env, "pypi:Typing_Extensions==4.0.0", &err), ERRATA_OK);
    p = pkg(&env, "typing-extensions", "4.0.0");
    assert_int_equal(p->eco, ECO_PYPI);
    assert_int_equal(env_set(&env, "npm:@types/node=20.1.0", &err), ERRATA_OK);
    assert_int_equal(pkg(&env, "@types/node", "20.1.0")->eco, ECO_NPM);
    size_t n = env.n;
    static const char *const bad[] = {
        "node", "=1.0", "node=", "node==", "my tool=1", "node=1 2", "", NULL};
    for (const char *const *b = bad; *b; b++) {
        err.message[0] = '\0';
        if (env_set(&env, *b, &err) != ERRATA_ERR_ARG)
            fail_msg("--env-set \"%s\" was accepted", *b);
        assert_non_null(strstr(err.message, "--env-set"));
    }
    assert_int_equal(env_set(&env, NULL, &err), ERRATA_ERR_ARG);
    assert_int_equal(env.n, n);
    env_free(&env);
}

/* ---------------------------------------------------------------- size, robustness */

static void fifty_megabytes(void **state)
{
    (void)state;
    char *dir = make_temp_dir();
    char path[4096];
    snprintf(path, sizeof path, "%s/requirements.txt", dir);
    size_t total = 50u * 1024 * 1024;
    char *big = malloc(total + 1);
    assert_non_null(big);
    for (size_t i = 0; i < total;) {
        int n = snprintf(big + i, total + 1 - i, "package-%zu==1.0.%zu\n", i, i % 97);
        i += (size_t)n;
    }
    big[total] = '\0';
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(big, 1, total, fp), total);
    fclose(fp);
    environment env;
    env_init(&env);
    errata_error err = {0};
    assert_int_equal(env_load_file(&env, path, &err), ERRATA_ERR_TOO_BIG);
    assert_non_null(strstr(err.message, "requirements.txt"));
    assert_int_equal(env_load_text(&env, "requirements.txt", big, total, &err), ERRATA_ERR_TOO_BIG);
    assert_int_equal(env.n, 0);
    /* Under the limit, a big listing is read whole. */
    size_t cut = 4u * 1024 * 1024;
    while (big[cut - 1] != '\n')
        cut--;
    assert_int_equal(env_load_text(&env, "requirements.txt", big, cut, &err), ERRATA_OK);
    assert_true(env.n > 100000);
    pkg(&env, "package-0", "1.0.0");
    env_free(&env);
    free(big);
    rm_tree(dir);
    free(dir);
}

/* Every fixture cut at many places either loads or fails with a message: never a crash. */
static void truncated_fixtures_never_crash(void **state)
{
    (void)state;
    static const char *const files[] = {"npm-v1/package-lock.json", "npm-v3/package-lock.json",
                                        "yarn-v1/yarn.lock",        "yarn-berry/yarn.lock",
                                        "pnpm-v5/pnpm-lock.yaml",   "pnpm-ws-v9/pnpm-lock.yaml",
                                        "poetry/poetry.lock",       "uv/uv.lock",
                                        "cargo/deps/Cargo.lock",    "go/go.mod",
                                        "os/debian/os-release",     "requirements/requirements.txt",
                                        "pip/pip-list.json",        "pip/freeze-mixed.txt"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        char *text = slurp(fixture(files[f]));
        size_t len = strlen(text);
        const char *name = strrchr(files[f], '/') + 1;
        for (size_t k = 0; k <= 61; k++) {
            size_t cut = len * k / 61;
            environment env;
            env_init(&env);
            errata_error err = {0};
            errata_code rc = env_load_text(&env, name, text, cut, &err);
            if (rc != ERRATA_OK)
                assert_true(err.message[0] != '\0');
            env_free(&env);
        }
        free(text);
    }
}

/* ---------------------------------------------------------------- --env-auto */

static void probe_reads_the_directory_while_a_tool_hangs(void **state)
{
    (void)state;
    char *dir = make_temp_dir();
    char bin[4096];
    snprintf(bin, sizeof bin, "%s/bin", dir);
    assert_int_equal(mkdir(bin, 0755), 0);
    char *lock = slurp(fixture("npm-v3/package-lock.json"));
    write_text(dir, "package-lock.json", lock, 0644);
    free(lock);
    write_text(dir, "go.mod", "module x\n\ngo 1.21\n", 0644);
    write_text(dir, "notes.txt", "not read: not a lock file name\n", 0644);
    /* Tools earlier on PATH than the real ones: one hangs, one fails, one talks nonsense. */
    write_text(bin, "node", "#!/bin/sh\nsleep 30\n", 0755);
    write_text(bin, "gcc", "#!/bin/sh\necho 'gcc (Fake) 99.1.0'\nexit 1\n", 0755);
    write_text(bin, "git", "#!/bin/sh\necho 'no version here'\n", 0755);
    write_text(bin, "rustc", "#!/bin/sh\necho 'rustc 1.80.0 (051478957 2024-07-21)'\n", 0755);
    write_text(bin, "java",
               "#!/bin/sh\necho 'Picked up JAVA_TOOL_OPTIONS: -Xmx1g' >&2\n"
               "echo 'openjdk version \"17.0.12\" 2024-07-16' >&2\n",
               0755);
    const char *old = getenv("PATH");
    char *saved = strdup(old ? old : "/usr/bin:/bin");
    size_t n = strlen(bin) + strlen(saved) + 2;
    char *path = malloc(n);
    snprintf(path, n, "%s:%s", bin, saved);
    setenv("PATH", path, 1);

    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    environment env;
    env_init(&env);
    errata_error err = {0};
    errata_code rc = env_probe(&env, dir, &err);
    double took = seconds_since(&t0);
    setenv("PATH", saved, 1);
    if (rc != ERRATA_OK)
        fail_msg("%s", err.message);
    assert_true(took < 7.0); /* well within 10 s: every tool runs at once */
    assert_true(took > 2.5); /* the hanging node was given its 3 s */

    const env_package *p = pkg(&env, "debug", "4.3.4");
    assert_true(ends_with(p->source, "/package-lock.json:17"));
    pkg(&env, "ms", "2.1.3");
    pkg(&env, "go:go", "1.21");               /* go.mod's "go" directive */
    assert_null(env_find(&env, "tool:node")); /* killed */
    assert_null(env_find(&env, "tool:gcc"));  /* exited 1 */
    assert_null(env_find(&env, "tool:git"));  /* no version in its output */
    p = pkg(&env, "rustc", "1.80.0");
    assert_string_equal(p->source, "probe: rustc --version");
    pkg(&env, "java", "17.0.12");
    if (access("/etc/os-release", R_OK) == 0)
        assert_non_null(env.os_id);
    env_free(&env);
    rm_tree(dir);
    free(dir);
    free(path);
    free(saved);
}

static void probe_reports_a_bad_file_and_reads_the_rest(void **state)
{
    (void)state;
    char *dir = make_temp_dir();
    write_text(dir, "yarn.lock", "foo@^1:\n  version \"1.0.0\"\nbroken line\n", 0644);
    write_text(dir, "requirements.txt", "errata-fixture-only==3.0.0\nerrata-other==1.0\n", 0644);
    /* a lock file is read after the requirements, whatever their names */
    write_text(dir, "a-poetry-like.lock", "not read: not a name env_probe knows\n", 0644);
    write_text(dir, "poetry.lock",
               "[[package]]\nname = \"errata-fixture-only\"\nversion = \"3.1.0\"\n", 0644);
    environment env;
    env_init(&env);
    errata_error err = {0};
    assert_int_equal(env_probe(&env, dir, &err), ERRATA_ERR_ARG);
    assert_non_null(strstr(err.message, "yarn.lock:3: expected an entry header"));
    pkg(&env, "errata-fixture-only", "3.1.0");
    pkg(&env, "errata-other", "1.0");
    assert_null(env_find(&env, "foo"));
    env_free(&env);
    env_init(&env);
    char missing[4096];
    snprintf(missing, sizeof missing, "%s/none", dir);
    assert_int_equal(env_probe(&env, missing, &err), ERRATA_ERR_IO);
    assert_non_null(strstr(err.message, missing));
    env_free(&env);
    rm_tree(dir);
    free(dir);
}

static void versions_compare(void **state)
{
    (void)state;
    /* Each ecosystem's own order (version/version.c), so a lock file's newest entry is the one
     * its package manager would call newest. */
    assert_true(env_version_order(ECO_PYPI, "1.0", "1.0.1") < 0);
    assert_true(env_version_order(ECO_PYPI, "1.0rc1", "1.0") < 0);
    assert_true(env_version_order(ECO_NPM, "1.0.0-beta.2", "1.0.0") < 0);
    assert_true(env_version_order(ECO_PYPI, "1.0.post1", "1.0") > 0);
    assert_true(env_version_order(ECO_NPM, "2.0.72", "1.0.109") > 0);
    assert_true(env_version_order(ECO_TOOL, "10.0", "9.9") > 0);
    assert_true(env_version_order(ECO_PYPI, "1.01", "1.1") == 0);
    assert_true(env_version_order(ECO_GO, "v1.2.3", "v1.2.3") == 0);
    assert_true(env_version_order(ECO_GO, "v1.10.0", "v1.9.0") > 0);
    assert_true(env_version_order(ECO_PYPI, "1.0.0a1", "1.0.0b1") < 0);
    assert_true(env_version_order(ECO_TOOL, "99999999999999999999.1", "99999999999999999998.9") > 0);
    /* Neither scheme reads them: byte order, never "equal" for different texts. */
    assert_true(env_version_order(ECO_NPM, "not a version", "also not") != 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pip_freeze_of_this_machine),
        cmocka_unit_test(pip_freeze_direct_references_and_editables),
        cmocka_unit_test(pip_list_json_of_this_machine),
        cmocka_unit_test(requirements_pins_only),
        cmocka_unit_test(requirements_errors_name_the_line),
        cmocka_unit_test(requirements_crlf_and_bom),
        cmocka_unit_test(poetry_lock),
        cmocka_unit_test(uv_lock),
        cmocka_unit_test(cargo_locks),
        cmocka_unit_test(toml_errors_name_the_line),
        cmocka_unit_test(toml_strings_and_values),
        cmocka_unit_test(package_lock_v3_top_level_wins),
        cmocka_unit_test(package_lock_v2_and_v1),
        cmocka_unit_test(package_lock_errors),
        cmocka_unit_test(package_lock_aliases_links_and_scopes),
        cmocka_unit_test(yarn_v1_and_berry),
        cmocka_unit_test(yarn_headers_and_errors),
        cmocka_unit_test(pnpm_v5_v6_v9),
        cmocka_unit_test(pnpm_workspaces_peers_and_aliases),
        cmocka_unit_test(pnpm_errors),
        cmocka_unit_test(go_mod),
        cmocka_unit_test(os_release),
        cmocka_unit_test(os_release_without_version),
        cmocka_unit_test(detection_by_content),
        cmocka_unit_test(detection_of_requirements_and_marks),
        cmocka_unit_test(unknown_format_is_an_error),
        cmocka_unit_test(name_normalisation),
        cmocka_unit_test(later_entries_win),
        cmocka_unit_test(env_set_forms),
        cmocka_unit_test(fifty_megabytes),
        cmocka_unit_test(truncated_fixtures_never_crash),
        cmocka_unit_test(probe_reads_the_directory_while_a_tool_hangs),
        cmocka_unit_test(probe_reports_a_bad_file_and_reads_the_rest),
        cmocka_unit_test(versions_compare),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
