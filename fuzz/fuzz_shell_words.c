/*
 * fuzz_shell_words.c - libFuzzer target: shell text to engine flags, the
 * whole way a front-end goes: the splitter (its first input byte picks a
 * script or a Makefile, and an origin), the program finder, the engine's
 * subcommand and run flags, --mount values, and the text of sh -c split
 * again.  It checks that every word, setting and comment it is handed lies
 * where the API says it does.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_flags.h"
#include "shell_program.h"
#include "shell_words.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(condition)                                                     \
    do {                                                                     \
        if (!(condition)) {                                                  \
            fprintf(stderr, "fuzz_shell_words: %s:%d: %s\n", __FILE__,       \
                    __LINE__, #condition);                                   \
            __builtin_trap();                                                \
        }                                                                    \
    } while (0)

struct context {
    const char *text;
    size_t size;
    unsigned first_line;
    unsigned nested;        /* sh -c texts split inside this one */
};

static void split_checked(const char *text, size_t size, enum shell_dialect dialect,
                          const struct shell_origin *origin, unsigned nested);

static bool before_or_at(unsigned line_a, unsigned column_a, unsigned line_b,
                         unsigned column_b)
{
    return line_a < line_b || (line_a == line_b && column_a <= column_b);
}

static void check_engine(const struct shell_command *command, size_t program)
{
    size_t count = command->word_count - program - 1;
    struct engine_word *words = calloc(count + 1, sizeof(*words));
    CHECK(words != NULL);
    engine_words_from_shell(command->words + program + 1, count, words);
    struct engine_call call;
    enum engine_action action = engine_call_parse(words, count, &call);
    if (action == ENGINE_ACTION_OTHER) {
        free(words);
        return;
    }
    CHECK(call.action_word < count && call.arguments == call.action_word + 1);
    struct engine_run run;
    const struct engine_word *arguments = words + call.arguments;
    size_t argument_count = count - call.arguments;
    engine_run_parse(arguments, argument_count, &run);
    CHECK(run.image == ENGINE_NO_WORD || run.image < argument_count);
    for (size_t i = 0; i < run.count; i++) {
        const struct engine_setting *setting = &run.settings[i];
        CHECK(setting->flag_word < argument_count);
        CHECK(run.image == ENGINE_NO_WORD || setting->flag_word < run.image);
        const struct engine_word *flag = &arguments[setting->flag_word];
        CHECK(setting->flag_offset + setting->flag_length <= flag->length);
        CHECK((int)setting->meaning >= 0 && setting->meaning < ENGINE_FLAG_MEANING_COUNT);
        CHECK(engine_flag_meaning_name(setting->meaning) != NULL);
        int truth = engine_setting_is_true(setting);
        CHECK(truth >= -1 && truth <= 1);
        if (setting->value_word == ENGINE_NO_WORD)
            continue;
        CHECK(setting->value_word < argument_count);
        const struct engine_word *word = &arguments[setting->value_word];
        CHECK(setting->value == word->text + setting->value_offset);
        CHECK(setting->value_offset + setting->value_length == word->length);
        if (setting->meaning == ENGINE_FLAG_MOUNT) {
            char *buffer = malloc(setting->value_length + 1);
            CHECK(buffer != NULL);
            struct engine_mount mount;
            engine_mount_parse(setting->value, setting->value_length, buffer, &mount);
            const struct engine_mount_field *fields[] = { &mount.source, &mount.target };
            for (size_t f = 0; f < 2; f++) {
                if (fields[f]->text == NULL)
                    continue;
                CHECK(fields[f]->text >= buffer &&
                      fields[f]->text + fields[f]->length <= buffer + setting->value_length);
                CHECK(fields[f]->offset <= setting->value_length);
            }
            CHECK(mount.readonly >= -1 && mount.readonly <= 1);
            free(buffer);
        }
    }
    engine_run_release(&run);
    free(words);
}

static int check_command(void *data, const struct shell_command *command)
{
    const struct context *context = data;
    CHECK(command->word_count >= 1);
    CHECK(command->depth <= SHELL_MAX_NESTING);
    for (size_t i = 0; i < command->word_count; i++) {
        const struct shell_word *word = &command->words[i];
        CHECK(word->text[word->length] == '\0');
        CHECK(word->literal_length <= word->length);
        CHECK(word->offset + word->source_length <= context->size);
        CHECK(word->line >= context->first_line && word->column >= 1);
        CHECK(before_or_at(word->line, word->column, word->end_line, word->end_column));
        if (!(word->flags & SHELL_WORD_INTERPOLATED))
            CHECK(word->literal_length == word->length);
    }
    struct shell_program program;
    enum shell_program_kind kind = shell_find_program(command, &program);
    if (command->heredoc_script != NULL && (program.flags & SHELL_PROGRAM_STDIN_SCRIPT))
        *command->heredoc_script = true;
    if (kind == SHELL_PROGRAM_ENGINE) {
        CHECK(program.program < command->word_count);
        check_engine(command, program.program);
    } else if (kind == SHELL_PROGRAM_SHELL_TEXT) {
        CHECK(program.text < command->word_count);
        const struct shell_word *word = &command->words[program.text];
        CHECK(program.text_offset <= word->length);
        if (context->nested < 2) {
            struct shell_origin origin = shell_word_origin(context->text, word);
            split_checked(word->text + program.text_offset, word->length - program.text_offset,
                          SHELL_DIALECT_SCRIPT, &origin, context->nested + 1);
        }
    } else {
        CHECK(kind == SHELL_PROGRAM_OTHER);
    }
    return 0;
}

static void split_checked(const char *text, size_t size, enum shell_dialect dialect,
                          const struct shell_origin *origin, unsigned nested)
{
    struct context context = { text, size, origin->line, nested };
    struct shell_result result;
    CHECK(shell_split(text, size, dialect, origin, check_command, &context, &result) == 0);
    size_t end = 0;
    for (size_t i = 0; i < result.comments.count; i++) {
        const struct comment_span *span = &result.comments.items[i];
        CHECK(span->offset >= end && span->offset + span->length <= size);
        CHECK(span->text_offset == span->offset + 1);
        CHECK(span->text_offset + span->text_length == span->offset + span->length);
        CHECK(text[span->offset] == '#');
        end = span->offset + span->length;
    }
    CHECK(result.problem_count <= SHELL_MAX_PROBLEMS);
    CHECK(result.problem_count <= result.problems_total);
    for (size_t i = 0; i < result.problem_count; i++)
        CHECK(result.problems[i].message != NULL && result.problems[i].line >= origin->line);
    shell_result_release(&result);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    /* The first byte: which dialect, and which origin. */
    enum shell_dialect dialect = (data[0] & 1) ? SHELL_DIALECT_MAKEFILE : SHELL_DIALECT_SCRIPT;
    struct shell_origin origin = { 1, 1, 0 };
    if (data[0] & 2) {
        origin.line = 7;
        origin.column = 9;
        origin.indent = 8;
    }
    split_checked((const char *)data + 1, size - 1, dialect, &origin, 0);
    return 0;
}
