/*
 * record_access.c — the public accessors of errata_record (errata.h).
 */
#include "record.h"

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
