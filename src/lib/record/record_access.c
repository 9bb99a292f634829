/*
 * record_access.c — the public accessors of errata_record (errata.h).
 */
#include "record.h"

#include <string.h>

const char *errata_record_id(const errata_record *r) { return r->id; }
const char *errata_record_domain(const errata_record *r) { return r->domain; }
const char *errata_record_category(const errata_record *r) { return r->category; }
const char *errata_record_signature(const errata_record *r) { return r->signature; }
const char *errata_record_regex(const errata_record *r) { return r->regex; }
const char *errata_record_root_cause(const errata_record *r) { return r->root_cause; }
const char *errata_record_verification_tier(const errata_record *r)
{
    return r->verification_tier;
}
double errata_record_confidence(const errata_record *r) { return r->confidence; }
double errata_record_fix_success_rate(const errata_record *r) { return r->fix_success_rate; }

size_t errata_record_workaround_count(const errata_record *r) { return r->n_workarounds; }
const char *errata_record_workaround_action(const errata_record *r, size_t i)
{
    return i < r->n_workarounds ? r->workarounds[i].action : NULL;
}
const char *errata_record_workaround_how(const errata_record *r, size_t i)
{
    return i < r->n_workarounds ? r->workarounds[i].how : NULL;
}
double errata_record_workaround_success_rate(const errata_record *r, size_t i)
{
    return i < r->n_workarounds ? r->workarounds[i].success_rate : 0.0;
}

size_t errata_record_dead_end_count(const errata_record *r) { return r->n_dead_ends; }
const char *errata_record_dead_end_action(const errata_record *r, size_t i)
{
    return i < r->n_dead_ends ? r->dead_ends[i].action : NULL;
}
const char *errata_record_dead_end_why_fails(const errata_record *r, size_t i)
{
    return i < r->n_dead_ends ? r->dead_ends[i].why_fails : NULL;
}
double errata_record_dead_end_fail_rate(const errata_record *r, size_t i)
{
    return i < r->n_dead_ends ? r->dead_ends[i].fail_rate : 0.0;
}

static size_t workaround_rank(const record *r, size_t i)
{
    size_t rank = 0;
    for (size_t j = 0; j < r->n_workarounds; j++) {
        double rj = r->workarounds[j].success_rate, ri = r->workarounds[i].success_rate;
        rank += rj > ri || (rj == ri && j < i);
    }
    return rank;
}

bool record_is_transient(const record *r)
{
    return r->transient >= 0 ? r->transient == 1 : strcmp(r->category, "network_error") == 0;
}

int errata_record_transient(const errata_record *r) { return record_is_transient(r); }

static bool item_names(const char *item, size_t n, const record *r)
{
    if (n == 3 && memcmp(item, "any", 3) == 0)
        return true;
    if (n == 9 && memcmp(item, "transient", 9) == 0)
        return record_is_transient(r);
    if (n == 6 && memcmp(item, "defect", 6) == 0)
        return !record_is_transient(r);
    return strlen(r->category) == n && memcmp(r->category, item, n) == 0;
}

int record_in_list(const record *r, const char *list)
{
    int found = 0;
    for (const char *p = list;;) {
        size_t n = strcspn(p, ",");
        for (size_t i = 0; i < n; i++)
            if (!((p[i] >= 'a' && p[i] <= 'z') || p[i] == '_' || (p[i] >= '0' && p[i] <= '9')))
                return -1;
        if (n == 0)
            return -1;
        found = found || item_names(p, n, r);
        if (!p[n])
            return found;
        p += n + 1;
    }
}

size_t record_workaround_at(const record *r, size_t k)
{
    for (size_t i = 0; i < r->n_workarounds; i++)
        if (workaround_rank(r, i) == k)
            return i;
    return k; /* unreachable: ranks are a permutation of 0..n-1 */
}

static const char *zh_item(const strvec *zh, size_t i)
{
    return i < zh->n && zh->v[i][0] ? zh->v[i] : NULL;
}

const char *record_workaround_zh(const record *r, size_t i) { return zh_item(&r->workarounds_zh, i); }
const char *record_dead_end_zh(const record *r, size_t i) { return zh_item(&r->dead_ends_zh, i); }
