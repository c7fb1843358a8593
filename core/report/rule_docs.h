/*
 * rule_docs.h - print rules and plugins for people and tools:
 * --list-rules, --list-plugins (text or JSON), --explain.
 *
 * The JSON listings are documents of their own ("schema": 1), separate from
 * the findings report: --list-rules gives per rule its code, name, group
 * (and group selector), plugin, the kinds of file it checks, its default
 * and configured severity, whether it runs, its summary and the URL of its
 * documentation (null when the rule has none); --list-plugins gives per
 * plugin its name, version, summary, declared ABI, file (null for the
 * core's own diagnostics) and rule codes.
 */
#ifndef SANDLINT_RULE_DOCS_H
#define SANDLINT_RULE_DOCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "registry.h"

/* Schema version of the JSON listings; it changes when their fields do. */
#define RULE_DOCS_JSON_SCHEMA 1

/* json: the JSON document instead of the text table. */
void rule_docs_list_rules(FILE *out, const struct registry *registry, bool json);
void rule_docs_list_plugins(FILE *out, const struct registry *registry, bool json);

/*
 * The rule's documentation (by code or name), its prose wrapped to width
 * columns (at least 20; rule_docs_width() says what to use); examples,
 * keys and URLs are never broken.  Returns 0, or -1 when no rule has that
 * code or name.
 */
int rule_docs_explain(FILE *out, const struct registry *registry,
                      const char *rule, size_t width);

/* The width --explain wraps to: COLUMNS when it holds a positive number,
 * else the terminal's width when out is a terminal, else 80. */
size_t rule_docs_width(FILE *out);

#endif
