/* resolved_use.c - resolved values as the rules use them (see
 * resolved_use.h). */
#include "config.h"

#include "resolved_use.h"

#include <stdlib.h>
#include <string.h>

#include "sandlint/rule.h"
#include "xalloc.h"

void resolved_uses_read(struct resolved_uses *uses, size_t rule,
                        const struct sl_value *value)
{
    if (!(value->flags & SL_VALUE_RESOLVED) || value->origin != SL_ORIGIN_OWN)
        return;
    for (size_t i = 0; i < uses->count; i++)
        if (uses->items[i].value == value)
            return;
    if (uses->count == uses->capacity) {
        uses->capacity = uses->capacity ? uses->capacity * 2 : 8;
        uses->items = xrealloc(uses->items, uses->capacity, sizeof(*uses->items));
    }
    uses->items[uses->count++] = (struct resolved_use){ value, rule, false };
}

/* Whether a finding at node keyed by value is about the resolved value. */
static bool is_about(const struct sl_value *resolved, const struct sl_node *node,
                     const char *value, size_t value_length)
{
    if (node != resolved->node && node != resolved->key)
        return false;
    return value == NULL ||
           (value_length == resolved->text_length &&
            memcmp(value, resolved->text, value_length) == 0);
}

/* Text for a message: at most SL_QUOTE_MAX bytes, cut with "...". */
static char *quoted(const char *text, size_t length)
{
    char buffer[SL_QUOTE_SIZE];
    return xstrdup(sl_quote(buffer, sizeof(buffer), text, length));
}

char *resolved_uses_message(struct resolved_uses *uses, const struct sl_node *node,
                            const char *value, size_t value_length, const char *message)
{
    for (size_t i = 0; i < uses->count; i++) {
        struct resolved_use *use = &uses->items[i];
        if (!is_about(use->value, node, value, value_length))
            continue;
        use->reported = true;
        char *written = quoted(use->value->written, use->value->written_length);
        char *text = quoted(use->value->text, use->value->text_length);
        char *full = xasprintf("%s (written '%s', which resolves to '%s': %.*s)", message,
                               written, text, (int)use->value->resolved_from_length,
                               use->value->resolved_from);
        free(written);
        free(text);
        return full;
    }
    return NULL;
}

void resolved_uses_release(struct resolved_uses *uses)
{
    free(uses->items);
    memset(uses, 0, sizeof(*uses));
}
