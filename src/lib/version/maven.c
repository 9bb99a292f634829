/*
 * maven.c — Java artifact versions and Maven version ranges; see version.h.
 *
 * Maven (maven-artifact 3.8: ComparableVersion and VersionRange; pom.html, "Version Order
 * Specification")
 *   Order: ComparableVersion's as of Maven 3.8 (the order changed in details between 3.0, 3.8
 *   and 3.9; 3.8's is the one its own test suite pins down). Tokens split at ".", "-" and
 *   digit/letter transitions; "-" and transitions open a sub-list; empty tokens are 0; trailing
 *   null tokens (0, "", ga, final, release) are trimmed list by list from the end; alpha = a <
 *   beta = b < milestone = m < rc = cr < snapshot < "" = ga = final = release < sp < any other
 *   qualifier (lexically, case-insensitive), where a, b and m are short forms only when a digit
 *   follows; a number is after a qualifier and after a sub-list (1.foo < 1-foo < 1-1 < 1.1); a
 *   sub-list against padding is decided by its first non-null token (1-0.alpha < 1). "_" is an
 *   ordinary character, as in ComparableVersion. Any text is a version except one that is
 *   empty or holds blanks, control characters or the range characters "[](),".
 *   Like ComparableVersion's, this order is not transitive where qualifiers and sub-lists mix
 *   (any sub-list is after any qualifier, whatever each holds): 1.0-SNAPSHOT < 1.0.RELEASE <
 *   1.SNAP0-sp1 < 1.0-SNAPSHOT, in Maven 3.8 as here. Ranges compare a version with each bound
 *   on its own, so their answers do not depend on it.
 *   Ranges: [a,b] (a,b) [a,b) (a,b] with either bound left out, [v] exact, and unions such as
 *   "(,1.0],[1.2,)"; refused as VersionRange refuses them: (v) or [v) single versions,
 *   identical bounds, bounds out of order, overlapping ranges, an unclosed range, a bare version
 *   after ranges.
 *   Choice: a plain version ("1.0"), a soft requirement to Maven's resolver, means that exact
 *   version here (by ComparableVersion equality, so 1.0 == 1 == 1.0.0-ga): a record that names
 *   one version saw the error on that version, not on every version.
 */
#include "version_schemes.h"

/* ------------------------------------------------------------------ Maven */

/* Qualifier ranks in ComparableVersion's order; MQ_OTHER ones are then ordered by their text. */
enum { MQ_ALPHA, MQ_BETA, MQ_MILESTONE, MQ_RC, MQ_SNAPSHOT, MQ_RELEASE, MQ_SP, MQ_OTHER };

typedef struct {
    bool is_number;
    span text; /* a number's digits without leading zeros, or a qualifier as written */
    int rank;  /* a qualifier's MQ_* */
} mv_item;

/* ComparableVersion's nested lists form a chain: a sub-list is always the last element of its
 * list. So a version is a run of lists, each a run of items followed by the next list. */
typedef struct {
    size_t first, count; /* items[first .. first + count) */
} mv_list;

typedef struct {
    mv_item *items;
    size_t n_items;
    mv_list *lists;
    size_t n_lists; /* list k + 1 is the last element of list k */
} mv_version;

static mv_item mv_qualifier(span q, bool before_digit)
{
    static const struct {
        const char *word;
        int rank;
    } known[] = {{"alpha", MQ_ALPHA},       {"beta", MQ_BETA},   {"milestone", MQ_MILESTONE},
                 {"rc", MQ_RC},             {"cr", MQ_RC},       {"snapshot", MQ_SNAPSHOT},
                 {"ga", MQ_RELEASE},        {"final", MQ_RELEASE}, {"release", MQ_RELEASE},
                 {"sp", MQ_SP}};
    mv_item it = {false, q, MQ_OTHER};
    if (before_digit && q.n == 1) { /* 1a1 is 1-alpha-1, but 1a is 1-a */
        char c = lower(q.p[0]);
        if (c == 'a' || c == 'b' || c == 'm')
            it.rank = c == 'a' ? MQ_ALPHA : c == 'b' ? MQ_BETA : MQ_MILESTONE;
        if (it.rank != MQ_OTHER)
            return it;
    }
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (ci_eq(q, known[k].word))
            it.rank = known[k].rank;
    return it;
}

static mv_item mv_token(span s, bool digits)
{
    return digits ? (mv_item){true, num_trim(s), 0} : mv_qualifier(s, false);
}

static void mv_add(mv_version *v, mv_item it)
{
    v->items[v->n_items++] = it;
    v->lists[v->n_lists - 1].count++;
}

static void mv_open_list(mv_version *v) { v->lists[v->n_lists++] = (mv_list){v->n_items, 0}; }

static bool mv_item_is_null(const mv_item *it)
{
    return it->is_number ? it->text.n == 0 : it->rank == MQ_RELEASE;
}

/* ListItem.normalize, innermost list first: an empty last sub-list goes, then trailing null
 * items go until a non-null item (a non-empty sub-list is stepped over). */
static void mv_normalize(mv_version *v)
{
    for (size_t k = v->n_lists; k-- > 0;) {
        if (k + 2 == v->n_lists && v->lists[k + 1].count == 0)
            v->n_lists = k + 1;
        mv_list *l = &v->lists[k];
        while (l->count && mv_item_is_null(&v->items[l->first + l->count - 1]))
            l->count--;
    }
}

static void mv_free(mv_version *v)
{
    free(v->items);
    free(v->lists);
    *v = (mv_version){0};
}

/* ComparableVersion.parseVersion. Every character adds at most one item and one list, so
 * both arrays are sized once from the length. */
static bool mv_parse(span text, mv_version *v, char *why, size_t why_size)
{
    span s = trim(text);
    *v = (mv_version){0};
    for (size_t i = 0; i < s.n; i++)
        if (is_blank(s.p[i]) || is_control(s.p[i]) || strchr("[](),", s.p[i])) {
            say(why, why_size, "'%.*s' is not a Maven version: it holds '%c'", shown(s), s.p,
                is_control(s.p[i]) ? '?' : s.p[i]);
            return false;
        }
    if (!s.n) {
        say(why, why_size, "an empty Maven version");
        return false;
    }
    v->items = calloc(s.n + 1, sizeof *v->items);
    v->lists = calloc(s.n + 1, sizeof *v->lists);
    if (!v->items || !v->lists) {
        mv_free(v);
        say(why, why_size, "out of memory");
        return false;
    }
    mv_open_list(v);
    bool digit = false;
    size_t start = 0;
    for (size_t i = 0; i < s.n; i++) {
        char c = s.p[i];
        if (c == '.' || c == '-') {
            mv_add(v, i == start ? mv_token(EMPTY, true) : mv_token(sub(s, start, i), digit));
            start = i + 1;
            if (c == '-')
                mv_open_list(v);
        } else if (is_digit(c)) {
            if (!digit && i > start) { /* qualifier then number: "alpha1" */
                mv_add(v, mv_qualifier(sub(s, start, i), true));
                start = i;
                mv_open_list(v);
            }
            digit = true;
        } else {
            if (digit && i > start) { /* number then qualifier: "1alpha" */
                mv_add(v, mv_token(sub(s, start, i), true));
                start = i;
                mv_open_list(v);
            }
            digit = false;
        }
    }
    if (s.n > start)
        mv_add(v, mv_token(sub(s, start, s.n), digit));
    mv_normalize(v);
    return true;
}

/* The element at position i of list k: an item, the next list, or nothing. */
typedef enum { MV_NOTHING, MV_ITEM, MV_LIST } mv_elem_kind;

static mv_elem_kind mv_elem(const mv_version *v, size_t k, size_t i, const mv_item **item)
{
    const mv_list *l = &v->lists[k];
    if (i < l->count) {
        *item = &v->items[l->first + i];
        return MV_ITEM;
    }
    return i == l->count && k + 1 < v->n_lists ? MV_LIST : MV_NOTHING;
}

/* An item against padding: 1.0 == 1, 1-rc < 1, 1-sp > 1. */
static int mv_item_vs_nothing(const mv_item *it)
{
    if (it->is_number)
        return it->text.n ? 1 : 0;
    return it->rank < MQ_RELEASE ? -1 : it->rank > MQ_RELEASE ? 1 : 0;
}

/* List k against padding: its first element that is not null decides, the sub-list included
 * (MNG-6964: 1-0.alpha < 1); looping down the chain instead of recursing. */
static int mv_list_vs_nothing(const mv_version *v, size_t k)
{
    for (; k < v->n_lists; k++) {
        const mv_list *l = &v->lists[k];
        for (size_t i = 0; i < l->count; i++) {
            int r = mv_item_vs_nothing(&v->items[l->first + i]);
            if (r)
                return r;
        }
    }
    return 0;
}

static int mv_item_cmp(const mv_item *a, const mv_item *b)
{
    if (a->is_number || b->is_number) /* a number is after a qualifier: 1.1 > 1-sp */
        return a->is_number && b->is_number ? num_cmp(a->text, b->text) : a->is_number ? 1 : -1;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return a->rank == MQ_OTHER ? ci_cmp(a->text, b->text) : 0;
}

/* ListItem.compareTo. Two sub-lists only meet as the last elements of both lists, so comparing
 * them is the rest of the comparison: a loop instead of ComparableVersion's recursion. */
static int mv_cmp(const mv_version *a, const mv_version *b)
{
    size_t ka = 0, kb = 0, i = 0;
    for (;;) {
        const mv_item *x = NULL, *y = NULL;
        mv_elem_kind ea = mv_elem(a, ka, i, &x), eb = mv_elem(b, kb, i, &y);
        int r;
        if (ea == MV_NOTHING && eb == MV_NOTHING)
            return 0;
        if (ea == MV_LIST && eb == MV_LIST) {
            ka++, kb++, i = 0;
            continue;
        }
        if (ea == MV_NOTHING)
            r = -(eb == MV_ITEM ? mv_item_vs_nothing(y) : mv_list_vs_nothing(b, kb + 1));
        else if (eb == MV_NOTHING)
            r = ea == MV_ITEM ? mv_item_vs_nothing(x) : mv_list_vs_nothing(a, ka + 1);
        else if (ea == MV_ITEM && eb == MV_ITEM)
            r = mv_item_cmp(x, y);
        else if (ea == MV_LIST) /* 1-1 < 1.1, 1-1 > 1-sp */
            r = y->is_number ? -1 : 1;
        else
            r = x->is_number ? 1 : -1;
        if (r)
            return r;
        i++;
    }
}

/* One bound of a range; has is false for a side left open. */
typedef struct {
    bool has, inclusive;
    mv_version v;
} mv_bound;

/* VersionRange.parseRestriction on "[a,b)" and the like. */
static bool mv_restriction(span r, mv_bound *lo, mv_bound *hi, char *why, size_t why_size)
{
    *lo = (mv_bound){.inclusive = r.p[0] == '['};
    *hi = (mv_bound){.inclusive = r.p[r.n - 1] == ']'};
    span inner = trim(sub(r, 1, r.n - 1));
    const char *comma = memchr(inner.p, ',', inner.n);
    if (!comma) {
        if (!lo->inclusive || !hi->inclusive) {
            say(why, why_size, "Maven range '%.*s': a single version must be in [ ]", shown(r),
                r.p);
            return false;
        }
        lo->has = hi->has = true;
        return mv_parse(inner, &lo->v, why, why_size) && mv_parse(inner, &hi->v, why, why_size);
    }
    span low = trim(sub(inner, 0, (size_t)(comma - inner.p)));
    span high = trim(sub(inner, (size_t)(comma - inner.p) + 1, inner.n));
    if (bytes_cmp(low, high) == 0) {
        say(why, why_size, "Maven range '%.*s' has identical bounds", shown(r), r.p);
        return false;
    }
    if ((low.n && !(lo->has = mv_parse(low, &lo->v, why, why_size))) ||
        (high.n && !(hi->has = mv_parse(high, &hi->v, why, why_size))))
        return false;
    if (lo->has && hi->has && mv_cmp(&hi->v, &lo->v) < 0) {
        say(why, why_size, "Maven range '%.*s' has its bounds out of order", shown(r), r.p);
        return false;
    }
    return true;
}

static bool mv_contains(const mv_bound *lo, const mv_bound *hi, const mv_version *v)
{
    if (lo->has) {
        int c = mv_cmp(&lo->v, v);
        if (c > 0 || (c == 0 && !lo->inclusive))
            return false;
    }
    if (hi->has) {
        int c = mv_cmp(&hi->v, v);
        if (c < 0 || (c == 0 && !hi->inclusive))
            return false;
    }
    return true;
}

/* VersionRange.createFromVersionSpec's loop over "[1,2),[3,)": each range starts where the
 * previous one ended (no overlap), and nothing but ranges may follow. */
static vmatch mv_in_ranges(span spec, const mv_version *v, char *why, size_t why_size)
{
    mv_version prev_upper = {0}; /* the previous range's upper bound, if it had one */
    bool have_prev = false, inside = false, ok = true;
    span rest = spec;
    while (ok && rest.n && (rest.p[0] == '[' || rest.p[0] == '(')) {
        size_t close = 0;
        while (close < rest.n && rest.p[close] != ']' && rest.p[close] != ')')
            close++;
        if (close == rest.n) {
            say(why, why_size, "Maven range '%.*s' is not closed", shown(rest), rest.p);
            ok = false;
            break;
        }
        mv_bound lo, hi;
        ok = mv_restriction(sub(rest, 0, close + 1), &lo, &hi, why, why_size);
        if (ok && have_prev && (!lo.has || mv_cmp(&lo.v, &prev_upper) < 0)) {
            say(why, why_size, "Maven ranges '%.*s' overlap", shown(spec), spec.p);
            ok = false;
        }
        if (ok && mv_contains(&lo, &hi, v))
            inside = true;
        mv_free(&prev_upper);
        prev_upper = hi.v, have_prev = hi.has;
        hi.v = (mv_version){0};
        mv_free(&lo.v);
        rest = trim(sub(rest, close + 1, rest.n));
        if (rest.n && rest.p[0] == ',')
            rest = trim(sub(rest, 1, rest.n));
    }
    mv_free(&prev_upper);
    if (ok && rest.n) {
        say(why, why_size, "Maven specifier '%.*s': only ranges may follow a range", shown(spec),
            spec.p);
        ok = false;
    }
    if (!ok)
        return VMATCH_UNKNOWN;
    return inside ? VMATCH_YES : VMATCH_NO;
}

vmatch maven_satisfies(span version, span spec, char *why, size_t why_size)
{
    mv_version v, exact;
    if (!mv_parse(version, &v, why, why_size))
        return VMATCH_UNKNOWN;
    vmatch r;
    if (spec.p[0] == '[' || spec.p[0] == '(') {
        r = mv_in_ranges(spec, &v, why, why_size);
    } else if (mv_parse(spec, &exact, why, why_size)) {
        r = mv_cmp(&v, &exact) == 0 ? VMATCH_YES : VMATCH_NO; /* the choice at the top */
        mv_free(&exact);
    } else {
        r = VMATCH_UNKNOWN;
    }
    mv_free(&v);
    if (r == VMATCH_YES)
        say(why, why_size, "%s", "");
    else if (r == VMATCH_NO)
        say(why, why_size, "'%.*s' is outside '%.*s'", shown(version), version.p, shown(spec),
            spec.p);
    return r;
}

bool maven_compare(span a, span b, int *c)
{
    mv_version x, y;
    bool px = mv_parse(a, &x, NULL, 0), py = mv_parse(b, &y, NULL, 0);
    if (px && py)
        *c = mv_cmp(&x, &y);
    mv_free(&x), mv_free(&y);
    return px && py;
}
