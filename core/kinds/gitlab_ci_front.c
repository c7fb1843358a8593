/* gitlab_ci_front.c - GitLab CI files (see gitlab_ci_front.h). */
#include "config.h"

#include "gitlab_ci_front.h"

#include <string.h>

#include "shell_front.h"
#include "yaml_model.h"

/* How deep lists of script lines nest (!reference results are lists in
 * lists); deeper ones are YAML limits' business, not read here. */
#define SCRIPT_NESTING 8

static void read_script(struct model_reading *reading, const struct sl_node *key,
                        const struct sl_node *script, unsigned depth)
{
    if (script == NULL)
        return;
    if (script->kind == SL_NODE_SCALAR) {
        shell_front_read_scalar(reading, key, script, SL_KIND_GITLAB_CI);
        return;
    }
    if (script->kind != SL_NODE_SEQUENCE || depth >= SCRIPT_NESTING)
        return;
    for (size_t i = 0; i < script->u.sequence.count; i++) {
        const struct sl_node *item = script->u.sequence.items[i];
        /* A block scalar item's lines are indented as its indicator is,
         * two columns past its "- ". */
        struct sl_node dash = *item;
        dash.column = item->column > 2 ? item->column - 2 : 1;
        read_script(reading, &dash, item, depth + 1);
    }
}

static void read_scripts(struct model_reading *reading, const struct sl_node *holder)
{
    static const char *const keys[] = { "before_script", "script", "after_script" };
    for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
        const struct sl_node *key;
        const struct sl_node *script = model_mapping_get(holder, keys[i], strlen(keys[i]), &key);
        read_script(reading, key, script, 0);
    }
}

void gitlab_ci_front_read(struct model_reading *reading, const struct sl_node *root)
{
    if (root == NULL || root->kind != SL_NODE_MAPPING)
        return;
    /* The old global before_script and after_script. */
    read_scripts(reading, root);
    for (size_t i = 0; i < root->u.mapping.count; i++) {
        const struct model_pair *pair = &root->u.mapping.pairs[i];
        if (pair->key->kind != SL_NODE_SCALAR || pair->value->kind != SL_NODE_MAPPING)
            continue;
        /* Every job, hidden job and default: alike; the other top-level
         * keys (variables, workflow, include...) hold no script. */
        read_scripts(reading, pair->value);
    }
}
