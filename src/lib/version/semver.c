/*
 * semver.c — npm versions and node-semver ranges; see version.h.
 *
 * npm (node-semver README, "Ranges"; SemVer 2.0.0 for versions and precedence)
 *   Versions: MAJOR.MINOR.PATCH[-pre][+build], numbers without leading zeros; a leading "v" or
 *   "=" and surrounding blanks are accepted, as node-semver's loose parsing accepts them.
 *   Ranges: sets joined by "||" (any set), comparators in a set separated by blanks (all of
 *   them); <, <=, >, >=, =, bare versions; x-ranges (1.x, 1.2.*, *, partial 1 and 1.2); tilde
 *   (~ and ~>); caret (^); hyphen ranges "A - B"; a blank may follow an operator. Each form is
 *   desugared exactly as node-semver desugars it (^1.2.3 is >=1.2.3 <2.0.0-0, <=1.2 is
 *   <1.3.0-0, >1 is >=2.0.0, <* matches nothing). A version with a pre-release satisfies a set
 *   only if some comparator of that set carries a pre-release on the same MAJOR.MINOR.PATCH
 *   (includePrerelease off). Build metadata is ignored. Pre-release identifiers compare
 *   numerically when numeric, numeric before alphanumeric, alphanumeric in ASCII order, and a
 *   longer list after its own prefix.
 *   Choice: the empty specifier means "any version" (the record format's rule) and so matches
 *   pre-releases too, while "*" is node-semver's and does not.
 */
#include "version_schemes.h"

/* ------------------------------------------------------------------ npm (node-semver) */

/* A SemVer number, possibly one more than its digits say: node-semver's ranges bump a part
 * (^1.2.3 is <2.0.0-0), and bumping digit by digit keeps numbers of any length exact. */
typedef struct {
    span d;     /* digits without leading zeros; empty is 0 */
    bool bump;  /* the value is d + 1 */
    bool grows; /* d is all nines, so d + 1 has one digit more */
    size_t k;   /* otherwise the last digit that is not a nine: the one that goes up */
} snum;

static snum snum_of(span digits) { return (snum){num_trim(digits), false, false, 0}; }

static snum snum_plus_one(snum x)
{
    snum r = {x.d, true, true, 0};
    for (size_t i = x.d.n; i-- > 0;)
        if (x.d.p[i] != '9') {
            r.grows = false, r.k = i;
            break;
        }
    return r;
}

static size_t snum_len(const snum *x) { return x->d.n + (x->bump && x->grows); }

static char snum_digit(const snum *x, size_t i)
{
    if (!x->bump)
        return x->d.p[i];
    if (x->grows)
        return i == 0 ? '1' : '0';
    return i < x->k ? x->d.p[i] : i == x->k ? (char)(x->d.p[i] + 1) : '0';
}

static int snum_cmp(const snum *a, const snum *b)
{
    size_t la = snum_len(a), lb = snum_len(b);
    if (la != lb)
        return la < lb ? -1 : 1;
    for (size_t i = 0; i < la; i++) {
        char x = snum_digit(a, i), y = snum_digit(b, i);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

static bool snum_is_zero(const snum *x) { return !x->bump && !x->d.n; }

typedef struct {
    snum n[3]; /* major, minor, patch */
    span pre;  /* dot-separated identifiers; empty when there is no pre-release */
} sv_version;

/* A version or partial version in a range: "1", "1.2", "1.x", "1.2.3-beta.1", "*". */
typedef struct {
    snum n[3];
    bool x[3]; /* the part is a wildcard or left out (then it and the parts after it are 0) */
    span pre;
} sv_partial;

static const span PRE_ZERO = {"0", 1}; /* the lowest pre-release: 2.0.0-0 */

/* A SemVer numeric identifier: 0, or digits that do not start with 0. */
static bool sv_take_number(span s, size_t *i, span *out)
{
    size_t start = *i;
    span d = take_digits(s, i);
    if (!d.n || (d.n > 1 && d.p[0] == '0')) {
        *i = start;
        return false;
    }
    *out = d;
    return true;
}

/* Dot-separated identifiers of [0-9A-Za-z-]; in a pre-release, numeric ones have no leading 0. */
static bool sv_take_idents(span s, size_t *i, bool pre, span *out)
{
    size_t start = *i;
    for (;;) {
        size_t id = *i;
        while (*i < s.n && (is_alnum(s.p[*i]) || s.p[*i] == '-'))
            (*i)++;
        span one = sub(s, id, *i);
        if (!one.n || (pre && all_digits(one) && one.n > 1 && one.p[0] == '0'))
            return false;
        if (*i + 1 < s.n && s.p[*i] == '.') {
            (*i)++;
            continue;
        }
        break;
    }
    *out = sub(s, start, *i);
    return true;
}

static bool sv_partial_parse(span w, sv_partial *p, char *why, size_t why_size)
{
    *p = (sv_partial){.pre = EMPTY};
    size_t i = 0, k = 0;
    bool ok = true;
    while (i < w.n && (w.p[i] == 'v' || w.p[i] == 'V' || w.p[i] == '='))
        i++;
    for (int j = 0; j < 3; j++)
        p->n[j] = snum_of(EMPTY), p->x[j] = true;
    for (;;) { /* each part present is a number or a wildcard: "1." is not a partial */
        span d;
        if (i < w.n && (w.p[i] == 'x' || w.p[i] == 'X' || w.p[i] == '*'))
            i++;
        else if (sv_take_number(w, &i, &d))
            p->n[k] = snum_of(d), p->x[k] = false;
        else
            ok = false;
        if (!ok || k == 2 || i >= w.n || w.p[i] != '.')
            break;
        i++, k++;
    }
    if (ok && k == 2 && i < w.n && w.p[i] == '-') {
        i++;
        ok = sv_take_idents(w, &i, true, &p->pre);
    }
    span build;
    if (ok && k == 2 && i < w.n && w.p[i] == '+') {
        i++;
        ok = sv_take_idents(w, &i, false, &build);
    }
    if (!ok || i != w.n) {
        say(why, why_size, "'%.*s' is not a SemVer version or range part", shown(w), w.p);
        return false;
    }
    for (int j = 0; j < 3; j++) {
        if (j > 0 && p->x[j - 1])
            p->x[j] = true; /* 1.x.3 is 1.x.x */
        if (p->x[j])
            p->n[j] = snum_of(EMPTY), p->pre = EMPTY;
    }
    return true;
}

static bool sv_version_parse(span text, sv_version *v, char *why, size_t why_size)
{
    span s = trim(text);
    sv_partial p;
    if (!sv_partial_parse(s, &p, why, why_size) || p.x[2]) {
        say(why, why_size, "'%.*s' is not a SemVer version (MAJOR.MINOR.PATCH[-pre][+build])",
            shown(s), s.p);
        return false;
    }
    *v = (sv_version){{p.n[0], p.n[1], p.n[2]}, p.pre};
    return true;
}

static int sv_pre_cmp(span a, span b)
{
    span x = {0}, y = {0};
    for (;;) {
        bool hx = next_field(&a, ".", &x), hy = next_field(&b, ".", &y);
        if (!hx || !hy)
            return (int)hx - (int)hy;
        bool nx = all_digits(x), ny = all_digits(y);
        int c = nx && ny ? num_cmp(x, y) : nx != ny ? (nx ? -1 : 1) : bytes_cmp(x, y);
        if (c)
            return c;
    }
}

/* SemVer precedence; build metadata never reaches here. */
static int sv_cmp(const sv_version *a, const sv_version *b)
{
    for (int k = 0; k < 3; k++) {
        int c = snum_cmp(&a->n[k], &b->n[k]);
        if (c)
            return c;
    }
    if (!a->pre.n || !b->pre.n)
        return (int)(a->pre.n == 0) - (int)(b->pre.n == 0);
    return sv_pre_cmp(a->pre, b->pre);
}

typedef enum { SV_LT, SV_LE, SV_GT, SV_GE, SV_EQ } sv_op;

typedef struct {
    sv_op op;
    sv_version v;
} sv_comparator;

static sv_comparator sv_make(sv_op op, snum major, snum minor, snum patch, span pre)
{
    return (sv_comparator){op, {{major, minor, patch}, pre}};
}

static bool sv_test(const sv_comparator *c, const sv_version *v)
{
    int r = sv_cmp(v, &c->v);
    switch (c->op) {
    case SV_LT:
        return r < 0;
    case SV_LE:
        return r <= 0;
    case SV_GT:
        return r > 0;
    case SV_GE:
        return r >= 0;
    case SV_EQ:
        return r == 0;
    }
    return false;
}

/* The operators a range comparator may start with. */
typedef enum { RG_EQ, RG_LT, RG_LE, RG_GT, RG_GE, RG_TILDE, RG_CARET } range_op;

static range_op take_range_op(span s, size_t *i)
{
    static const struct {
        const char *text;
        range_op op;
    } ops[] = {{"<=", RG_LE}, {">=", RG_GE}, {"~>", RG_TILDE}, {"<", RG_LT},
               {">", RG_GT},  {"=", RG_EQ},  {"~", RG_TILDE},  {"^", RG_CARET}};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (take_word(s, i, ops[k].text))
            return ops[k].op;
    return RG_EQ;
}

/* node-semver's replaceTilde: ~1.2.3 := >=1.2.3 <1.3.0-0, ~1 := >=1.0.0 <2.0.0-0. */
static size_t sv_tilde(const sv_partial *p, sv_comparator out[2])
{
    snum z = snum_of(EMPTY);
    if (p->x[0])
        return 0;
    out[0] = sv_make(SV_GE, p->n[0], p->n[1], p->n[2], p->pre);
    out[1] = p->x[1] ? sv_make(SV_LT, snum_plus_one(p->n[0]), z, z, PRE_ZERO)
                     : sv_make(SV_LT, p->n[0], snum_plus_one(p->n[1]), z, PRE_ZERO);
    return 2;
}

/* node-semver's replaceCaret: the first non-zero part may not change. */
static size_t sv_caret(const sv_partial *p, sv_comparator out[2])
{
    snum z = snum_of(EMPTY);
    if (p->x[0])
        return 0;
    out[0] = sv_make(SV_GE, p->n[0], p->n[1], p->n[2], p->pre);
    if (p->x[1] || !snum_is_zero(&p->n[0]))
        out[1] = sv_make(SV_LT, snum_plus_one(p->n[0]), z, z, PRE_ZERO);
    else if (p->x[2] || !snum_is_zero(&p->n[1]))
        out[1] = sv_make(SV_LT, p->n[0], snum_plus_one(p->n[1]), z, PRE_ZERO);
    else
        out[1] = sv_make(SV_LT, p->n[0], p->n[1], snum_plus_one(p->n[2]), PRE_ZERO);
    return 2;
}

/* The exclusive upper bound of an x-range: 1.x is below 2.0.0-0, 1.2.x below 1.3.0-0. */
static sv_comparator sv_x_upper(const sv_partial *p)
{
    snum z = snum_of(EMPTY);
    return p->x[1] ? sv_make(SV_LT, snum_plus_one(p->n[0]), z, z, PRE_ZERO)
                   : sv_make(SV_LT, p->n[0], snum_plus_one(p->n[1]), z, PRE_ZERO);
}

/* node-semver's replaceXRange, and plain comparators when nothing is a wildcard. */
static size_t sv_xrange(range_op op, const sv_partial *p, sv_comparator out[2])
{
    snum z = snum_of(EMPTY);
    if (p->x[0]) {
        if (op == RG_LT || op == RG_GT) {
            out[0] = sv_make(SV_LT, z, z, z, PRE_ZERO); /* <* and >* match nothing */
            return 1;
        }
        return 0;
    }
    if (!p->x[2]) {
        static const sv_op plain[] = {[RG_EQ] = SV_EQ, [RG_LT] = SV_LT, [RG_LE] = SV_LE,
                                      [RG_GT] = SV_GT, [RG_GE] = SV_GE};
        out[0] = sv_make(plain[op], p->n[0], p->n[1], p->n[2], p->pre);
        return 1;
    }
    switch (op) {
    case RG_GT: { /* >1 := >=2.0.0, >1.2 := >=1.3.0 */
        sv_comparator up = sv_x_upper(p);
        out[0] = sv_make(SV_GE, up.v.n[0], up.v.n[1], up.v.n[2], EMPTY);
        return 1;
    }
    case RG_LE: /* <=1.2 := <1.3.0-0 */
        out[0] = sv_x_upper(p);
        return 1;
    case RG_LT: /* <1.2 := <1.2.0-0 */
        out[0] = sv_make(SV_LT, p->n[0], p->n[1], z, PRE_ZERO);
        return 1;
    case RG_GE:
        out[0] = sv_make(SV_GE, p->n[0], p->n[1], z, EMPTY);
        return 1;
    default: /* 1.x := >=1.0.0 <2.0.0-0 */
        out[0] = sv_make(SV_GE, p->n[0], p->n[1], z, EMPTY);
        out[1] = sv_x_upper(p);
        return 2;
    }
}

/* node-semver's hyphenReplace: 1.2 - 2.3 := >=1.2.0 <2.4.0-0. */
static size_t sv_hyphen(const sv_partial *from, const sv_partial *to, sv_comparator out[2])
{
    size_t n = 0;
    if (!from->x[0])
        out[n++] = sv_make(SV_GE, from->n[0], from->n[1], from->n[2], from->pre);
    if (!to->x[0])
        out[n++] = to->x[2] ? sv_x_upper(to)
                            : sv_make(SV_LE, to->n[0], to->n[1], to->n[2], to->pre);
    return n;
}

/* What a set has shown so far about the version. */
typedef struct {
    bool all;    /* every comparator holds */
    bool pre_ok; /* a comparator has a pre-release on the version's own MAJOR.MINOR.PATCH */
} sv_tally;

static void sv_apply(const sv_comparator *c, size_t n, const sv_version *v, sv_tally *t)
{
    for (size_t k = 0; k < n; k++) {
        if (!sv_test(&c[k], v))
            t->all = false;
        if (c[k].v.pre.n && snum_cmp(&c[k].v.n[0], &v->n[0]) == 0 &&
            snum_cmp(&c[k].v.n[1], &v->n[1]) == 0 && snum_cmp(&c[k].v.n[2], &v->n[2]) == 0)
            t->pre_ok = true;
    }
}

/* The next blank-separated word of *rest. */
static span take_token(span *rest)
{
    *rest = trim(*rest);
    size_t k = 0;
    while (k < rest->n && !is_blank(rest->p[k]))
        k++;
    span w = sub(*rest, 0, k);
    *rest = sub(*rest, k, rest->n);
    return w;
}

/* Whether the set is a hyphen range "A - B" (exactly three words, the middle one "-"). */
static bool sv_is_hyphen(span set, span *from, span *to)
{
    span rest = set, w[3];
    for (int k = 0; k < 3; k++)
        w[k] = take_token(&rest);
    *from = w[0], *to = w[2];
    return !trim(rest).n && w[2].n && w[1].n == 1 && w[1].p[0] == '-';
}

static bool sv_set_holds(span set, const sv_version *v, bool *holds, char *why, size_t why_size)
{
    sv_comparator c[2];
    sv_tally t = {true, false};
    span from, to;
    if (sv_is_hyphen(set, &from, &to)) {
        sv_partial a, b;
        if (!sv_partial_parse(from, &a, why, why_size) || !sv_partial_parse(to, &b, why, why_size))
            return false;
        sv_apply(c, sv_hyphen(&a, &b, c), v, &t);
    } else {
        span rest = trim(set);
        while (rest.n) {
            size_t i = 0;
            range_op op = take_range_op(rest, &i);
            rest = sub(rest, i, rest.n);
            span word = take_token(&rest);
            sv_partial p;
            if (!word.n) {
                say(why, why_size, "an operator in '%.*s' has no version after it", shown(set),
                    set.p);
                return false;
            }
            if (!sv_partial_parse(word, &p, why, why_size))
                return false;
            size_t n = op == RG_TILDE ? sv_tilde(&p, c)
                       : op == RG_CARET ? sv_caret(&p, c)
                                        : sv_xrange(op, &p, c);
            sv_apply(c, n, v, &t);
            rest = trim(rest);
        }
    }
    *holds = t.all && (!v->pre.n || t.pre_ok);
    return true;
}

vmatch semver_satisfies(span version, span range, char *why, size_t why_size)
{
    sv_version v;
    if (!sv_version_parse(version, &v, why, why_size))
        return VMATCH_UNKNOWN;
    bool any = false;
    span rest = range;
    for (;;) {
        size_t bar = find(rest, "||");
        bool holds;
        if (!sv_set_holds(sub(rest, 0, bar), &v, &holds, why, why_size))
            return VMATCH_UNKNOWN;
        any = any || holds;
        if (bar == rest.n)
            break;
        rest = sub(rest, bar + 2, rest.n);
    }
    if (any)
        say(why, why_size, "%s", "");
    else
        say(why, why_size, "'%.*s' is outside '%.*s'", shown(version), version.p, shown(range),
            range.p);
    return any ? VMATCH_YES : VMATCH_NO;
}

bool semver_compare(span a, span b, int *c)
{
    sv_version x, y;
    if (!sv_version_parse(a, &x, NULL, 0) || !sv_version_parse(b, &y, NULL, 0))
        return false;
    *c = sv_cmp(&x, &y);
    return true;
}
