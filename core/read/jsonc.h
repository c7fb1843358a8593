/*
 * jsonc.h - JSON with comments and trailing commas (the dialect of dev
 * container files), read into the YAML model's node tree.
 *
 * Why a reader of our own: no JSON library Debian ships reports where a
 * value was written, and libyaml, given the same text with its comments
 * blanked out, rejects valid JSON (surrogate-pair escapes such as
 * "\ud83d\ude00", keys longer than 1,024 characters).  Building the same
 * struct sl_node tree as core/read/yaml_model.c means rules, host services
 * and the front-ends read a dev container exactly as they read YAML.
 *
 * What the tree holds, so that the node API answers as it does for YAML:
 *  - objects are mappings and arrays sequences, both SL_STYLE_FLOW (as
 *    libyaml reports "{...}" and "[...]");
 *  - strings are SL_STYLE_DOUBLE_QUOTED scalars holding the decoded UTF-8
 *    (every RFC 8259 escape; a surrogate pair becomes one code point and
 *    "\u0000" an embedded NUL byte: use the scalar's length);
 *  - numbers, true, false and null are SL_STYLE_PLAIN scalars holding the
 *    text as written ("1.50" stays "1.50"); null is a null node
 *    (model_is_null());
 *  - positions are 1-based line and column, end exclusive, with lines and
 *    columns counted as source_step() counts them (columns in code points):
 *    where libyaml accepts the same JSON, every node has the position the
 *    YAML model gives it;
 *  - of duplicate keys the later wins, with its own key node, at the place
 *    of the first (as the YAML model does); no key length limit.
 *
 * Accepted beyond RFC 8259: comments ("//" to the end of the line and
 * slash-star blocks) wherever whitespace may stand, a comma before a
 * closing bracket or brace ("[1,]"; not "[,]"), and a UTF-8 byte order mark
 * at the start.  Everything else is an error with its line and column:
 * unterminated strings and comments, bad escapes, lone surrogates, control
 * characters in strings, invalid numbers, words that are not true, false or
 * null, text after the value, an empty text, invalid UTF-8, NUL bytes,
 * nesting deeper than the model's depth limit, more nodes than its node
 * limit.
 *
 * Time and memory are linear in the text (duplicate keys are found by
 * sorting, never by a hash an attacker could flood), and nothing recurses.
 */
#ifndef SANDLINT_JSONC_H
#define SANDLINT_JSONC_H

#include <stddef.h>

#include "comment_list.h"
#include "yaml_model.h"

/*
 * Reads length bytes of text (UTF-8) into *model, which it always
 * initialises: on success one document, the root value; on failure
 * model->status and model->error say why and where, and no document is
 * kept (as model_parse() does).  limits may be NULL for the model's
 * defaults.  When comments is not NULL (an initialised list), every comment
 * read before the end or the error is appended to it, in text order, with
 * offsets into text.  Release the model with model_release() and the list
 * with comment_list_release().
 */
enum model_status jsonc_parse(struct yaml_model *model, const char *text, size_t length,
                              const struct model_limits *limits,
                              struct comment_list *comments);

#endif
