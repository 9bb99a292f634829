/*
 * env.h — the user's environment: which package versions are installed and which OS runs, read
 * from the files package tools write (pip freeze and pip list output, requirements files,
 * poetry.lock, uv.lock, package-lock.json, yarn.lock, pnpm-lock.yaml, Cargo.lock, go.mod,
 * /etc/os-release) and from asking installed tools their version, so that Errata can tell
 * whether a record's versions apply to the person asking.
 *
 * Every package keeps where it was read ("path:line", "--env-set", "probe: node --version"), so
 * an answer can say why it believes a version is installed. Loading a file is all or nothing:
 * a malformed file adds no package and its error names the file and the line.
 */
#ifndef ERRATA_ENV_H
#define ERRATA_ENV_H

#include <stdbool.h>
#include <stddef.h>

#include "errata.h"
#include "version.h"

typedef enum { ECO_PYPI, ECO_NPM, ECO_CARGO, ECO_GO, ECO_OS, ECO_TOOL } env_ecosystem;

typedef struct {
    char *name;    /* as the file spells it */
    char *version; /* never NULL: a package whose version is unknown is not recorded */
    env_ecosystem eco;
    char *source; /* "path:line" where it was read, or "--env-set" / "probe: python3 --version" */
} env_package;

typedef struct {
    env_package *pkgs; /* in the order read; a later entry wins over an earlier one */
    size_t n, cap;
    char *os_id;         /* os-release ID ("debian"), or NULL */
    char *os_version_id; /* os-release VERSION_ID ("12"), or NULL */
    char *os_pretty;     /* os-release PRETTY_NAME, or NULL */
} environment;

/* Files larger than this are refused with ERRATA_ERR_TOO_BIG (the largest real lock files of
 * big monorepos are a few tens of megabytes smaller). */
#define ENV_MAX_FILE (32u * 1024 * 1024)

void env_init(environment *env);
void env_free(environment *env);

/* Reads one file, detecting its format from its name and content; appends its packages. */
errata_code env_load_file(environment *env, const char *path, errata_error *err);

/* Same from memory (name is the file name used for detection and messages). */
errata_code env_load_text(environment *env, const char *name, const char *text, size_t len,
                          errata_error *err);

/* "name=version" or "name==version" (--env-set). The name may carry an ecosystem prefix
 * ("pypi:requests==2.31.0"); without one the package takes the ecosystem of the package of that
 * name already known, or ECO_TOOL. */
errata_code env_set(environment *env, const char *assignment, errata_error *err);

/* Finds a package by name, normalising as its ecosystem does (PyPI: PEP 503, case-insensitive,
 * '-', '_' and '.' equal; npm: exact; others: case-insensitive). NULL when absent. A later entry
 * wins over an earlier one. An ecosystem prefix ("npm:debug", "pypi:Flask") restricts the search
 * to that ecosystem. */
const env_package *env_find(const environment *env, const char *name);

/* --env-auto: reads the lock and requirement files present in dir (non-recursive; dir may be
 * NULL), /etc/os-release, and asks python3, pip, node, npm, gcc, git, openssl, rustc, go and java
 * for their versions — each only if on PATH, all at once, without a shell, killed after 3 s.
 * Missing or failing tools are skipped. A malformed file does not stop the probe: everything
 * else is still read, and the first such error is returned at the end. */
errata_code env_probe(environment *env, const char *dir, errata_error *err);

/* "pypi", "npm", "cargo", "go", "os", "tool". */
const char *env_ecosystem_name(env_ecosystem eco);

/* ------------------------------------------------------------------------------------------
 * Shared by env*.c only: the parsers fill a batch, which env.c checks and then appends. */

typedef struct {
    char *name, *version;
    env_ecosystem eco;
    int line;   /* 1-based; 0 when the source has no lines */
    int rank;   /* within a file, a higher rank wins for a name (npm: top level over nested) */
    size_t seq; /* order of reading */
} env_entry;

typedef enum {
    ENV_PICK_LAST,   /* listings (pip freeze, requirements): the later line wins */
    ENV_PICK_HIGHEST /* lock files that name several versions without saying which one is
                        visible: the highest version wins */
} env_pick;

typedef struct {
    const char *file; /* name for messages and sources */
    bool no_line;     /* sources are the file alone (probe output) */
    env_pick pick;
    env_entry *v;
    size_t n, cap;
    char *os_id, *os_version_id, *os_pretty; /* set by os-release */
} env_batch;

errata_code env_batch_add(env_batch *b, const char *name, size_t name_len, const char *version,
                          size_t version_len, env_ecosystem eco, int line, int rank,
                          errata_error *err);

/* Sets err to "file:line: message" (ERRATA_ERR_ARG) and returns that code; line 0 omits it. */
errata_code env_syntax(errata_error *err, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
errata_code env_nomem(errata_error *err, const char *file);

/* The version scheme of an ecosystem's packages (version/version.h): PEP 440 for PyPI, SemVer
 * for npm, Cargo and Go modules, the generic dotted order for OS and tool versions. */
version_scheme env_version_scheme(env_ecosystem eco);
/* The text version.c compares for a package's version: Go writes "v1.6.0", SemVer "1.6.0". */
const char *env_comparable_version(env_ecosystem eco, const char *version);
/* Orders two versions of one package: its ecosystem's scheme, the generic order when that
 * scheme cannot read them, byte order when neither can — so the order is always total. */
int env_version_order(env_ecosystem eco, const char *a, const char *b);

/* Iterates over lines; a line (s, n) excludes the newline and a '\r' before it. */
typedef struct {
    const char *p, *end;
    int line;
} env_lines;
void env_lines_init(env_lines *it, const char *text, size_t len);
bool env_lines_next(env_lines *it, const char **s, size_t *n, int *line);

/* Trims spaces and tabs at both ends of [*s, *s + *n). */
void env_trim(const char **s, size_t *n);
char *env_strndup(const char *s, size_t n);
/* The name as env_find compares it (PEP 503 for PyPI, exact for npm, else lower case). */
char *env_normal_name(const char *name, size_t len, env_ecosystem eco);

/* Finds where JSON that jansson parsed was written, to give packages and errors a line: the
 * next occurrence from off of the string str (quoted, written without escapes) followed by the
 * characters of after (spaces allowed between; ":{" for a key whose value is an object). Moves
 * past it and returns its line; 0 (cursor unchanged) when absent. Searching forward in
 * document order keeps the whole walk linear. */
typedef struct {
    const char *text;
    size_t len, off;
    int line; /* of off; start at 1 */
} env_cursor;
int env_cursor_find(env_cursor *c, const char *str, const char *after);

/* The first needle in [s, s + n), or NULL. */
const char *env_memstr(const char *s, size_t n, const char *needle);
/* 1-based line of text + off. */
int env_line_at(const char *text, size_t off);

/* The parsers. text is NUL-terminated at len and contains no NUL before it. */
errata_code env_parse_requirements(env_batch *b, const char *text, size_t len, errata_error *err);
errata_code env_parse_pip_list(env_batch *b, const char *text, size_t len, errata_error *err);
errata_code env_parse_npm_lock(env_batch *b, const char *text, size_t len, errata_error *err);
errata_code env_parse_yarn_lock(env_batch *b, const char *text, size_t len, errata_error *err);
errata_code env_parse_pnpm_lock(env_batch *b, const char *text, size_t len, errata_error *err);
/* poetry.lock, uv.lock and Cargo.lock: [[package]] tables with name and version. */
errata_code env_parse_toml_lock(env_batch *b, const char *text, size_t len, env_ecosystem eco,
                                bool uv, errata_error *err);
errata_code env_parse_go_mod(env_batch *b, const char *text, size_t len, errata_error *err);
errata_code env_parse_os_release(env_batch *b, const char *text, size_t len, errata_error *err);

/* Whether a file of this name is a lock or requirements file that env_probe reads. */
bool env_known_file(const char *name);

/* Appends a checked batch to env (all of it or, out of memory, none of it). */
errata_code env_commit(environment *env, env_batch *b, errata_error *err);
void env_batch_free(env_batch *b);

/* The public handle (errata.h) is the environment itself; env_api.c holds its functions. */
struct errata_env {
    environment e;
};

#endif
