/*
 * pep440.c — Python package versions and specifiers; see version.h.
 *
 * PEP 440 (packaging.python.org, "Version specifiers")
 *   Versions: [N!]N(.N)*[{a|b|rc}N][.postN][.devN][+local] with the spec's normalisation: case
 *   ignored, a leading "v", the alpha/beta/c/pre/preview spellings, "-", "_", "." or no
 *   separator, implicit numbers (1.0a = 1.0a0), implicit post releases (1.0-1), rev and r for
 *   post, zero padding (1.0 == 1.0.0). Order: epoch, release, then .devN < aN < bN < rcN < final
 *   < .postN, and a local label after none (numeric segments after alphanumeric ones).
 *   Specifiers are comma-separated clauses that must all hold (empty clauses are ignored):
 *     ~=V     >= V, and the release without its last number matches as a prefix (V needs two
 *             numbers at least)
 *     ==V.*   prefix match on epoch and the zero-padded release; the candidate's local label is
 *             ignored; !=V.* is its negation
 *     ==V     equal with zero padding; the candidate's local label is ignored unless V has one,
 *             and then it must be equal too (segment by segment, numbers as numbers); != is the
 *             negation
 *     <=, >=  on the candidate's public version (its local label dropped)
 *     <V      and not a pre-release of V's release unless V is itself a pre-release (the
 *             exclusive ordered comparison rule: <2.0 excludes 2.0a1 and 2.0.dev1)
 *     >V      and not a post-release of V's release unless V is itself a post-release, and not
 *             a version with a local label on V's release (packaging's reading of "not a local
 *             version of V", which pip applies: 1.0+local is not >1.0 and not >1.0a1)
 *     ===V    case-insensitive string equality; the candidate need not be a PEP 440 version
 *   A local label is accepted in == and != clauses only, .* in == and != only (as the spec says).
 *   Choice: the spec excludes pre-releases "unless they are already present on the system";
 *   an installed version is present, so pre-releases are accepted by every clause except where
 *   the exclusive ordered comparison rule above excludes them: torch>=2.2 applies to 2.6.0a1.
 */
#include "version_schemes.h"

/* ------------------------------------------------------------------ PEP 440 */

static bool take_pep_sep(span s, size_t *i)
{
    if (*i < s.n && (s.p[*i] == '-' || s.p[*i] == '_' || s.p[*i] == '.')) {
        (*i)++;
        return true;
    }
    return false;
}

/* Longer spellings first, so that "preview" is not read as "pre" followed by "view". */
static int take_pre_label(span s, size_t *i)
{
    static const struct {
        const char *word;
        int kind;
    } labels[] = {{"preview", PRE_RC}, {"alpha", PRE_A}, {"beta", PRE_B}, {"pre", PRE_RC},
                  {"rc", PRE_RC},      {"a", PRE_A},     {"b", PRE_B},    {"c", PRE_RC}};
    for (size_t k = 0; k < sizeof labels / sizeof labels[0]; k++)
        if (take_word(s, i, labels[k].word))
            return labels[k].kind;
    return PRE_NONE;
}

/* The local label: alphanumeric segments joined by single '.', '-' or '_'. */
static bool take_local(span s, size_t *i, span *local)
{
    size_t start = *i;
    for (;;) {
        size_t seg = *i;
        while (*i < s.n && is_alnum(s.p[*i]))
            (*i)++;
        if (*i == seg)
            return false;
        if (take_pep_sep(s, i))
            continue;
        break;
    }
    *local = sub(s, start, *i);
    return true;
}

/* Each optional part is tried where it may stand and given back if it does not fit; a
 * separator after a label with no number stays taken, as in the spec's regular expression. */
static void take_pep_suffixes(span s, size_t *i, pep_version *v)
{
    size_t mark = *i;
    take_pep_sep(s, i);
    if ((v->pre = take_pre_label(s, i)) != PRE_NONE) {
        take_pep_sep(s, i);
        v->pre_n = take_digits(s, i);
    } else {
        *i = mark;
    }
    mark = *i;
    if (*i + 1 < s.n && s.p[*i] == '-' && is_digit(s.p[*i + 1])) { /* implicit post: 1.0-1 */
        (*i)++;
        v->post = true;
        v->post_n = take_digits(s, i);
    } else {
        take_pep_sep(s, i);
        if (take_word(s, i, "post") || take_word(s, i, "rev") || take_word(s, i, "r")) {
            v->post = true;
            take_pep_sep(s, i);
            v->post_n = take_digits(s, i);
        } else {
            *i = mark;
        }
    }
    mark = *i;
    take_pep_sep(s, i);
    if (take_word(s, i, "dev")) {
        v->dev = true;
        take_pep_sep(s, i);
        v->dev_n = take_digits(s, i);
    } else {
        *i = mark;
    }
}

static bool pep_parse(span text, bool wildcard_ok, pep_version *v, char *why, size_t why_size)
{
    span s = trim(text);
    *v = (pep_version){.epoch = EMPTY, .release = EMPTY, .pre = PRE_NONE, .pre_n = EMPTY,
                       .post_n = EMPTY, .dev_n = EMPTY, .local = EMPTY};
    size_t i = 0;
    if (s.n && lower(s.p[0]) == 'v')
        i++;
    size_t mark = i;
    span epoch = take_digits(s, &i);
    if (epoch.n && i < s.n && s.p[i] == '!')
        v->epoch = epoch, i++;
    else
        i = mark;
    if (!take_release(s, &i, &v->release, &v->n_release)) {
        say(why, why_size, "'%.*s' is not a PEP 440 version: it does not start with a number",
            shown(s), s.p);
        return false;
    }
    if (wildcard_ok && s.n - i == 2 && s.p[i] == '.' && s.p[i + 1] == '*') {
        v->wildcard = true;
        return true;
    }
    take_pep_suffixes(s, &i, v);
    if (i < s.n && s.p[i] == '+') {
        i++;
        if (!take_local(s, &i, &v->local)) {
            say(why, why_size, "'%.*s' is not a PEP 440 version: malformed local label",
                shown(s), s.p);
            return false;
        }
    }
    if (i != s.n) {
        span rest = sub(s, i, s.n);
        say(why, why_size, "'%.*s' is not a PEP 440 version: unexpected '%.*s'", shown(s), s.p,
            shown(rest), rest.p);
        return false;
    }
    return true;
}

/* Local labels, segment by segment ("ubuntu-1.2": "ubuntu", "1", "2"): numbers numerically and
 * after words, words ignoring case; no label, or fewer segments, first. */
static int local_cmp(span a, span b)
{
    span x = {0}, y = {0};
    for (;;) {
        bool hx = next_field(&a, "-_.", &x), hy = next_field(&b, "-_.", &y);
        if (!hx || !hy)
            return (int)hx - (int)hy;
        bool nx = all_digits(x), ny = all_digits(y);
        int c = nx && ny ? num_cmp(x, y) : nx != ny ? (nx ? 1 : -1) : ci_cmp(x, y);
        if (c)
            return c;
    }
}

/* The pre-release part of the sort key: a .devN of a final release comes before its a0, a
 * version without pre-release after all of its pre-releases. */
static int pep_pre_rank(const pep_version *v)
{
    if (v->pre != PRE_NONE)
        return v->pre;
    return v->dev && !v->post ? -1 : PRE_NONE;
}

static int pep_cmp(const pep_version *a, const pep_version *b, bool with_local)
{
    int c = num_cmp(a->epoch, b->epoch);
    if (!c)
        c = release_cmp(a->release, b->release);
    if (!c) {
        int ra = pep_pre_rank(a), rb = pep_pre_rank(b);
        c = (ra > rb) - (ra < rb);
        if (!c && a->pre != PRE_NONE)
            c = num_cmp(a->pre_n, b->pre_n);
    }
    if (!c)
        c = a->post != b->post ? (a->post ? 1 : -1) : num_cmp(a->post_n, b->post_n);
    if (!c)
        c = a->dev != b->dev ? (a->dev ? -1 : 1) : num_cmp(a->dev_n, b->dev_n);
    if (!c && with_local)
        c = local_cmp(a->local, b->local);
    return c;
}

static bool pep_is_pre(const pep_version *v) { return v->pre != PRE_NONE || v->dev; }

/* Whether v's epoch and the first count numbers of its release are those of s. */
static bool pep_prefix(const pep_version *v, const pep_version *s, size_t count)
{
    return num_cmp(v->epoch, s->epoch) == 0 && release_prefix_eq(v->release, s->release, count);
}

static bool pep_same_release(const pep_version *v, const pep_version *s)
{
    return num_cmp(v->epoch, s->epoch) == 0 && release_cmp(v->release, s->release) == 0;
}

static bool pep_eq(const pep_version *v, const pep_version *s)
{
    if (s->wildcard)
        return pep_prefix(v, s, s->n_release);
    return pep_cmp(v, s, s->local.n > 0) == 0;
}

static bool pep_holds(clause_op op, const pep_version *v, const pep_version *s)
{
    int c = pep_cmp(v, s, false);
    switch (op) {
    case OP_EQ:
        return pep_eq(v, s);
    case OP_NE:
        return !pep_eq(v, s);
    case OP_LE:
        return c <= 0;
    case OP_GE:
        return c >= 0;
    case OP_LT:
        return c < 0 && !(pep_is_pre(v) && !pep_is_pre(s) && pep_same_release(v, s));
    case OP_GT:
        return c > 0 && !(v->post && !s->post && pep_same_release(v, s)) &&
               !(v->local.n && pep_same_release(v, s));
    case OP_COMPAT:
        return c >= 0 && pep_prefix(v, s, s->n_release - 1);
    default:
        return false;
    }
}

static bool pep_check(clause_op op, const pep_version *s, char *why, size_t why_size)
{
    if (s->local.n && op != OP_EQ && op != OP_NE) {
        say(why, why_size, "a local version label is only allowed with == and !=");
        return false;
    }
    if (op == OP_COMPAT && s->n_release < 2) {
        say(why, why_size, "~= needs a release of two numbers at least (~=2.2, not ~=2)");
        return false;
    }
    return true;
}

static bool pep_parse_any(span t, bool w, any_version *o, char *why, size_t n)
{
    return pep_parse(t, w, &o->pep, why, n);
}
static bool pep_check_any(clause_op op, const any_version *s, char *why, size_t n)
{
    return pep_check(op, &s->pep, why, n);
}
static vmatch pep_holds_any(clause_op op, const any_version *v, const any_version *s)
{
    return pep_holds(op, &v->pep, &s->pep) ? VMATCH_YES : VMATCH_NO;
}

const clause_rules PEP440_RULES = {"PEP 440", false, pep_parse_any, pep_check_any,
                                   pep_holds_any};

bool pep440_compare(span a, span b, int *c)
{
    pep_version x, y;
    if (!pep_parse(a, false, &x, NULL, 0) || !pep_parse(b, false, &y, NULL, 0))
        return false;
    *c = pep_cmp(&x, &y, true);
    return true;
}
