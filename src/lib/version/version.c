/*
 * version.c — whether an installed version satisfies a record's version specifier, and the
 * order of two versions, under the rules of four schemes (version.h): the dispatch to each
 * scheme's file (pep440.c, semver.c, maven.c, generic.c; clauses.c holds the clause syntax
 * PEP 440 and the generic scheme share) and the reading of a record's "package<specifier>".
 * The rules common to all schemes are at the top of version_common.h.
 */
#include "version_schemes.h"

/* ------------------------------------------------------------------ requirements */

static bool is_name_char(char c)
{
    return is_alnum(c) || c == '.' || c == '_' || c == '-' || c == '+' || c == ':' || c == '/';
}

/* A package name: "torch", "g++", "org.slf4j:slf4j-api", "@types/node". */
static bool name_ok(span name, char *why, size_t why_size)
{
    size_t i = name.n && name.p[0] == '@' ? 1 : 0;
    if (i == name.n || !is_alnum(name.p[i])) {
        say(why, why_size, "'%.*s' is not a package name", shown(name), name.p);
        return false;
    }
    for (; i < name.n; i++)
        if (!is_name_char(name.p[i])) {
            say(why, why_size, "'%.*s' is not a package name ('%c')", shown(name), name.p,
                name.p[i]);
            return false;
        }
    if (name.p[0] == '@') {
        const char *slash = memchr(name.p, '/', name.n);
        if (!slash || slash == name.p + 1 || slash == name.p + name.n - 1) {
            say(why, why_size, "'%.*s' is not a scoped npm package (@scope/name)", shown(name),
                name.p);
            return false;
        }
    }
    return true;
}

/* "group:artifact:version" (Gradle's and Maven's short coordinates): the last part, when it
 * starts with a digit, is an exact version. */
static void split_coordinates(span *name, span *spec)
{
    size_t colons = 0, last = 0;
    for (size_t i = 0; i < name->n; i++)
        if (name->p[i] == ':')
            colons++, last = i;
    if (!spec->n && colons >= 2 && last + 1 < name->n && is_digit(name->p[last + 1])) {
        *spec = sub(*name, last + 1, name->n);
        *name = sub(*name, 0, last);
    }
}

/* What follows a name that took no '@': PEP 508 extras or parentheses, or the specifier. */
static bool after_name(span rest, span *spec, char *why, size_t why_size)
{
    span bracketed = rest.n ? trim(sub(rest, 1, rest.n)) : EMPTY;
    if (rest.n && rest.p[0] == '[' && bracketed.n && is_alpha(bracketed.p[0])) {
        size_t close = find(rest, "]"); /* extras: requests[socks]>=2.31 */
        if (close == rest.n) {
            say(why, why_size, "unclosed extras '%.*s'", shown(rest), rest.p);
            return false;
        }
        rest = sub(rest, close + 1, rest.n);
    }
    if (rest.n && !is_blank(rest.p[0]) && !strchr("<>=!~^[(", rest.p[0])) {
        say(why, why_size, "unexpected '%c' after the package name", rest.p[0]);
        return false;
    }
    rest = trim(rest);
    span inner = rest.n ? trim(sub(rest, 1, rest.n)) : EMPTY;
    if (rest.n && rest.p[0] == '(' && inner.n && strchr("<>=!~", inner.p[0])) {
        if (rest.p[rest.n - 1] != ')') { /* requests (>=2.31): PEP 508's parentheses */
            say(why, why_size, "unclosed '(' in '%.*s'", shown(rest), rest.p);
            return false;
        }
        rest = trim(sub(rest, 1, rest.n - 1));
    }
    *spec = rest;
    return true;
}

static bool requirement_parts(span t, span *name, span *spec, char *why, size_t why_size)
{
    size_t i = t.p[0] == '@' ? 1 : 0;
    const char *at = memchr(t.p + i, '@', t.n - i);
    if (at) { /* npm's name@range */
        *name = trim(sub(t, 0, (size_t)(at - t.p)));
        *spec = trim(sub(t, (size_t)(at - t.p) + 1, t.n));
        if (find(*spec, "://") < spec->n) {
            say(why, why_size, "a URL requirement names no version");
            return false;
        }
        return name_ok(*name, why, why_size);
    }
    while (i < t.n && is_name_char(t.p[i]))
        i++;
    *name = sub(t, 0, i);
    if (!name_ok(*name, why, why_size) || !after_name(sub(t, i, t.n), spec, why, why_size))
        return false;
    split_coordinates(name, spec);
    return true;
}

static char *dup_span(span s)
{
    char *p = malloc(s.n + 1);
    if (p) {
        memcpy(p, s.p, s.n);
        p[s.n] = '\0';
    }
    return p;
}

bool version_requirement_split(const char *text, char **package, char **specifier, char *why,
                               size_t why_size)
{
    if (package)
        *package = NULL;
    if (specifier)
        *specifier = NULL;
    span t = trim(span_of(text)), name, spec;
    if (!package || !specifier || !t.n) {
        say(why, why_size, "an empty requirement");
        return false;
    }
    for (size_t i = 0; i < t.n; i++)
        if (is_control(t.p[i]) || t.p[i] == ';') {
            say(why, why_size, t.p[i] == ';' ? "environment markers (';') are not supported"
                                             : "a control character in the requirement");
            return false;
        }
    if (!requirement_parts(t, &name, &spec, why, why_size))
        return false;
    *package = dup_span(name);
    *specifier = dup_span(spec);
    if (!*package || !*specifier) {
        free(*package), free(*specifier);
        *package = *specifier = NULL;
        say(why, why_size, "out of memory");
        return false;
    }
    say(why, why_size, "%s", "");
    return true;
}

/* ------------------------------------------------------------------ public */

const char *version_scheme_name(version_scheme s)
{
    switch (s) {
    case VSCHEME_PEP440:
        return "pep440";
    case VSCHEME_SEMVER:
        return "semver";
    case VSCHEME_MAVEN:
        return "maven";
    case VSCHEME_GENERIC:
        return "generic";
    }
    return "unknown";
}

vmatch version_satisfies(version_scheme scheme, const char *version, const char *specifier,
                         char *why, size_t why_size)
{
    span spec = trim(span_of(specifier)), v = trim(span_of(version));
    if (!spec.n) {
        say(why, why_size, "%s", "");
        return VMATCH_YES;
    }
    switch (scheme) {
    case VSCHEME_PEP440:
        return clauses_satisfied(&PEP440_RULES, v, spec, why, why_size);
    case VSCHEME_GENERIC:
        return clauses_satisfied(&GENERIC_RULES, v, spec, why, why_size);
    case VSCHEME_SEMVER:
        return semver_satisfies(v, spec, why, why_size);
    case VSCHEME_MAVEN:
        return maven_satisfies(v, spec, why, why_size);
    }
    say(why, why_size, "unknown version scheme %d", (int)scheme);
    return VMATCH_UNKNOWN;
}

int version_compare(version_scheme scheme, const char *a, const char *b, bool *ok)
{
    span sa = trim(span_of(a)), sb = trim(span_of(b));
    int c = 0;
    bool parsed = false;
    switch (scheme) {
    case VSCHEME_PEP440: parsed = pep440_compare(sa, sb, &c); break;
    case VSCHEME_GENERIC: parsed = generic_compare(sa, sb, &c); break;
    case VSCHEME_SEMVER: parsed = semver_compare(sa, sb, &c); break;
    case VSCHEME_MAVEN: parsed = maven_compare(sa, sb, &c); break;
    }
    if (ok)
        *ok = parsed;
    return parsed ? sign(c) : 0;
}
