/*
 * rule_docs.h - print rules and plugins for people: --list-rules,
 * --list-plugins, --explain.
 */
#ifndef SANDLINT_RULE_DOCS_H
#define SANDLINT_RULE_DOCS_H

#include <stdio.h>

#include "registry.h"

void rule_docs_list_rules(FILE *out, const struct registry *registry);
void rule_docs_list_plugins(FILE *out, const struct registry *registry);
/* Returns 0, or -1 when no rule has that code or name. */
int rule_docs_explain(FILE *out, const struct registry *registry,
                      const char *rule);

#endif
