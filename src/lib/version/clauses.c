/*
 * clauses.c — comma-joined comparison clauses ("torch>=2.2.0,<2.5", "python>=3.11,<3.13"), the
 * specifier syntax PEP 440 and the generic scheme share; each scheme supplies its parse, check
 * and holds (clause_rules in version_schemes.h).
 */
#include "version_schemes.h"

/* ------------------------------------------------------------------ comma-joined clauses */

/* Reads one clause into its operator and its version; false (with why) when malformed. */
static bool parse_clause(const clause_rules *rules, span clause, clause_op *op, span *operand,
                         any_version *spec, char *why, size_t why_size)
{
    char detail[160] = "";
    bool ok = false;
    *operand = clause;
    *op = take_op(operand, rules->single_eq);
    *operand = trim(*operand);
    if (*op == OP_NONE)
        snprintf(detail, sizeof detail, "no comparison operator (==, !=, <, <=, >, >=, ~=)");
    else if (!operand->n || has_blank(*operand))
        snprintf(detail, sizeof detail, "one version must follow the operator");
    else /* === compares text, so its operand needs no parsing */
        ok = *op == OP_ARBITRARY ||
             (rules->parse(*operand, *op == OP_EQ || *op == OP_NE, spec, detail, sizeof detail) &&
              rules->check(*op, spec, detail, sizeof detail));
    if (!ok)
        say(why, why_size, "%s specifier clause '%.*s': %s", rules->name, shown(clause),
            clause.p, detail);
    return ok;
}

/* All clauses must hold. A malformed clause makes the whole specifier unknown, whatever the
 * others say; otherwise one clause that does not hold is a no, even beside unknown ones. */
vmatch clauses_satisfied(const clause_rules *rules, span version, span spec, char *why,
                                size_t why_size)
{
    any_version v, s;
    char vwhy[200] = "", reason[300] = "";
    bool v_ok = rules->parse(version, false, &v, vwhy, sizeof vwhy);
    vmatch all = VMATCH_YES;
    span rest = spec, clause, operand;
    while (next_field(&rest, ",", &clause)) {
        clause = trim(clause);
        if (!clause.n)
            continue;
        clause_op op;
        if (!parse_clause(rules, clause, &op, &operand, &s, why, why_size))
            return VMATCH_UNKNOWN;
        vmatch r;
        if (op == OP_ARBITRARY)
            r = ci_cmp(version, operand) == 0 ? VMATCH_YES : VMATCH_NO;
        else
            r = v_ok ? rules->holds(op, &v, &s) : VMATCH_UNKNOWN;
        if (r == VMATCH_NO && all != VMATCH_NO) {
            all = VMATCH_NO;
            snprintf(reason, sizeof reason, "'%.*s' does not satisfy '%.*s'", shown(version),
                     version.p, shown(clause), clause.p);
        } else if (r == VMATCH_UNKNOWN && all == VMATCH_YES) {
            all = VMATCH_UNKNOWN;
            if (!v_ok)
                snprintf(reason, sizeof reason, "%s", vwhy);
            else
                snprintf(reason, sizeof reason,
                         "cannot tell whether '%.*s' satisfies '%.*s': the numbers are equal and "
                         "the %s scheme cannot order the suffixes",
                         shown(version), version.p, shown(clause), clause.p, rules->name);
        }
    }
    say(why, why_size, "%s", reason);
    return all;
}
