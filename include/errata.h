/*
 * errata.h — the public C API of liberrata.
 *
 * Errata is a structured failure knowledge base. This header is the only one a user of the
 * library includes: it opens a compiled index, looks up error text, renders answers, validates
 * knowledge-base records and builds an index from them. The errata command, the HTTP API and the
 * MCP server are written against exactly this API.
 *
 * Conventions:
 * - Every function that can fail returns an errata_code and, when given a non-NULL
 *   errata_error, fills it with a message that names the place (file, line, field).
 * - Objects returned through an out-pointer are owned by the caller and freed with the matching
 *   *_free function. Pointers returned by accessors are owned by their parent object and stay
 *   valid until that object is freed. A result (and any record it refers to) must not outlive
 *   the errata_db it came from.
 * - An errata_db may be shared by many threads at once for lookups and record reads.
 * - Strings are UTF-8 and NUL-terminated unless a length is given.
 */
#ifndef ERRATA_H
#define ERRATA_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ERRATA_VERSION "0.1.0"

/* Marks the functions liberrata exports. The library is built with hidden visibility, so
 * everything else in it (strbuf, record internals, …) stays internal to it. */
#if defined(ERRATA_BUILDING_LIBRARY) && defined(__GNUC__)
#define ERRATA_API __attribute__((visibility("default")))
#else
#define ERRATA_API
#endif

/* The format of the index file this library reads and writes. A file of another format is
 * reported as stale and must be rebuilt with errata_build(). */
#define ERRATA_INDEX_FORMAT 4

typedef enum {
    ERRATA_OK = 0,
    ERRATA_ERR_NOMEM,     /* out of memory */
    ERRATA_ERR_IO,        /* a file could not be read or written */
    ERRATA_ERR_ARG,       /* a bad argument, an empty or invalid input */
    ERRATA_ERR_TOO_BIG,   /* input over the size limit */
    ERRATA_ERR_NOT_INDEX, /* the file is not an Errata index */
    ERRATA_ERR_STALE,     /* an index of another format version */
    ERRATA_ERR_CORRUPT,   /* an index that cannot be read */
    ERRATA_ERR_NOT_FOUND, /* an unknown record id */
    ERRATA_ERR_INVALID,   /* the knowledge base has invalid records */
    ERRATA_ERR_REGEX,     /* a pattern failed to compile or to run */
    ERRATA_ERR_INTERNAL   /* a library dependency failed unexpectedly */
} errata_code;

typedef struct {
    errata_code code;
    char message[1024];
} errata_error;

/* A static, human-readable name for a code ("not an index", …). */
ERRATA_API const char *errata_code_name(errata_code code);

/* The library's version string. */
ERRATA_API const char *errata_version(void);

/* ---------------------------------------------------------------- index */

typedef struct errata_db errata_db;

/* Opens a compiled index read-only. Checks that the file is an Errata index of this format
 * version; says which it is otherwise (missing, not an index, stale, corrupt). */
ERRATA_API errata_code errata_open(const char *path, errata_db **out, errata_error *err);
ERRATA_API void errata_close(errata_db *db);

/* The number of records in the index, and a metadata value ("format_version", "kb_hash",
 * "built_at", "record_count", "errata_version"), or NULL when the key is unknown. */
ERRATA_API size_t errata_db_record_count(const errata_db *db);
ERRATA_API const char *errata_db_meta(const errata_db *db, const char *key);

/* ---------------------------------------------------------------- records */

typedef struct errata_record errata_record;

/* A record by id (or by one of its aliases). The record is owned by db. */
ERRATA_API errata_code errata_get_record(errata_db *db, const char *id, const errata_record **out,
                              errata_error *err);

/* The i-th record in id order, 0 <= i < errata_db_record_count(). */
ERRATA_API errata_code errata_record_at(errata_db *db, size_t i, const errata_record **out,
                             errata_error *err);

ERRATA_API const char *errata_record_id(const errata_record *r);
ERRATA_API const char *errata_record_domain(const errata_record *r);
ERRATA_API const char *errata_record_category(const errata_record *r);
ERRATA_API const char *errata_record_signature(const errata_record *r);
ERRATA_API const char *errata_record_regex(const errata_record *r);
ERRATA_API const char *errata_record_root_cause(const errata_record *r);
ERRATA_API const char *errata_record_verification_tier(const errata_record *r);
ERRATA_API double errata_record_confidence(const errata_record *r);
ERRATA_API double errata_record_fix_success_rate(const errata_record *r);
/* Non-zero when the failure is transient infrastructure (network timeouts, a registry's 5xx,
 * DNS, rate limits, an OOM-killed runner), worth retrying unchanged: the record's "transient"
 * field, or when it has none, its category being network_error. */
ERRATA_API int errata_record_transient(const errata_record *r);
ERRATA_API size_t errata_record_workaround_count(const errata_record *r);
ERRATA_API const char *errata_record_workaround_action(const errata_record *r, size_t i);
ERRATA_API const char *errata_record_workaround_how(const errata_record *r, size_t i);
ERRATA_API double errata_record_workaround_success_rate(const errata_record *r, size_t i);
ERRATA_API size_t errata_record_dead_end_count(const errata_record *r);
ERRATA_API const char *errata_record_dead_end_action(const errata_record *r, size_t i);
ERRATA_API const char *errata_record_dead_end_why_fails(const errata_record *r, size_t i);
ERRATA_API double errata_record_dead_end_fail_rate(const errata_record *r, size_t i);

/* ---------------------------------------------------------------- lookup */

/* Inputs larger than this are refused with ERRATA_ERR_TOO_BIG, unless the options say
 * otherwise. */
#define ERRATA_DEFAULT_MAX_INPUT ((size_t)64 * 1024 * 1024)

typedef struct errata_env errata_env;

typedef struct {
    size_t max_results;     /* 0: 5 */
    size_t max_input;       /* 0: ERRATA_DEFAULT_MAX_INPUT */
    const errata_env *env;  /* the user's environment, or NULL: each match's applicability */
} errata_lookup_options;

typedef struct errata_result errata_result;
typedef struct errata_match errata_match;

/* Finds the records whose patterns match text (any bytes; invalid UTF-8 is repaired, ANSI
 * escapes, CR and line prefixes such as timestamps are removed before matching). When no
 * pattern matches, the result may hold full-text guesses instead, each marked fuzzy, and only
 * when the text's words cover enough of a record; unrelated text gets an empty result. No match
 * is not an error. opts may be NULL. */
ERRATA_API errata_code errata_lookup(errata_db *db, const char *text, size_t len,
                          const errata_lookup_options *opts, errata_result **out,
                          errata_error *err);
ERRATA_API void errata_result_free(errata_result *res);

/* Full-text search (BM25 over signature, aliases, root cause, workarounds and the Chinese
 * texts; Chinese is searched by character bigrams). Every match is fuzzy. max 0 means 10. */
ERRATA_API errata_code errata_search(errata_db *db, const char *query, size_t len, size_t max,
                          errata_result **out, errata_error *err);

ERRATA_API size_t errata_result_count(const errata_result *res);
ERRATA_API const errata_match *errata_result_match(const errata_result *res, size_t i);

ERRATA_API const errata_record *errata_match_record(const errata_match *m);
/* Non-zero when the match is a full-text guess (no pattern matched; see errata_lookup). */
ERRATA_API int errata_match_is_fuzzy(const errata_match *m);
ERRATA_API double errata_match_score(const errata_match *m);
/* 1-based line of the normalised input where the match starts. */
ERRATA_API size_t errata_match_line(const errata_match *m);
/* The matched text (normalised), owned by the match. */
ERRATA_API const char *errata_match_text(const errata_match *m);
/* Named captures of the pattern, by name; NULL when the pattern has no such group or it did not
 * take part in the match. */
ERRATA_API const char *errata_match_capture(const errata_match *m, const char *name);

/* Whether the record of a match applies to the environment of the lookup (docs/format.md,
 * "Applicability"): its versions[] are satisfied, one is not (the reason names the package and
 * the constraint), or it cannot be told (a package missing from the environment, a version that
 * cannot be compared, or no environment given). *reason, when reason is not NULL, says why. */
typedef enum {
    ERRATA_APPLICABILITY_UNKNOWN = 0,
    ERRATA_APPLICABILITY_APPLIES = 1,
    ERRATA_APPLICABILITY_NOT_AFFECTED = 2
} errata_applicability;
ERRATA_API errata_applicability errata_match_applicability(const errata_match *m, const char **reason);

/* ---------------------------------------------------------------- environments */

/* A user's environment: installed packages and their versions, and the OS, read from the files
 * tools write (docs/environments.md). */
ERRATA_API errata_code errata_env_new(errata_env **out, errata_error *err);
ERRATA_API void errata_env_free(errata_env *env);
/* pip freeze or pip list --format=json output, requirements*.txt, poetry.lock, uv.lock,
 * package-lock.json, yarn.lock, pnpm-lock.yaml, Cargo.lock, go.mod, os-release. Errors name
 * the file and line; a file that does not load adds nothing. */
ERRATA_API errata_code errata_env_load_file(errata_env *env, const char *path, errata_error *err);
ERRATA_API errata_code errata_env_load_text(errata_env *env, const char *name, const char *text, size_t len,
                                 errata_error *err);
/* "name=version" (or "ecosystem:name==version"). */
ERRATA_API errata_code errata_env_set(errata_env *env, const char *assignment, errata_error *err);
/* Reads the lock files in dir and /etc/os-release, and asks the tools on PATH for their
 * versions (no shell, 3 s at most). */
ERRATA_API errata_code errata_env_probe(errata_env *env, const char *dir, errata_error *err);
ERRATA_API size_t errata_env_count(const errata_env *env);

/* Every output the library writes, in one enum: each function that renders says which of these
 * it accepts. */
typedef enum {
    ERRATA_FORMAT_TEXT = 0,     /* for a person in a terminal */
    ERRATA_FORMAT_JSON = 1,     /* for tools (docs/json-output.md) */
    ERRATA_FORMAT_MARKDOWN = 2, /* for agents and chat */
    ERRATA_FORMAT_HTML = 3,     /* escaped fragments for web pages */
    ERRATA_FORMAT_SARIF = 4,    /* SARIF 2.1.0, for CI code scanning (errata_check, scans) */
    ERRATA_FORMAT_JSONL = 5,    /* JSON Lines: a scan's findings one a line (scans only) */
    ERRATA_FORMAT_GITHUB = 6    /* GitHub workflow commands, "::error file=…,line=…::" (scans) */
} errata_format;

/* Every record whose version constraints the environment satisfies — errors to expect before
 * they happen — ordered by confidence and fix rate, rendered in fmt (text, JSON, Markdown or
 * SARIF; ERRATA_ERR_ARG for HTML). *count (may be NULL) is how many. */
ERRATA_API errata_code errata_check(errata_db *db, const errata_env *env, errata_format fmt,
                         char **out, size_t *count, errata_error *err);

/* ---------------------------------------------------------------- rendering */

typedef enum {
    ERRATA_LANG_EN = 0,
    ERRATA_LANG_ZH = 1 /* the *_zh texts where a record has them, English otherwise */
} errata_lang;

/* The check of an environment (errata_check above), with options. */
typedef struct {
    errata_lang lang;     /* of the text and Markdown forms (the record texts and their words) */
    /* Comma-separated categories (dependency_error, …) or "any": the exposures these cover are
     * problems (SARIF level "warning", counted in *problems); the others only say "this can
     * happen at your versions" (SARIF "note"). NULL: no exposure is a problem. */
    const char *fail_on;
} errata_check_options;

/* errata_check with options; *problems (may be NULL) is how many exposures fail_on covers.
 * ERRATA_ERR_ARG for a malformed fail_on. */
ERRATA_API errata_code errata_check_with(errata_db *db, const errata_env *env,
                                         const errata_check_options *opts, errata_format fmt,
                                         char **out, size_t *count, size_t *problems,
                                         errata_error *err);

typedef struct {
    errata_lang lang;
    int color;               /* non-zero: ANSI colours in text output */
    int explain;             /* non-zero: show each match's score parts */
    const char *link_prefix; /* HTML: records link to link_prefix + id ("/records/"); NULL: no links */
    const char *domain_link_prefix; /* HTML: domains link to this + domain ("/domains/") */
    const char *link_suffix; /* HTML: appended to every record and domain link ("?lang=zh"), or NULL */
    int search;              /* HTML: the result is errata_search's: each hit as a linked line */
} errata_render_options;

/* A lookup's answer, or one record, rendered in fmt (text, JSON, Markdown or HTML): a
 * NUL-terminated malloc'd string the caller frees; NULL when out of memory or for another fmt.
 * JSON output is documented in docs/json-output.md; Markdown says what the error is, what not
 * to try and what to try, for agents; HTML is fragments (escaped, no page around them) for web
 * pages. Capture placeholders such as {module} in workaround and dead-end texts are filled in
 * with the match's captures. opts may be NULL (English, no colour). */
ERRATA_API char *errata_result_render(const errata_result *res, errata_format fmt,
                                      const errata_render_options *opts);
ERRATA_API char *errata_record_render(const errata_record *r, errata_format fmt,
                                      const errata_render_options *opts);

/* The words of the web pages around the rendered fragments, in lang: navigation, headings,
 * form labels and buttons, and what to do when nothing matched. Static strings, never NULL;
 * `contribute` is HTML (it holds <code> markup and no record text), every other one plain text. */
typedef struct {
    const char *nav_lookup, *nav_search, *nav_domains;
    const char *lookup_title, *lookup_heading, *lookup_label, *lookup_button, *lookup_hint;
    const char *search_title, *search_heading, *search_label, *search_button;
    const char *no_match_search; /* before the search box when a lookup matched nothing */
    const char *contribute_heading, *contribute;
    const char *domains_title, *not_found, *footer, *api;
    const char *other_lang, *other_lang_code; /* the language switch: its text and hreflang */
} errata_page_words;
ERRATA_API const errata_page_words *errata_web_words(errata_lang lang);

/* Reads all of a stream (stdin, a pipe, an open file), refusing more than max bytes with
 * ERRATA_ERR_TOO_BIG. *out is malloc'd and NUL-terminated. */
ERRATA_API errata_code errata_read_all(FILE *stream, size_t max, char **out, size_t *len,
                                       errata_error *err);

/* Non-zero when s[0..n) is valid UTF-8 (RFC 3629: no overlongs, no surrogates). */
ERRATA_API int errata_utf8_valid(const char *s, size_t n);

/* ---------------------------------------------------------------- scanning whole logs */

/* A scan reads a log of any size in pieces, in bounded memory, and reports findings: every
 * distinct known failure in it, each with the line of its first occurrence, how often it
 * occurred and its last line (docs/scan.md). Line numbers count '\n' in the input, from 1. */
typedef struct errata_scan errata_scan;
typedef struct errata_finding errata_finding;

typedef struct {
    const errata_env *env; /* the user's environment, or NULL: each finding's applicability */
    /* Called once per finding, when its first occurrence has been confirmed (in order of
     * lines); its counts keep growing until errata_scan_finish. May be NULL. */
    void (*on_finding)(const errata_finding *f, void *ctx);
    /* Called after each piece of input (about 1 MiB) is read, for progress. May be NULL. */
    void (*on_progress)(const errata_scan *s, void *ctx);
    void *ctx;
} errata_scan_options;

/* ERRATA_ERR_CORRUPT or ERRATA_ERR_STALE when the index's scan prefilter is missing or does
 * not load here. opts may be NULL. */
ERRATA_API errata_code errata_scan_open(errata_db *db, const errata_scan_options *opts,
                                        errata_scan **out, errata_error *err);
/* Feeds the next len bytes of the log (any bytes: escapes are removed, invalid UTF-8 repaired,
 * a line may be cut between two feeds). */
ERRATA_API errata_code errata_scan_feed(errata_scan *s, const char *buf, size_t len,
                                        errata_error *err);
/* Feeds all of a stream (a file, stdin, a pipe) to the scan, decompressing gzip and Zstandard
 * input (told by its first bytes); does not finish the scan. It reads the stream's descriptor
 * directly, as the bytes come (a pipe is scanned live): nothing must have been read from the
 * FILE before. */
ERRATA_API errata_code errata_scan_stream(errata_scan *s, FILE *in, errata_error *err);
/* Confirms what the scan holds so far without ending it, for a log that is still being written
 * (errata scan --follow): a finding near the end is reported now, from the lines written yet. */
ERRATA_API errata_code errata_scan_flush(errata_scan *s, errata_error *err);
/* Ends the input: the last lines are confirmed and the counts are final. */
ERRATA_API errata_code errata_scan_finish(errata_scan *s, errata_error *err);
ERRATA_API void errata_scan_free(errata_scan *s);

ERRATA_API size_t errata_scan_findings(const errata_scan *s);
/* Findings in order of their first line. */
ERRATA_API const errata_finding *errata_scan_finding(const errata_scan *s, size_t i);
ERRATA_API unsigned long long errata_scan_bytes(const errata_scan *s);
/* Lines read (after errata_scan_finish). */
ERRATA_API unsigned long long errata_scan_lines(const errata_scan *s);
/* Non-zero when the scan found failures and every one is transient (errata_record_transient):
 * running the command again unchanged may succeed. */
ERRATA_API int errata_scan_retryable(const errata_scan *s);
/* Whether a finding falls under fail_on, a comma-separated list of categories (network_error,
 * build_error, …) and the words "transient", "defect" (not transient) and "any": 1 when one
 * does, 0 when none does, -1 (err: ERRATA_ERR_ARG) for a list with an empty or malformed item. */
ERRATA_API int errata_scan_fails_on(const errata_scan *s, const char *fail_on, errata_error *err);
/* Records skipped on some part of the input (a pattern's match limit), and why. */
ERRATA_API size_t errata_scan_warning_count(const errata_scan *s);
ERRATA_API const char *errata_scan_warning(const errata_scan *s, size_t i);

/* The finding's answer: its record, captures and applicability, as a lookup of the lines
 * around its first occurrence gives them; errata_match_line is the input's line. */
ERRATA_API const errata_match *errata_finding_match(const errata_finding *f);
/* The same as a one-match result, for errata_result_render. */
ERRATA_API const errata_result *errata_finding_result(const errata_finding *f);
ERRATA_API size_t errata_finding_occurrences(const errata_finding *f);
ERRATA_API unsigned long long errata_finding_first_line(const errata_finding *f);
ERRATA_API unsigned long long errata_finding_last_line(const errata_finding *f);
/* The lines around the occurrence the answer quotes ('\n'-separated); *first_line, when not
 * NULL, is the line number of the first of them. */
ERRATA_API const char *errata_finding_context(const errata_finding *f, unsigned long long *first_line);

/* A scan's findings in fmt (text, JSON, JSON Lines' closing summary, SARIF, GitHub or
 * Markdown; NULL for HTML), located in source (a file name; NULL: "stdin"). */
ERRATA_API char *errata_scan_render(const errata_scan *s, errata_format fmt, const char *source,
                                    const errata_render_options *opts);
/* One finding as a JSON Lines line or a GitHub workflow command, for streaming; NULL for
 * other formats. */
ERRATA_API char *errata_finding_render(const errata_finding *f, errata_format fmt,
                                       const char *source);

/* ---------------------------------------------------------------- catalog */

/* What the knowledge base holds, rendered in fmt (JSON, Markdown or HTML; ERRATA_ERR_ARG for
 * another) into a malloc'd *out (documented with the HTTP API in docs/http-api.md, which serves
 * exactly these). */
ERRATA_API errata_code errata_domains(errata_db *db, errata_format fmt, const errata_render_options *opts,
                           char **out, errata_error *err);
/* ERRATA_ERR_NOT_FOUND for a domain without records. */
ERRATA_API errata_code errata_domain_records(errata_db *db, const char *domain, errata_format fmt,
                                  const errata_render_options *opts, char **out,
                                  errata_error *err);
ERRATA_API errata_code errata_stats(errata_db *db, errata_format fmt, const errata_render_options *opts,
                         char **out, errata_error *err);
/* The records linked to id by the transition graph, up to depth (1 to 5) steps away, either
 * direction. ERRATA_ERR_NOT_FOUND for an unknown id. */
ERRATA_API errata_code errata_chain(errata_db *db, const char *id, int depth, errata_format fmt,
                         const errata_render_options *opts, char **out, errata_error *err);

/* ---------------------------------------------------------------- validation */

typedef enum { ERRATA_SEV_WARNING = 1, ERRATA_SEV_ERROR = 2 } errata_severity;

/* One finding about a record file. line and col are 0 when the finding is about a field
 * rather than a place in the text; field is "" when it is about the whole file. */
typedef struct {
    errata_severity severity;
    const char *file;
    int line;
    int col;
    const char *field;
    const char *message;
} errata_diag;

typedef struct errata_diags errata_diags;

/* Validates record files and directories (searched recursively for *.json), each record alone
 * and all of them together (duplicate ids, graph links). Returns ERRATA_OK when it could run,
 * whatever it found; *out holds the findings and the number of files read. */
ERRATA_API errata_code errata_validate_paths(const char *const *paths, size_t n_paths, errata_diags **out,
                                  errata_error *err);
ERRATA_API size_t errata_diags_count(const errata_diags *d);
ERRATA_API const errata_diag *errata_diags_get(const errata_diags *d, size_t i);
ERRATA_API size_t errata_diags_errors(const errata_diags *d);
ERRATA_API size_t errata_diags_warnings(const errata_diags *d);
ERRATA_API size_t errata_diags_files(const errata_diags *d);
ERRATA_API size_t errata_diags_records(const errata_diags *d);
ERRATA_API void errata_diags_free(errata_diags *d);

/* ---------------------------------------------------------------- cross-check */

/* One example of one record, looked up against the whole knowledge base. */
typedef struct {
    const char *record_id; /* the record whose example this is */
    size_t example;        /* index in its examples.match */
    size_t rank;           /* where its own record came: 1 first, 0 not matched at all */
    const char *top_id;    /* the record that came first ("" when none matched) */
    const char *others;    /* the other records that matched, comma-separated ("" if none) */
    int after_cause;       /* non-zero: second only to its own cause (transition_graph), which
                              the answer then names: a chain, not an outranking */
    int scan_missed;       /* non-zero: none of the literals errata_scan's prefilter looks for in
                              this record (its pattern's required literals) is in the example,
                              so a scan of a log would never try the record there */
} errata_cross_entry;

typedef struct errata_cross errata_cross;

/* Builds the knowledge base into a temporary index and looks up every record's examples.match
 * texts. An example whose own record is not first is "outranked". Fails like errata_build()
 * when a record is invalid. */
ERRATA_API errata_code errata_cross_check(const char *const *kb_dirs, size_t n_dirs, errata_cross **out,
                               errata_error *err);
ERRATA_API size_t errata_cross_count(const errata_cross *c);
ERRATA_API const errata_cross_entry *errata_cross_get(const errata_cross *c, size_t i);
ERRATA_API size_t errata_cross_outranked(const errata_cross *c);
/* Examples a scan would miss (scan_missed). */
ERRATA_API size_t errata_cross_scan_missed(const errata_cross *c);
ERRATA_API void errata_cross_free(errata_cross *c);

/* ---------------------------------------------------------------- build */

typedef struct {
    int force; /* non-zero: rebuild even when the knowledge base is unchanged */
} errata_build_options;

typedef struct {
    size_t records;       /* records in the index */
    size_t hs_patterns;   /* patterns the multi-pattern engine takes as they are */
    size_t hs_prefilter;  /* patterns it takes only as a prefilter (PCRE2 confirms) */
    size_t pcre_only;     /* patterns only PCRE2 runs */
    size_t unfiltered;    /* patterns without the literals errata_scan's prefilter needs */
    int skipped;          /* non-zero: the index was up to date and left as it was */
    char kb_hash[65];     /* SHA-256 of the knowledge base, hex */
} errata_build_report;

/* Validates the records under kb_dirs and compiles them into the index file out_path, written
 * to a temporary file and renamed into place so that a failed or killed build leaves the old
 * index intact. Fails with ERRATA_ERR_INVALID (diags then holds the errors) when a record is
 * invalid. diags may be NULL. */
ERRATA_API errata_code errata_build(const char *const *kb_dirs, size_t n_dirs, const char *out_path,
                         const errata_build_options *opts, errata_build_report *report,
                         errata_diags **diags, errata_error *err);

/* ---------------------------------------------------------------- verify */

/* What running one record's reproduce recipe showed (docs/verify.md). */
typedef enum {
    ERRATA_VERIFY_VERIFIED, /* the tool's output was answered by this record, first */
    ERRATA_VERIFY_FAILED,   /* it ran, and its output was not (or it timed out) */
    ERRATA_VERIFY_SKIPPED   /* no recipe, or a tool it requires is not installed */
} errata_verify_state;

typedef struct {
    const char *record_id, *file;
    errata_verify_state state;
    const char *reason;    /* why it failed or was skipped ("" when verified) */
    const char *output;    /* what the command printed (at most 1 MiB); NULL when not run */
    double seconds;        /* how long the command ran */
    int network_isolated;  /* non-zero: it ran in a network namespace of its own */
    int updated;           /* non-zero: `update` rewrote the record file */
    int tier_changed;      /* non-zero: that rewrite changed verification_tier */
} errata_verify_entry;

typedef struct {
    const char *const *ids; /* only these records; none: every record (or every of domain) */
    size_t n_ids;
    const char *domain;     /* only this domain; NULL: every domain */
    double timeout_s;       /* per record; 0 means 30 s */
    int update;             /* rewrite last_confirmed and verification_tier in the files */
    const char *today;      /* the date written as last_confirmed; NULL: today (UTC) */
    /* Called after each record, in order (for progress); may be NULL. */
    void (*progress)(const errata_verify_entry *e, void *arg);
    void *progress_arg;
} errata_verify_options;

typedef struct errata_verify_report errata_verify_report;

/* Builds the knowledge base under kb_dirs into a temporary index, runs the reproduce command of
 * each selected record contained (a scratch directory, a cleared environment, no network, a
 * timeout) and looks its output up. Fails with ERRATA_ERR_NOT_FOUND for an id not in the
 * knowledge base and like errata_build() for invalid records. Runs commands from the records:
 * use it on a knowledge base you trust as you trust its build scripts. */
ERRATA_API errata_code errata_verify(const char *const *kb_dirs, size_t n_dirs,
                          const errata_verify_options *opts, errata_verify_report **out,
                          errata_error *err);
ERRATA_API size_t errata_verify_count(const errata_verify_report *rep);
ERRATA_API const errata_verify_entry *errata_verify_get(const errata_verify_report *rep, size_t i);
ERRATA_API size_t errata_verify_tally(const errata_verify_report *rep, errata_verify_state state);
ERRATA_API const char *errata_verify_state_name(errata_verify_state state);
ERRATA_API void errata_verify_free(errata_verify_report *rep);

#ifdef __cplusplus
}
#endif

#endif /* ERRATA_H */
