/*
 * applicability.c — see applicability.h; the rules are documented in docs/format.md,
 * "Applicability".
 *
 * Entries of versions[] that name the same package are alternatives (the failure happens in any
 * of those ranges); entries that name different packages must all hold (transformers>=4.38 and
 * peft>=0.9 and torch>=2.2). An entry's introduced and removed narrow its range: the failure
 * starts at introduced and is gone from removed on.
 */
#define _GNU_SOURCE
#include "applicability.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "version.h"

const char *applicability_name(errata_applicability state)
{
    switch (state) {
    case ERRATA_APPLICABILITY_APPLIES: return "applies";
    case ERRATA_APPLICABILITY_NOT_AFFECTED: return "not_affected";
    case ERRATA_APPLICABILITY_UNKNOWN: break;
    }
    return "unknown";
}

/* The specifier of one versions[] entry with its introduced and removed bounds added. Records
 * join clauses with a comma whatever the ecosystem ("react>=18,<19"), as PEP 440 does; npm
 * ranges join them with a space and never use a comma, so for them the comma becomes a space. */
static char *entry_specifier(const char *spec, const rec_version *v, version_scheme scheme)
{
    strbuf sb;
    sb_init(&sb);
    const char *and = scheme == VSCHEME_SEMVER ? " " : ",";
    for (const char *p = spec; *p; p++)
        sb_putc(&sb, *p == ',' && scheme == VSCHEME_SEMVER ? ' ' : *p);
    if (v->introduced && *v->introduced)
        sb_printf(&sb, "%s>=%s", sb.len ? and : "", v->introduced);
    if (v->removed && *v->removed)
        sb_printf(&sb, "%s<%s", sb.len ? and : "", v->removed);
    return sb_finish(&sb);
}

typedef struct {
    char *package;
    vmatch verdict;   /* over all of the package's entries */
    char why[512];    /* for NO and UNKNOWN */
    const env_package *found;
} package_verdict;

/* Decides one package over its entries (alternatives). */
static void decide_package(const record *r, size_t first, const environment *env,
                           package_verdict *pv)
{
    pv->found = env ? env_find(env, pv->package) : NULL;
    if (!env) {
        pv->verdict = VMATCH_UNKNOWN;
        snprintf(pv->why, sizeof pv->why, "no environment given");
        return;
    }
    if (!pv->found) {
        pv->verdict = VMATCH_UNKNOWN;
        snprintf(pv->why, sizeof pv->why, "%s is not in the environment", pv->package);
        return;
    }
    version_scheme scheme = env_version_scheme(pv->found->eco);
    const char *have = env_comparable_version(pv->found->eco, pv->found->version);
    bool any_unknown = false;
    char first_no[400] = "";
    for (size_t i = first; i < r->n_versions; i++) {
        char *pkg = NULL, *spec = NULL, why[256];
        if (!version_requirement_split(r->versions[i].version, &pkg, &spec, why, sizeof why))
            continue; /* a malformed entry decides nothing: validate reports it */
        bool same = strcasecmp(pkg, pv->package) == 0;
        char *full = same ? entry_specifier(spec, &r->versions[i], scheme) : NULL;
        free(pkg);
        free(spec);
        if (!same)
            continue;
        vmatch m = full ? version_satisfies(scheme, have, full, why, sizeof why) : VMATCH_UNKNOWN;
        if (m == VMATCH_YES) {
            pv->verdict = VMATCH_YES;
            free(full);
            return;
        }
        if (m == VMATCH_UNKNOWN && !any_unknown) {
            any_unknown = true;
            snprintf(pv->why, sizeof pv->why, "%s %s cannot be compared with %s%s (%s)",
                     pv->package, pv->found->version, pv->package, full ? full : "", why);
        }
        if (m == VMATCH_NO && !first_no[0])
            snprintf(first_no, sizeof first_no, "%s %s does not satisfy %s%s", pv->package,
                     pv->found->version, pv->package, full ? full : "");
        free(full);
    }
    if (any_unknown) {
        pv->verdict = VMATCH_UNKNOWN;
        return;
    }
    pv->verdict = VMATCH_NO;
    snprintf(pv->why, sizeof pv->why, "%s", first_no[0] ? first_no : "no range matched");
}

static void os_note(const record *r, const environment *env, applicability *out)
{
    if (!env || !env->os_id || r->n_os_specific == 0)
        return;
    for (size_t i = 0; i < r->n_os_specific; i++)
        if (strcasecmp(r->os_specific[i].key, env->os_id) == 0) {
            out->os_key = r->os_specific[i].key;
            out->os_note = r->os_specific[i].value;
            return;
        }
    /* An os-release file means Linux, whatever the distribution. */
    for (size_t i = 0; i < r->n_os_specific; i++)
        if (strcasecmp(r->os_specific[i].key, "linux") == 0) {
            out->os_key = r->os_specific[i].key;
            out->os_note = r->os_specific[i].value;
            return;
        }
}

bool applicability_of(const record *r, const environment *env, applicability *out)
{
    memset(out, 0, sizeof *out);
    os_note(r, env, out);
    strbuf why;
    sb_init(&why);
    errata_applicability state = ERRATA_APPLICABILITY_APPLIES;
    size_t decided = 0;
    char seen[64][128];
    size_t n_seen = 0;
    for (size_t i = 0; i < r->n_versions; i++) {
        package_verdict pv = {0};
        char *spec = NULL, msg[256];
        if (!version_requirement_split(r->versions[i].version, &pv.package, &spec, msg, sizeof msg))
            continue;
        free(spec);
        bool dup = false;
        for (size_t k = 0; k < n_seen && !dup; k++)
            dup = strcasecmp(seen[k], pv.package) == 0;
        if (dup || n_seen == 64) {
            free(pv.package);
            continue;
        }
        snprintf(seen[n_seen++], sizeof seen[0], "%s", pv.package);
        decide_package(r, i, env, &pv);
        decided++;
        if (pv.verdict == VMATCH_NO) {
            if (state != ERRATA_APPLICABILITY_NOT_AFFECTED) {
                sb_free(&why);
                sb_init(&why);
                sb_puts(&why, pv.why);
                out->source = pv.found ? pv.found->source : NULL;
            }
            state = ERRATA_APPLICABILITY_NOT_AFFECTED;
        } else if (pv.verdict == VMATCH_UNKNOWN && state == ERRATA_APPLICABILITY_APPLIES) {
            state = ERRATA_APPLICABILITY_UNKNOWN;
            sb_free(&why);
            sb_init(&why);
            sb_puts(&why, pv.why);
        } else if (pv.verdict == VMATCH_YES && state == ERRATA_APPLICABILITY_APPLIES) {
            sb_printf(&why, "%s%s %s", why.len ? ", " : "", pv.package, pv.found->version);
            if (!out->source)
                out->source = pv.found->source;
        }
        free(pv.package);
    }
    if (decided == 0) {
        sb_free(&why);
        sb_init(&why);
        sb_puts(&why, "the record does not depend on versions");
    } else if (state == ERRATA_APPLICABILITY_APPLIES) {
        sb_puts(&why, decided == 1 ? " is in the affected range"
                                   : " are in the affected ranges");
    }
    out->state = state;
    out->reason = sb_finish(&why);
    return out->reason != NULL;
}

void applicability_clear(applicability *a)
{
    free(a->reason);
    memset(a, 0, sizeof *a);
}
