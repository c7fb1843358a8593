/* shell_front.c - engine command lines in shell text (see shell_front.h). */
#include "config.h"

#include "shell_front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_command.h"
#include "engine_flags.h"
#include "source.h"
#include "shell_program.h"
#include "xalloc.h"
#include "yaml_model.h"

/* sh -c "sh -c '...'": how deep shell text inside a word is read.  Deeper
 * text is a limit of sandlint's own: not checked, an error. */
#define SHELL_TEXT_DEPTH 8u

/* Shell text read from one file's YAML scalars, aliases counted each time
 * they are read. */
#define SHELL_FRONT_MAX_TEXT ((size_t)16 << 20)

/* Variables the text assigns an engine's name to (CT=podman,
 * ENGINE=${ENGINE:-docker}), so that "$CT run" is read as that engine's
 * run: the first ones only, a bound of sandlint's own (names it does not
 * keep are still caught when they say engine: shell_program.c). */
#define ENGINE_VARIABLES_MAX 32u
#define ENGINE_VARIABLE_NAME_MAX 64u

struct engine_variables {
    char names[ENGINE_VARIABLES_MAX][ENGINE_VARIABLE_NAME_MAX + 1];
    size_t count;
};

struct shell_reading {
    struct model_reading *reading;
    const char *text;           /* the text being split */
    int kind;
    unsigned depth;             /* of shell text inside a word */
    struct comment_list *comments;
    bool make;                  /* the text is make's: $$ is the shell's $ */
    struct engine_variables *variables;     /* of the whole text */
};

static void read_text(struct shell_reading *outer, const char *text, size_t length,
                      enum shell_dialect dialect, const struct shell_origin *origin);

static struct sl_span word_span(const struct shell_word *word)
{
    struct sl_span span = { word->line, word->column, word->end_line, word->end_column };
    return span;
}

/* A step at (line, column): its node lives in group until the step is
 * taken. */
static const struct sl_node *node_at(struct model_group *group, unsigned line,
                                     unsigned column)
{
    struct sl_span span = { line, column, line, column + 1 };
    struct sl_node *node = model_node_scalar(&group->arena, "", 0, SL_STYLE_PLAIN, &span);
    if (node == NULL)
        xalloc_out_of_memory();
    return node;
}

static void command_line_warning(struct model_reading *reading, unsigned line,
                                 unsigned column, const char *message)
{
    struct model_group group;
    model_group_init(&group);
    model_emit_command_line(reading, node_at(&group, line, column), message);
    model_group_release(&group);
}

/* One engine run/create: its words after the subcommand become a
 * container. */
static void read_engine_run(struct shell_reading *shell, const struct shell_command *command,
                            const struct shell_program *program, size_t first, bool compose_run)
{
    struct model_reading *reading = shell->reading;
    size_t count = command->word_count - first;
    struct engine_word *words = xmalloc((count ? count : 1) * sizeof(*words));
    struct sl_span *spans = xmalloc((count ? count : 1) * sizeof(*spans));
    engine_words_from_shell(command->words + first, count, words);
    for (size_t i = 0; i < count; i++)
        spans[i] = word_span(&command->words[first + i]);
    struct model_group group;
    model_group_init(&group);
    struct engine_command *engine =
        compose_run ? engine_command_new_compose_run(&group, words, spans, count)
                    : engine_command_new(&group, words, spans, count);
    free(words);
    free(spans);
    engine_command_set_shell_words(engine, shell->make);

    size_t ordinal = ++reading->file->engine_commands;
    size_t name_length;
    const char *name = engine_command_name(engine, &name_length);
    char numbered[32];
    if (name == NULL) {
        snprintf(numbered, sizeof(numbered), "run%zu", ordinal);
        name = numbered;
        name_length = strlen(numbered);
    }
    const struct shell_word *program_word = &command->words[program->program];
    struct sl_span span = word_span(program_word);
    const struct sl_node *at = model_node_scalar(&group.arena, program_word->text,
                                                 program_word->length, SL_STYLE_PLAIN, &span);
    if (at == NULL)
        xalloc_out_of_memory();
    for (size_t i = 0; i < engine_command_problem_count(engine); i++) {
        const struct sl_node *node;
        const char *message = engine_command_problem(engine, i, &node);
        if (shell->kind == SL_KIND_GITHUB_ACTIONS &&
            engine_command_problem_expression(engine, i))
            model_emit_templated(reading, node, message);
        else
            model_emit_command_line(reading, node, message);
    }
    struct model_scope *scope = engine_command_scope(&group, engine, name, name_length, at,
                                                     shell->kind);
    /* An empty mapping for rules of ABI 1.0-1.2 that declared every kind:
     * a command line's settings are in the model only. */
    struct sl_node *mapping = model_group_alloc(&group, sizeof(*mapping));
    mapping->kind = SL_NODE_MAPPING;
    mapping->line = span.line;
    mapping->column = span.column;
    mapping->end_line = span.end_line;
    mapping->end_column = span.end_column;
    char *service = scope->public.service != NULL ? (char *)scope->public.service : "";
    model_emit_service(reading, shell->kind, service, name_length, at, mapping);
    model_emit_scope(reading, scope);
    model_group_release(&group);
}

static bool text_is(const char *text, size_t length, const char *word)
{
    return strlen(word) == length && memcmp(text, word, length) == 0;
}

/* Whether a value names an engine program: "podman", "/usr/bin/docker",
 * or a default that does ("${ENGINE:-podman}"). */
static bool names_engine(const char *text, size_t length)
{
    if (length > 3 && memcmp(text, "${", 2) == 0 && text[length - 1] == '}') {
        /* ${NAME:-WORD} or ${NAME-WORD}: WORD */
        const char *dash = memchr(text, '-', length);
        if (dash == NULL || memchr(text + 2, '$', length - 2) != NULL)
            return false;
        length = (size_t)(text + length - 1 - (dash + 1));
        text = dash + 1;
    } else if (memchr(text, '$', length) != NULL || memchr(text, '`', length) != NULL) {
        return false;
    }
    const char *slash = NULL;
    for (size_t i = 0; i < length; i++)
        if (text[i] == '/')
            slash = text + i;
    if (slash != NULL) {
        length -= (size_t)(slash + 1 - text);
        text = slash + 1;
    }
    return text_is(text, length, "docker") || text_is(text, length, "podman") ||
           text_is(text, length, "podman-remote") || text_is(text, length, "nerdctl");
}

static long find_variable(const struct engine_variables *variables, const char *name,
                          size_t length)
{
    for (size_t i = 0; i < variables->count; i++)
        if (text_is(name, length, variables->names[i]))
            return (long)i;
    return -1;
}

/* NAME=VALUE words of a command that only assigns (or export, readonly,
 * local, declare, typeset NAME=VALUE): NAME kept when VALUE names an
 * engine, forgotten when it is given another value. */
static void note_assignments(struct engine_variables *variables,
                             const struct shell_command *command)
{
    size_t at = 0;
    const struct shell_word *first = &command->words[0];
    static const char *const builtins[] = { "export", "readonly", "local", "declare",
                                            "typeset" };
    for (size_t i = 0; i < sizeof(builtins) / sizeof(*builtins); i++)
        if (!(first->flags & (SHELL_WORD_QUOTED | SHELL_WORD_INTERPOLATED)) &&
            text_is(first->text, first->length, builtins[i]))
            at = 1;
    for (size_t i = at; i < command->word_count; i++)
        if (!(command->words[i].flags & SHELL_WORD_ASSIGNMENT))
            return;     /* a command runs: its assignments are its own */
    for (size_t i = at; i < command->word_count; i++) {
        const struct shell_word *word = &command->words[i];
        const char *equals = memchr(word->text, '=', word->length);
        if (equals == NULL)
            continue;
        size_t name_length = (size_t)(equals - word->text);
        const char *value = equals + 1;
        size_t value_length = word->length - name_length - 1;
        long known = find_variable(variables, word->text, name_length);
        if (names_engine(value, value_length)) {
            if (known < 0 && variables->count < ENGINE_VARIABLES_MAX &&
                name_length <= ENGINE_VARIABLE_NAME_MAX) {
                memcpy(variables->names[variables->count], word->text, name_length);
                variables->names[variables->count++][name_length] = '\0';
            }
        } else if (known >= 0) {
            variables->count--;
            memmove(variables->names[known], variables->names[variables->count],
                    sizeof(variables->names[known]));
        }
    }
}

/* "$CT run", "${CT} container create": a program word that is only a
 * variable the text assigned an engine to, before run, create or
 * container. */
static bool assigned_engine(const struct engine_variables *variables,
                            const struct shell_command *command, struct shell_program *program)
{
    size_t at = 0;
    while (at < command->word_count && (command->words[at].flags & SHELL_WORD_ASSIGNMENT))
        at++;
    if (at + 1 >= command->word_count)
        return false;
    const struct shell_word *word = &command->words[at], *next = &command->words[at + 1];
    if (!(word->flags & SHELL_WORD_INTERPOLATED) || word->length < 2 || word->text[0] != '$')
        return false;
    const char *name = word->text + 1;
    size_t length = word->length - 1;
    if (name[0] == '{') {
        if (name[length - 1] != '}' || length < 3)
            return false;
        name++;
        length -= 2;
    }
    if (find_variable(variables, name, length) < 0 ||
        (next->flags & (SHELL_WORD_QUOTED | SHELL_WORD_INTERPOLATED)) != 0 ||
        !(text_is(next->text, next->length, "run") || text_is(next->text, next->length, "create") ||
          text_is(next->text, next->length, "container")))
        return false;
    memset(program, 0, sizeof(*program));
    program->kind = SHELL_PROGRAM_ENGINE;
    program->engine = SHELL_ENGINE_INTERPOLATED;
    program->program = at;
    return true;
}

static int take_command(void *data, const struct shell_command *command)
{
    struct shell_reading *shell = data;
    struct shell_program program;
    enum shell_program_kind kind = shell_find_program(command, &program);
    if (kind == SHELL_PROGRAM_OTHER && shell->variables != NULL) {
        note_assignments(shell->variables, command);
        if (assigned_engine(shell->variables, command, &program))
            kind = SHELL_PROGRAM_ENGINE;
    }
    if (command->heredoc_script != NULL && (program.flags & SHELL_PROGRAM_STDIN_SCRIPT))
        *command->heredoc_script = true;     /* bash <<EOF: its body is shell text */
    if (kind == SHELL_PROGRAM_SHELL_TEXT) {
        const struct shell_word *word = &command->words[program.text];
        if ((word->flags & SHELL_WORD_INTERPOLATED) != 0 && word->literal_length == 0)
            return 0;   /* sh -c "$SCRIPT": nothing written to read */
        if (shell->depth + 1 >= SHELL_TEXT_DEPTH) {
            struct model_group group;
            model_group_init(&group);
            model_emit_not_checked(shell->reading, node_at(&group, word->line, word->column),
                                   "shell text nested deeper than sandlint reads "
                                   "(sh -c inside sh -c...); not checked");
            model_group_release(&group);
            return 0;
        }
        struct shell_origin origin = shell_word_origin(shell->text, word);
        if (program.text_offset != 0)
            origin.column += (unsigned)program.text_offset;
        struct shell_reading inner = *shell;
        inner.depth++;
        inner.comments = NULL;      /* comments inside a word are no comments of the file */
        read_text(&inner, word->text + program.text_offset,
                  word->length - program.text_offset, SHELL_DIALECT_SCRIPT, &origin);
        return 0;
    }
    if (kind != SHELL_PROGRAM_ENGINE)
        return 0;
    size_t first = program.program + 1;
    size_t count = command->word_count - first;
    struct engine_word *words = xmalloc((count ? count : 1) * sizeof(*words));
    engine_words_from_shell(command->words + first, count, words);
    struct engine_call call;
    enum engine_action action = program.engine == SHELL_ENGINE_COMPOSE
                                    ? engine_compose_call_parse(words, count, &call)
                                    : engine_call_parse(words, count, &call);
    free(words);
    if (action == ENGINE_ACTION_RUN || action == ENGINE_ACTION_CREATE ||
        action == ENGINE_ACTION_COMPOSE_RUN) {
        read_engine_run(shell, command, &program, first + call.arguments,
                        action == ENGINE_ACTION_COMPOSE_RUN);
    } else if (action == ENGINE_ACTION_UNKNOWN) {
        const struct shell_word *word = &command->words[first + call.action_word];
        if (shell->kind == SL_KIND_GITHUB_ACTIONS && engine_ci_expression(word->text,
                                                                          word->length)) {
            /* The runner writes the expression's value into the step
             * before the shell runs: a CI expression (SL009). */
            struct model_group group;
            model_group_init(&group);
            model_emit_templated(shell->reading, node_at(&group, word->line, word->column),
                                 "the engine's subcommand is a GitHub Actions expression: "
                                 "if it runs a container, its flags cannot be checked");
            model_group_release(&group);
        } else
            command_line_warning(shell->reading, word->line, word->column,
                                 "the engine's subcommand is interpolated: if it runs a "
                                 "container, its flags cannot be checked");
    }
    return 0;
}

static void read_text(struct shell_reading *outer, const char *text, size_t length,
                      enum shell_dialect dialect, const struct shell_origin *origin)
{
    struct shell_reading shell = *outer;
    shell.text = text;
    shell.make = dialect == SHELL_DIALECT_MAKEFILE || dialect == SHELL_DIALECT_MAKE_TEXT;
    struct shell_result result;
    shell_split(text, length, dialect, origin, take_command, &shell, &result);
    for (size_t i = 0; i < result.problem_count; i++) {
        const struct shell_problem *problem = &result.problems[i];
        if (problem->kind == SHELL_PROBLEM_LIMIT) {
            struct model_group group;
            model_group_init(&group);
            model_emit_not_checked(shell.reading, node_at(&group, problem->line, problem->column),
                                   problem->message);
            model_group_release(&group);
        } else {
            command_line_warning(shell.reading, problem->line, problem->column,
                                 problem->message);
        }
    }
    if (result.problems_total > result.problem_count) {
        char *message = xasprintf("%zu more shell text problems not listed",
                                  result.problems_total - result.problem_count);
        const struct shell_problem *last = &result.problems[result.problem_count - 1];
        command_line_warning(shell.reading, last->line, last->column, message);
        free(message);
    }
    if (outer->comments != NULL)
        for (size_t i = 0; i < result.comments.count; i++)
            comment_list_add(outer->comments, &result.comments.items[i]);
    shell_result_release(&result);
}

/* How many bytes of $(shell ...) arguments a Makefile may make sandlint
 * read beyond its own length (nested calls are read once per level). */
#define MAKE_SHELL_BUDGET ((size_t)1 << 20)

static bool blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Whether text[at] starts make's shell function: "$(shell " or "${shell ". */
static bool make_shell_call(const char *text, size_t length, size_t at)
{
    return at + 8 <= length && text[at] == '$' && (text[at + 1] == '(' || text[at + 1] == '{') &&
           memcmp(text + at + 2, "shell", 5) == 0 && blank(text[at + 7]);
}

/* The end of the make reference whose opening bracket is at open (make
 * counts only brackets of its own kind); length when it is not closed. */
static size_t make_reference_end(const char *text, size_t length, size_t open)
{
    char opening = text[open], closing = opening == '(' ? ')' : '}';
    size_t depth = 0;
    for (size_t i = open; i < length; i++) {
        if (text[i] == opening)
            depth++;
        else if (text[i] == closing && --depth == 0)
            return i;
    }
    return length;
}

/*
 * make runs the argument of $(shell ...) with the shell wherever the
 * function is expanded: in a variable, a rule line or a recipe.  The
 * Makefile's lines were read as make reads them, where such a call is one
 * make reference; here each call's argument is read as a command of its
 * own (nested calls too, each once).  Comments of make lines are skipped;
 * in a recipe line make expands everything, shell comments included.
 */
static void read_make_shell_calls(struct shell_reading *shell, const char *text,
                                  size_t length)
{
    unsigned line = 1, column = 1;
    size_t at = 0, read = 0, depth = 0;
    bool line_start = true, recipe = false, comment = false;
    while (at < length) {
        char c = text[at];
        if (line_start) {
            recipe = c == '\t';
            comment = false;
            depth = 0;
            line_start = false;
        }
        if (!recipe && !comment && depth == 0 && c == '#') {
            comment = true;
        } else if (!comment && c == '$' && at + 1 < length && text[at + 1] == '$') {
            at += 2;        /* "$$": a "$" for the shell, no reference */
            column += 2;
            continue;
        } else if (!comment && make_shell_call(text, length, at)) {
            size_t end = make_reference_end(text, length, at + 1);
            size_t start = at + 8;
            while (start < end && blank(text[start]))
                start++;
            read += end - start;
            if (read > length + MAKE_SHELL_BUDGET) {
                struct model_group group;
                model_group_init(&group);
                model_emit_not_checked(shell->reading, node_at(&group, line, column),
                                       "$(shell ...) calls nested deeper than sandlint "
                                       "reads; the rest of the Makefile's calls are not "
                                       "checked");
                model_group_release(&group);
                return;
            }
            struct shell_origin origin = { line, column + (unsigned)(start - at), 0 };
            struct shell_reading inner = *shell;
            inner.comments = NULL;  /* the file's comments were taken already */
            read_text(&inner, text + start, end - start, SHELL_DIALECT_MAKE_TEXT, &origin);
        } else if (!comment && c == '$' && at + 1 < length &&
                   (text[at + 1] == '(' || text[at + 1] == '{')) {
            depth++;
        } else if (!comment && (c == ')' || c == '}') && depth > 0) {
            depth--;
        }
        unsigned before = line;
        bool continued = at > 0 && text[at - 1] == '\\';
        at = source_step(text, length, at, &line, &column);
        if (line != before && !continued)
            line_start = true;
    }
}

void shell_front_read(struct model_reading *reading, const char *text, size_t length,
                      enum shell_dialect dialect, const struct shell_origin *origin, int kind,
                      struct comment_list *comments)
{
    struct engine_variables variables;
    variables.count = 0;
    struct shell_reading shell = { reading, text, kind, 0, comments, false, &variables };
    read_text(&shell, text, length, dialect, origin);
    if (dialect == SHELL_DIALECT_MAKEFILE && origin == NULL)
        read_make_shell_calls(&shell, text, length);
}

void shell_front_read_file(struct model_reading *reading, const char *text, size_t length,
                           enum shell_dialect dialect, int kind,
                           struct comment_list *comments)
{
    struct model_group group;
    model_group_init(&group);
    struct sl_node *root = model_group_alloc(&group, sizeof(*root));
    root->kind = SL_NODE_MAPPING;
    root->line = root->column = root->end_line = root->end_column = 1;
    reading->root = root;
    shell_front_read(reading, text, length, dialect, NULL, kind, comments);
    reading->root = NULL;
    model_group_release(&group);
}

void shell_front_read_scalar(struct model_reading *reading, const struct sl_node *key,
                             const struct sl_node *value, int kind)
{
    if (value == NULL || value->kind != SL_NODE_SCALAR || value->u.scalar.length == 0)
        return;
    /* YAML aliases can hand the same text over and over: a file's shell
     * text is read up to a limit, and what is past it fails the file. */
    struct model_file_state *file = reading->file;
    if (file->shell_bytes + value->u.scalar.length > SHELL_FRONT_MAX_TEXT ||
        file->shell_limit_reported) {
        if (!file->shell_limit_reported)
            model_emit_not_checked(reading, value, "more than 16 MiB of shell text in CI "
                                   "steps (YAML aliases repeat it); the rest was not "
                                   "checked");
        file->shell_limit_reported = true;
        return;
    }
    file->shell_bytes += value->u.scalar.length;
    struct shell_origin origin = { value->line, value->column, 0 };
    if (value->style == SL_STYLE_LITERAL || value->style == SL_STYLE_FOLDED) {
        /* The text starts on the line after the indicator, indented past
         * the key (two columns, as nearly every workflow writes it). */
        unsigned key_column = key != NULL ? key->column : value->column;
        origin.line = value->line + 1;
        origin.column = key_column + 2;
        origin.indent = key_column + 1;
    } else if (value->style == SL_STYLE_SINGLE_QUOTED ||
               value->style == SL_STYLE_DOUBLE_QUOTED) {
        origin.column++;
        origin.indent = value->column;
    } else {
        origin.indent = value->column - 1;
    }
    shell_front_read(reading, value->u.scalar.text, value->u.scalar.length,
                     SHELL_DIALECT_SCRIPT, &origin, kind, reading->file->step_comments);
}

void shell_word_list_add(struct shell_word_list *list, const char *text, size_t length,
                         unsigned flags, const struct sl_span *span)
{
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? list->capacity * 2 : 8;
        list->words = xrealloc(list->words, list->capacity, sizeof(*list->words));
        list->spans = xrealloc(list->spans, list->capacity, sizeof(*list->spans));
    }
    struct engine_word *word = &list->words[list->count];
    memset(word, 0, sizeof(*word));
    word->text = xstrndup(text, length);
    word->length = length;
    word->literal_length = length;
    word->flags = flags;
    list->spans[list->count++] = *span;
}

static int collect_words(void *data, const struct shell_command *command)
{
    struct shell_word_list *list = data;
    if (command->depth != 0)
        return 0;   /* the words of a $(...) are in its word already */
    struct engine_word *words = xmalloc(command->word_count * sizeof(*words));
    engine_words_from_shell(command->words, command->word_count, words);
    for (size_t i = 0; i < command->word_count; i++) {
        struct sl_span span = word_span(&command->words[i]);
        shell_word_list_add(list, words[i].text, words[i].length, words[i].flags, &span);
        list->words[list->count - 1].literal_length = words[i].literal_length;
    }
    free(words);
    return 0;
}

void shell_word_list_split(struct shell_word_list *list, struct model_reading *reading,
                           const struct sl_node *value)
{
    if (value == NULL || value->kind != SL_NODE_SCALAR)
        return;
    struct shell_origin origin = { value->line, value->column, value->column - 1 };
    if (value->style == SL_STYLE_SINGLE_QUOTED || value->style == SL_STYLE_DOUBLE_QUOTED)
        origin.column++;
    struct shell_result result;
    shell_split(value->u.scalar.text, value->u.scalar.length, SHELL_DIALECT_SCRIPT, &origin,
                collect_words, list, &result);
    for (size_t i = 0; i < result.problem_count; i++)
        command_line_warning(reading, result.problems[i].line, result.problems[i].column,
                             result.problems[i].message);
    shell_result_release(&result);
}

void shell_word_list_release(struct shell_word_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free((char *)list->words[i].text);
    free(list->words);
    free(list->spans);
    memset(list, 0, sizeof(*list));
}
