/*
 * resolved_use.h - interpolated values resolved from the project's .env or
 * a default, as the rules of one scope use them (SPEC §13, §17).
 *
 * A rule reads a resolved value like a literal one.  When it reports it,
 * the finding is keyed by the resolved value and its message gains the
 * value as written and where it resolved from.  When no rule reports it,
 * the value is no more checked than before: the deploy environment can
 * still change it, so what the first rule that read it reports about it
 * as written (the warning that it cannot be checked) is reported: the
 * checker runs that rule again after the scope's rules ran.  Either way
 * one finding per setting.
 */
#ifndef SANDLINT_RESOLVED_USE_H
#define SANDLINT_RESOLVED_USE_H

#include <stdbool.h>
#include <stddef.h>

#include "sandlint/plugin.h"

struct resolved_use {
    const struct sl_value *value;   /* the model's value (borrowed) */
    size_t rule;                    /* the first rule that read it */
    bool reported;                  /* a rule reported a finding about it */
};

/* The resolved values the rules of the scope being checked read. */
struct resolved_uses {
    struct resolved_use *items;
    size_t count, capacity;
};

/* Rule read value (the model's own): remembered when it is resolved and
 * written in the scope itself (a base's or a pod's is reported there). */
void resolved_uses_read(struct resolved_uses *uses, size_t rule,
                        const struct sl_value *value);

/* The message of a finding at node keyed by value (NULL for a switch):
 * when it is about a remembered value, that value is marked reported and
 * a malloc'd message returned that adds how it was written and where it
 * resolved from; else NULL. */
char *resolved_uses_message(struct resolved_uses *uses, const struct sl_node *node,
                            const char *value, size_t value_length, const char *message);

void resolved_uses_release(struct resolved_uses *uses);

#endif
