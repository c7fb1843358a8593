/*
 * fuzz_engine_command.c - libFuzzer target: the front-ends of engine
 * command lines (core/kinds/shell_front.c, engine_command.c) and of a
 * GitLab Runner config.toml (gitlab_runner_front.c), the whole way to the
 * model: every step they hand over is taken, and every setting of every
 * container is filled in both views and its mounts walked, as the rules
 * do.  It checks that every node a finding could point at lies inside the
 * text (a line of it, a column no further than the line's length + 1).
 * The first input byte picks a shell script, a Makefile or a config.toml.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comment_list.h"
#include "container_model.h"
#include "front_ends.h"
#include "source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(condition)                                                     \
    do {                                                                     \
        if (!(condition)) {                                                  \
            fprintf(stderr, "fuzz_engine_command: %s:%d: %s\n", __FILE__,    \
                    __LINE__, #condition);                                   \
            __builtin_trap();                                                \
        }                                                                    \
    } while (0)

struct fuzz_sink {
    struct model_sink sink;     /* first: the sink is the struct */
    unsigned lines;             /* of the text, the last one too */
};

static void check_node(const struct fuzz_sink *fuzz, const struct sl_node *node)
{
    CHECK(node != NULL);
    CHECK(node->line >= 1 && node->line <= fuzz->lines);
    CHECK(node->column >= 1);
    CHECK(node->end_line >= node->line);
}

static int visit_mount(struct sl_context *ctx, const struct sl_mount *mount, void *data)
{
    (void)ctx;
    check_node(data, mount->node);
    CHECK(mount->field != NULL);
    CHECK(mount->value != NULL || mount->value_length == 0);
    return SL_OK;
}

static void take(struct model_sink *sink, const struct model_step *step)
{
    struct fuzz_sink *fuzz = (struct fuzz_sink *)sink;
    if (step->node != NULL && step->type != MODEL_STEP_DOCUMENT)
        check_node(fuzz, step->node);
    if (step->type != MODEL_STEP_SCOPE)
        return;
    struct model_scope *scope = step->scope;
    CHECK(scope->public.service != NULL);
    for (int view = SL_VIEW_WRITTEN; view <= SL_VIEW_EFFECTIVE; view++)
        for (int id = 1; id <= MODEL_SETTING_LAST; id++) {
            const struct model_setting *setting = model_scope_setting(scope, view, id);
            CHECK(setting != NULL);
            check_node(fuzz, setting->setting.node);
            for (size_t i = 0; i < setting->setting.count; i++) {
                check_node(fuzz, setting->values[i].key);
                CHECK(setting->values[i].text != NULL || setting->values[i].text_length == 0);
            }
        }
    const char *problem;
    CHECK(model_scope_mounts(scope, NULL, sizeof(struct sl_mount), visit_mount, fuzz,
                             &problem) == SL_OK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    static const int kinds[] = { SL_KIND_SHELL, SL_KIND_MAKEFILE, SL_KIND_GITLAB_RUNNER };
    int kind = kinds[data[0] % 3];
    const char *text = (const char *)data + 1;
    size_t length = size - 1;
    /* Lines as every reader counts them (source_step: LF, CR LF, a lone
     * CR, and what else the core takes for a line break). */
    unsigned line = 1, column = 1;
    for (size_t at = 0; at < length;)
        at = source_step(text, length, at, &line, &column);
    struct fuzz_sink fuzz = { { take }, line };
    struct model_file_state state;
    memset(&state, 0, sizeof(state));
    struct model_reading reading = { &fuzz.sink, &state, NULL };
    struct comment_list comments;
    comment_list_init(&comments);
    front_ends_read_text(&reading, kind, text, length, &comments);
    for (size_t i = 0; i < comments.count; i++)
        CHECK(comments.items[i].offset + comments.items[i].length <= length);
    comment_list_release(&comments);
    return 0;
}
