/*
 * Unit tests for the shell-word splitter (core/read/shell_words.c) and the
 * program finder (core/read/shell_program.c).  The splitting is checked
 * against the shell itself: generated command lines are run by sh (and
 * bash, when there is one), which prints the words it received.
 */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sandlint/plugin.h"
#include "shell_program.h"
#include "shell_words.h"
#include "yaml_model.h"

/* ---- collecting what the splitter hands over ---------------------------- */

struct word_copy {
    char *text;
    size_t length, literal_length, offset, source_length;
    unsigned line, column, end_line, end_column, flags;
};

struct command_copy {
    struct word_copy *words;
    size_t word_count;
    unsigned depth;
    struct shell_program program;
    enum shell_program_kind kind;
};

struct collected {
    struct command_copy *commands;
    size_t count, capacity;
    struct shell_result result;
};

static int collect(void *data, const struct shell_command *command)
{
    struct collected *collected = data;
    if (collected->count == collected->capacity) {
        collected->capacity = collected->capacity ? collected->capacity * 2 : 16;
        collected->commands = realloc(collected->commands,
                                      collected->capacity * sizeof(*collected->commands));
        assert_non_null(collected->commands);
    }
    struct command_copy *copy = &collected->commands[collected->count++];
    copy->word_count = command->word_count;
    copy->depth = command->depth;
    copy->kind = shell_find_program(command, &copy->program);
    if (command->heredoc_script != NULL &&
        (copy->program.flags & SHELL_PROGRAM_STDIN_SCRIPT))
        *command->heredoc_script = true;
    copy->words = calloc(command->word_count, sizeof(*copy->words));
    assert_non_null(copy->words);
    for (size_t i = 0; i < command->word_count; i++) {
        const struct shell_word *word = &command->words[i];
        struct word_copy *out = &copy->words[i];
        assert_int_equal(word->text[word->length], '\0');
        out->text = malloc(word->length + 1);
        assert_non_null(out->text);
        memcpy(out->text, word->text, word->length + 1);
        out->length = word->length;
        out->literal_length = word->literal_length;
        out->offset = word->offset;
        out->source_length = word->source_length;
        out->line = word->line;
        out->column = word->column;
        out->end_line = word->end_line;
        out->end_column = word->end_column;
        out->flags = word->flags;
    }
    return 0;
}

static void collected_release(struct collected *collected)
{
    for (size_t i = 0; i < collected->count; i++) {
        for (size_t j = 0; j < collected->commands[i].word_count; j++)
            free(collected->commands[i].words[j].text);
        free(collected->commands[i].words);
    }
    free(collected->commands);
    shell_result_release(&collected->result);
    memset(collected, 0, sizeof(*collected));
}

static struct collected got;

static int teardown(void **state)
{
    (void)state;
    collected_release(&got);
    return 0;
}

static void split_with(const char *text, enum shell_dialect dialect,
                       const struct shell_origin *origin)
{
    collected_release(&got);
    assert_int_equal(shell_split(text, strlen(text), dialect, origin, collect, &got,
                                 &got.result), 0);
    assert_int_equal(got.result.command_count, got.count);
}

static void split(const char *text)
{
    split_with(text, SHELL_DIALECT_SCRIPT, NULL);
}

/* The words of command i are exactly the given ones (NULL-terminated). */
static void expect_words(size_t i, ...)
{
    if (i >= got.count)
        fail_msg("no command %zu (%zu commands)", i, got.count);
    const struct command_copy *command = &got.commands[i];
    va_list args;
    va_start(args, i);
    size_t n = 0;
    for (const char *word = va_arg(args, const char *); word != NULL;
         word = va_arg(args, const char *), n++) {
        if (n >= command->word_count)
            fail_msg("command %zu: missing word %zu '%s'", i, n, word);
        if (strcmp(command->words[n].text, word) != 0)
            fail_msg("command %zu word %zu: '%s', expected '%s'", i, n,
                     command->words[n].text, word);
    }
    va_end(args);
    if (n != command->word_count)
        fail_msg("command %zu: %zu words, expected %zu", i, command->word_count, n);
}

static void expect_span(const struct word_copy *word, unsigned line, unsigned column,
                        unsigned end_line, unsigned end_column)
{
    if (word->line != line || word->column != column || word->end_line != end_line ||
        word->end_column != end_column)
        fail_msg("'%s' at %u:%u-%u:%u, expected %u:%u-%u:%u", word->text, word->line,
                 word->column, word->end_line, word->end_column, line, column, end_line,
                 end_column);
}

/* ---- the shell as the oracle -------------------------------------------- */

struct text {
    char *data;
    size_t length, capacity;
};

static void text_add(struct text *text, const char *piece, size_t length)
{
    if (text->length + length + 1 > text->capacity) {
        size_t capacity = text->capacity ? text->capacity : 4096;
        while (text->length + length + 1 > capacity)
            capacity *= 2;
        text->data = realloc(text->data, capacity);
        assert_non_null(text->data);
        text->capacity = capacity;
    }
    memcpy(text->data + text->length, piece, length);
    text->length += length;
    text->data[text->length] = '\0';
}

static void text_string(struct text *text, const char *piece)
{
    text_add(text, piece, strlen(piece));
}

static uint64_t random_state;

static unsigned random_below(unsigned bound)
{
    random_state = random_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((random_state >> 33) % bound);
}

static const char *pick(const char *const *items, size_t count)
{
    return items[random_below((unsigned)count)];
}

#define PICK(items) pick(items, sizeof(items) / sizeof(items[0]))

/* One piece of a word, as a script would write it. */
static void random_piece(struct text *line, bool first)
{
    static const char *const plain[] = {
        "docker", "run", "-v", "/var/run/docker.sock:/var/run/docker.sock", "--cap-add=ALL",
        "-itv", "x", "a=b", "--name=box", "--", "-", "a#b", "a~b", "100%", "@x", "+1",
        "\xc3\xa9t\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "a,b", "k=v=w", "a$/b",
        "a}b", "a{b", "a]b", "a!b", "x:", "=",
    };
    static const char *const single[] = {
        "' '", "'a b'", "'\"'", "'\\'", "'$HOME'", "'#'", "'a;b|c&d'", "'*'", "''",
        "'line\none'", "'`x`'", "'\\\n'", "'--privileged'", "'\t'",
    };
    static const char *const doubled[] = {
        "\"a b\"", "\"\\\"\"", "\"\\\\\"", "\"\\$HOME\"", "\"\\`\"", "\"\\n\"", "\"\\q\"",
        "\"'\"", "\"#\"", "\"a;b\"", "\"*\"", "\"\"", "\"a\\\nb\"", "\"two\nlines\"",
        "\"$ x\"", "\"a$\"", "\"\\\\\\\"\"", "\"-v /a:/b\"", "\"\t\"",
    };
    static const char *const escaped[] = {
        "\\ ", "\\'", "\\\"", "\\\\", "\\$", "\\;", "\\|", "\\&", "\\#", "\\*", "\\a",
        "\\(", "\\)", "\\<", "\\>", "\\`", "\\~", "\\\xc3\xa9",
    };
    switch (random_below(first ? 4 : 5)) {
    case 0:
    case 1:
        text_string(line, PICK(plain));
        break;
    case 2:
        text_string(line, random_below(2) ? PICK(single) : PICK(doubled));
        break;
    case 3:
        text_string(line, PICK(escaped));
        break;
    default:
        text_string(line, "\\\n");      /* a continuation inside the word */
        break;
    }
}

static void random_word(struct text *line)
{
    unsigned pieces = 1 + random_below(3);
    for (unsigned i = 0; i < pieces; i++)
        random_piece(line, i == 0);
}

/* A script of count printf commands, one record per command on stdout. */
static void random_script(struct text *script, unsigned count)
{
    static const char *const blanks[] = { " ", "  ", "\t", " \\\n  ", " \t ", "\\\n " };
    /* No CR LF: sh takes the CR for a character of the word before it
     * (sandlint does not, on purpose: test_crlf_and_columns). */
    static const char *const ends[] = { "\n", "\n", ";\n", " ;  ", " && ", "\n\n" };
    for (unsigned c = 0; c < count; c++) {
        text_string(script, "printf '%s\\0'");
        unsigned words = 1 + random_below(6);
        for (unsigned w = 0; w < words; w++) {
            text_string(script, PICK(blanks));
            random_word(script);
        }
        bool comment = random_below(5) == 0;
        if (comment)
            text_string(script, "  # a comment 'with \"quotes\" ; and `ticks`");
        text_string(script, comment || random_below(2) ? "\n" : random_below(2) ? ";" : " && ");
        text_string(script, "printf '\\1'");
        text_string(script, PICK(ends));
    }
}

/* Runs script with the shell and returns its output (malloc'd), or NULL
 * when the shell is not there. */
static char *run_shell(const char *shell, const struct text *script, size_t *length)
{
    char path[] = "/tmp/sandlint-oracle-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, script->data, script->length), (ssize_t)script->length);
    close(fd);
    char command[256];
    snprintf(command, sizeof(command), "command -v %s >/dev/null 2>&1 && %s %s", shell,
             shell, path);
    FILE *pipe = popen(command, "r");
    assert_non_null(pipe);
    struct text output = { NULL, 0, 0 };
    char buffer[65536];
    size_t n;
    while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
        text_add(&output, buffer, n);
    int status = pclose(pipe);
    unlink(path);
    if (status != 0) {
        free(output.data);
        return NULL;
    }
    *length = output.length;
    return output.data ? output.data : calloc(1, 1);
}

/* Compares the splitter's printf '%s\0' commands with the shell's
 * records; returns how many were compared. */
static size_t compare_with_shell(const char *shell, const struct text *script)
{
    size_t length = 0;
    char *output = run_shell(shell, script, &length);
    if (output == NULL)
        return 0;
    size_t record_start = 0, compared = 0;
    for (size_t c = 0; c < got.count; c++) {
        const struct command_copy *command = &got.commands[c];
        if (command->word_count < 2 || strcmp(command->words[0].text, "printf") != 0 ||
            strcmp(command->words[1].text, "%s\\0") != 0)
            continue;
        const char *end = memchr(output + record_start, '\1', length - record_start);
        if (end == NULL)
            fail_msg("%s printed fewer records than the splitter found commands", shell);
        size_t at = record_start, word = 2;
        while (at < (size_t)(end - output)) {
            const char *nul = memchr(output + at, '\0', (size_t)(end - output) - at);
            assert_non_null(nul);
            size_t word_length = (size_t)(nul - output) - at;
            if (word >= command->word_count)
                fail_msg("%s: command %zu has more words than the splitter's: '%.*s'", shell,
                         c, (int)word_length, output + at);
            const struct word_copy *mine = &command->words[word];
            if (mine->length != word_length || memcmp(mine->text, output + at, word_length) != 0)
                fail_msg("%s: command %zu word %zu: shell '%.*s', splitter '%s' (written "
                         "at line %u)", shell, c, word, (int)word_length, output + at,
                         mine->text, mine->line);
            at += word_length + 1;
            word++;
        }
        if (word != command->word_count)
            fail_msg("%s: command %zu: the splitter has %zu words, the shell %zu", shell, c,
                     command->word_count - 2, word - 2);
        record_start = (size_t)(end - output) + 1;
        compared++;
    }
    if (record_start != length)
        fail_msg("%s printed more records than the splitter found commands", shell);
    free(output);
    return compared;
}

static void test_words_as_the_shell_splits_them(void **state)
{
    (void)state;
    random_state = 20260519;
    struct text script = { NULL, 0, 0 };
    random_script(&script, 600);
    split(script.data);
    assert_int_equal(got.result.problem_count, 0);
    size_t by_sh = compare_with_shell("sh", &script);
    assert_int_equal(by_sh, 600);      /* sh is POSIX's: it must be there */
    size_t by_bash = compare_with_shell("bash", &script);
    assert_true(by_bash == 0 || by_bash == 600);
    free(script.data);
}

/* The same through make: recipe lines with $$, prefixes and continuations
 * (make runs each line with sh). */
static void test_recipes_as_make_runs_them(void **state)
{
    (void)state;
    if (system("command -v make >/dev/null 2>&1") != 0)
        skip();
    const char *makefile =
        "all:\n"
        "\t@printf '%s\\0' a \"b c\" '$$HOME' \"$$\" d$$ ; printf '\\1'\n"
        "\t-@printf '%s\\0' x \\\n"
        "\t  y 'q \\\n"
        "\tr' \"s \\\n"
        "\tt\" ; printf '\\1'\n"
        "\t+ @ printf '%s\\0' '#' a#b \\$$ ; printf '\\1' # comment\n"
        "# a make comment\n"
        "\n"
        "\t@printf '%s\\0' after-blank ; printf '\\1'\n";
    struct text script = { NULL, 0, 0 };
    text_string(&script, makefile);
    char path[] = "/tmp/sandlint-oracle-make-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, script.data, script.length), (ssize_t)script.length);
    close(fd);
    char command[256];
    /* Not the make running the tests: its flags would print directories. */
    snprintf(command, sizeof(command),
             "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -f %s all",
             path);
    FILE *pipe = popen(command, "r");
    assert_non_null(pipe);
    struct text output = { NULL, 0, 0 };
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
        text_add(&output, buffer, n);
    assert_int_equal(pclose(pipe), 0);
    unlink(path);

    split_with(makefile, SHELL_DIALECT_MAKEFILE, NULL);
    size_t at = 0, records = 0;
    for (size_t c = 0; c < got.count; c++) {
        const struct command_copy *mine = &got.commands[c];
        if (strcmp(mine->words[1].text, "%s\\0") != 0)
            continue;
        for (size_t w = 2; w < mine->word_count; w++) {
            size_t length = strlen(output.data + at);
            if (length != mine->words[w].length ||
                memcmp(output.data + at, mine->words[w].text, length) != 0)
                fail_msg("make: command %zu word %zu: '%s', splitter '%s'", c, w,
                         output.data + at, mine->words[w].text);
            at += length + 1;
        }
        assert_int_equal(output.data[at], '\1');
        at++;
        records++;
    }
    assert_int_equal(records, 4);
    assert_int_equal(at, output.length);
    free(output.data);
    free(script.data);
}

/* ---- positions ------------------------------------------------------------ */

static void test_positions(void **state)
{
    (void)state;
    split("docker run \\\n"
          "  -v \"$PWD\":/w\t'a b'c \\\n"
          "  --name=x \xc3\xa9t\xc3\xa9 img # done\n"
          "  echo  \"two\n"
          "lines\"");
    assert_int_equal(got.count, 2);
    const struct word_copy *w = got.commands[0].words;
    expect_span(&w[0], 1, 1, 1, 7);
    expect_span(&w[1], 1, 8, 1, 11);
    expect_span(&w[2], 2, 3, 2, 5);
    expect_span(&w[3], 2, 6, 2, 15);
    expect_span(&w[4], 2, 16, 2, 22);
    expect_span(&w[5], 3, 3, 3, 11);
    expect_span(&w[6], 3, 12, 3, 15);
    expect_span(&w[7], 3, 16, 3, 19);
    assert_int_equal(w[3].offset, 18);
    assert_int_equal(w[3].source_length, 9);
    expect_span(&got.commands[1].words[1], 4, 9, 5, 7);
    assert_string_equal(got.commands[1].words[1].text, "two\nlines");
}

/* A YAML literal block scalar: the text starts on the line after the
 * indicator, and every line was indented by the block's indentation. */
static void test_origin_of_a_block_scalar(void **state)
{
    (void)state;
    struct shell_origin origin = { 12, 11, 10 };
    split_with("docker run \\\n  --privileged \\\n  x\necho hi\n", SHELL_DIALECT_SCRIPT,
               &origin);
    expect_words(0, "docker", "run", "--privileged", "x", NULL);
    expect_span(&got.commands[0].words[0], 12, 11, 12, 17);
    expect_span(&got.commands[0].words[2], 13, 13, 13, 25);
    expect_span(&got.commands[0].words[3], 14, 13, 14, 14);
    expect_span(&got.commands[1].words[1], 15, 16, 15, 18);
    /* A single line (a plain scalar such as container.options) */
    struct shell_origin inline_origin = { 4, 16, 0 };
    split_with("--privileged -v /:/h", SHELL_DIALECT_SCRIPT, &inline_origin);
    expect_span(&got.commands[0].words[2], 4, 32, 4, 36);
}

/* What a front-end does with a GitHub Actions run: step: the YAML model
 * puts a literal block scalar at its '|' and keeps no indentation, so the
 * text starts on the next line, at the indentation of its first line that
 * is not empty (or the indentation indicator's). */
static void test_origin_from_the_yaml_model(void **state)
{
    (void)state;
    const char *yaml = "jobs:\n"
                       "  t:\n"
                       "    steps:\n"
                       "      - run: |  # the sandbox\n"
                       "\n"
                       "          docker run \\\n"
                       "            --privileged x\n"
                       "      - run: echo done\n";
    struct yaml_model model;
    assert_int_equal(model_parse(&model, yaml, strlen(yaml), NULL), MODEL_OK);
    const struct sl_node *steps = model_mapping_get(
        model_mapping_get(model_mapping_get(model.documents[0], "jobs", 4, NULL), "t", 1, NULL),
        "steps", 5, NULL);
    const struct sl_node *run = model_mapping_get(steps->u.sequence.items[0], "run", 3, NULL);
    assert_int_equal(run->style, SL_STYLE_LITERAL);
    assert_int_equal(run->line, 4);
    /* The indentation: the leading spaces of the first line with text. */
    const char *line = yaml;
    for (unsigned n = 1; n <= run->line; n++)
        line = strchr(line, '\n') + 1;
    while (*line == '\n')
        line++;
    unsigned indent = 0;
    while (line[indent] == ' ')
        indent++;
    assert_int_equal(indent, 10);
    struct shell_origin origin = { run->line + 1, indent + 1, indent };
    split_with(run->u.scalar.text, SHELL_DIALECT_SCRIPT, &origin);
    expect_words(0, "docker", "run", "--privileged", "x", NULL);
    expect_span(&got.commands[0].words[0], 6, 11, 6, 17);
    expect_span(&got.commands[0].words[2], 7, 13, 7, 25);
    /* ... which is where the file has them. */
    assert_memory_equal(strstr(yaml, "--privileged"), "--privileged", 12);
    /* A plain scalar starts where the node does. */
    const struct sl_node *done = model_mapping_get(steps->u.sequence.items[1], "run", 3, NULL);
    struct shell_origin at_node = { done->line, done->column, 0 };
    split_with(done->u.scalar.text, SHELL_DIALECT_SCRIPT, &at_node);
    expect_span(&got.commands[0].words[1], 8, 19, 8, 23);
    model_release(&model);
}

static void test_crlf_and_columns(void **state)
{
    (void)state;
    split("a \\\r\n  b\r\nc \xf0\x9f\x98\x80 d\rz");
    expect_words(0, "a", "b", NULL);
    expect_words(1, "c", "\xf0\x9f\x98\x80", "d", NULL);
    expect_words(2, "z", NULL);
    expect_span(&got.commands[0].words[1], 2, 3, 2, 4);
    expect_span(&got.commands[1].words[2], 3, 5, 3, 6);
    expect_span(&got.commands[2].words[0], 4, 1, 4, 2);
}

/* ---- what the shell does that is not a word --------------------------- */

static void test_separators(void **state)
{
    (void)state;
    split("a;b&c&&d||e|f|&g;;h\ni ( j ) { k; } ! l");
    expect_words(0, "a", NULL);
    expect_words(1, "b", NULL);
    expect_words(2, "c", NULL);
    expect_words(3, "d", NULL);
    expect_words(4, "e", NULL);
    expect_words(5, "f", NULL);
    expect_words(6, "g", NULL);
    expect_words(7, "h", NULL);
    expect_words(8, "i", NULL);
    expect_words(9, "j", NULL);
    expect_words(10, "{", "k", NULL);
    expect_words(11, "}", "!", "l", NULL);
    assert_int_equal(got.count, 12);
}

static void test_redirections_are_not_arguments(void **state)
{
    (void)state;
    split("docker run >out.log 2>&1 -v /a:/b <in 3<>rw x>y >|f >>g <<<'here' z &>all "
          "&>>more 12>x e");
    expect_words(0, "docker", "run", "-v", "/a:/b", "x", "z", "e", NULL);
    split("cat <(docker run --privileged a) > >(tee b)");
    expect_words(0, "docker", "run", "--privileged", "a", NULL);
    assert_int_equal(got.commands[0].depth, 1);
    expect_words(1, "tee", "b", NULL);
    expect_words(2, "cat", "<(docker run --privileged a)", NULL);
    assert_int_equal(got.commands[2].words[1].flags & SHELL_WORD_INTERPOLATED,
                     SHELL_WORD_INTERPOLATED);
}

static void test_heredocs_are_data(void **state)
{
    (void)state;
    split("cat <<EOF >f; echo one\n"
          "docker run --privileged not-a-command\n"
          "EOF\n"
          "cat <<-'END' <<X\n"
          "\t\tdocker run nope\n"
          "\tEND\n"
          "docker run nope-too\n"
          "X\n"
          "docker run yes\n");
    expect_words(0, "cat", NULL);
    expect_words(1, "echo", "one", NULL);
    expect_words(2, "cat", NULL);
    expect_words(3, "docker", "run", "yes", NULL);
    assert_int_equal(got.count, 4);
    assert_int_equal(got.result.problem_count, 0);
    expect_span(&got.commands[3].words[0], 9, 1, 9, 7);
    /* A body that runs an engine in a substitution is reported. */
    split("cat <<EOF\n$(docker run --privileged x)\nEOF\ncat <<'EOF'\n$(docker run y)\nEOF\n");
    assert_int_equal(got.result.problem_count, 1);
    assert_int_equal(got.result.problems[0].kind, SHELL_PROBLEM_UNREAD);
    assert_int_equal(got.result.problems[0].line, 1);
    assert_int_equal(got.result.problems[0].column, 7);
}

/* A shell that reads its script from standard input runs a here-document
 * there: its body is shell text, split where it is written (0.3). */
static void test_heredocs_run_by_a_shell(void **state)
{
    (void)state;
    split("bash <<EOS\n"
          "docker run -v /:/host alpine\n"
          "  # a comment\n"
          "EOS\n"
          "sudo sh -s <<-'END' 3<<X\n"
          "\tpodman run x\n"
          "\tEND\n"
          "docker run data\n"
          "X\n"
          "bash script.sh <<EOF\ndocker run not-read\nEOF\n"
          "bash 3<<EOF\ndocker run not-read-either\nEOF\n"
          "docker run last\n");
    expect_words(0, "bash", NULL);
    expect_words(1, "docker", "run", "-v", "/:/host", "alpine", NULL);
    expect_span(&got.commands[1].words[0], 2, 1, 2, 7);
    expect_words(2, "sudo", "sh", "-s", NULL);
    expect_words(3, "podman", "run", "x", NULL);
    expect_span(&got.commands[3].words[0], 6, 2, 6, 8);
    expect_words(4, "bash", "script.sh", NULL);
    expect_words(5, "bash", NULL);
    expect_words(6, "docker", "run", "last", NULL);
    assert_int_equal(got.count, 7);
    assert_int_equal(got.result.problem_count, 0);
    assert_int_equal(got.result.comments.count, 1);
    assert_int_equal(got.result.comments.items[0].line, 3);
    assert_int_equal(got.result.comments.items[0].offset, 42);
    /* Bounded: bodies that nest deeper than sandlint reads are a limit. */
    char text[4096] = "";
    for (unsigned i = 0; i < SHELL_MAX_SCRIPT_NESTING + 2; i++)
        snprintf(text + strlen(text), sizeof(text) - strlen(text), "sh <<E%u\n", i);
    snprintf(text + strlen(text), sizeof(text) - strlen(text), "docker run deep\n");
    for (unsigned i = SHELL_MAX_SCRIPT_NESTING + 2; i > 0; i--)
        snprintf(text + strlen(text), sizeof(text) - strlen(text), "E%u\n", i - 1);
    split(text);
    assert_int_equal(got.result.problem_count, 1);
    assert_int_equal(got.result.problems[0].kind, SHELL_PROBLEM_LIMIT);
    assert_int_equal(got.count, SHELL_MAX_SCRIPT_NESTING);
}

static void test_comments(void **state)
{
    (void)state;
    const char *text = "# sandlint: ignore[SBX001] -- lab\n"
                       "docker run a#b '#x' \"#y\" \\#z #real # still\n"
                       "  # indented\n"
                       "echo $# ${#x}";
    split(text);
    expect_words(0, "docker", "run", "a#b", "#x", "#y", "#z", NULL);
    expect_words(1, "echo", "$#", "${#x}", NULL);
    const struct comment_list *comments = &got.result.comments;
    assert_int_equal(comments->count, 3);
    assert_true(comments->items[0].own_line);
    assert_int_equal(comments->items[0].offset, 0);
    assert_int_equal(comments->items[0].text_offset, 1);
    assert_int_equal(comments->items[0].text_length, 32);
    assert_false(comments->items[1].own_line);
    assert_int_equal(comments->items[1].line, 2);
    assert_int_equal(comments->items[1].column, 30);
    assert_memory_equal(text + comments->items[1].text_offset, "real # still", 12);
    assert_true(comments->items[2].own_line);
    assert_int_equal(comments->items[2].column, 3);
}

/* ---- expansions -------------------------------------------------------------- */

static void test_expansions_are_kept_and_marked(void **state)
{
    (void)state;
    split("docker run -v $HOME/.ssh:/root/.ssh -v \"$PWD\":/w ${IMG:-\"a b\"} "
          "/var/run/docker.sock:$SOCK \"$@\" $(id -u) `date` $((1+2)) '$lit' \\$esc ~/x "
          "*.txt A=1 \"B\"=2");
    const struct command_copy *c = &got.commands[got.count - 1];
    expect_words(got.count - 1, "docker", "run", "-v", "$HOME/.ssh:/root/.ssh", "-v",
                 "$PWD:/w", "${IMG:-\"a b\"}", "/var/run/docker.sock:$SOCK", "$@",
                 "$(id -u)", "`date`", "$((1+2))", "$lit", "$esc", "~/x", "*.txt", "A=1",
                 "B=2", NULL);
    const unsigned interpolated = SHELL_WORD_INTERPOLATED, split_flag = SHELL_WORD_SPLIT;
    assert_int_equal(c->words[3].flags & (interpolated | split_flag), interpolated | split_flag);
    assert_int_equal(c->words[3].literal_length, 0);
    assert_int_equal(c->words[5].flags & (interpolated | split_flag), interpolated);
    assert_int_equal(c->words[7].literal_length, 21);
    assert_int_equal(c->words[8].flags & split_flag, split_flag);      /* "$@" */
    assert_int_equal(c->words[9].flags & split_flag, split_flag);
    assert_int_equal(c->words[12].flags & interpolated, 0);
    assert_int_equal(c->words[13].flags & interpolated, 0);
    assert_int_equal(c->words[14].flags & SHELL_WORD_TILDE, SHELL_WORD_TILDE);
    assert_int_equal(c->words[15].flags & SHELL_WORD_GLOB, SHELL_WORD_GLOB);
    assert_int_equal(c->words[16].flags & SHELL_WORD_ASSIGNMENT, SHELL_WORD_ASSIGNMENT);
    assert_int_equal(c->words[17].flags & SHELL_WORD_ASSIGNMENT, 0);
    /* The commands inside come first, one level deeper. */
    expect_words(0, "id", "-u", NULL);
    assert_int_equal(got.commands[0].depth, 1);
    expect_words(1, "date", NULL);
    assert_int_equal(got.count, 3);
}

static void test_substitutions_nest(void **state)
{
    (void)state;
    split("x=$(docker run -d \"$(cat $(echo f))\" --name 'a)b' y) ; "
          "z=\"`podman create q`\" ; ${v:-$(nerdctl run w)} ; $(case a in a) docker run c;; "
          "esac)");
    expect_words(0, "echo", "f", NULL);
    assert_int_equal(got.commands[0].depth, 3);
    expect_words(1, "cat", "$(echo f)", NULL);
    expect_words(2, "docker", "run", "-d", "$(cat $(echo f))", "--name", "a)b", "y", NULL);
    assert_int_equal(got.commands[2].depth, 1);
    expect_words(3, "x=$(docker run -d \"$(cat $(echo f))\" --name 'a)b' y)", NULL);
    expect_words(4, "podman", "create", "q", NULL);
    expect_words(5, "z=`podman create q`", NULL);
    expect_words(6, "nerdctl", "run", "w", NULL);
    expect_words(7, "${v:-$(nerdctl run w)}", NULL);
    expect_words(8, "case", "a", "in", "a", NULL);
    expect_words(9, "docker", "run", "c", NULL);
    expect_words(10, "esac", NULL);
    expect_words(11, "$(case a in a) docker run c;; esac)", NULL);
    assert_int_equal(got.commands[9].depth, 1);
    /* Inside `...`, \$ and \\ lose their backslash first. */
    split("a=`echo \\$HOME \\\\$x`");
    expect_words(0, "echo", "$HOME", "$x", NULL);
}

/* bash reads $'...' and $"..." differently from sh: split as sh does,
 * marked as not to be trusted. */
static void test_bash_quotes_are_marked(void **state)
{
    (void)state;
    split("docker run $'a b' $\"c\"");
    expect_words(0, "docker", "run", "$a b", "$c", NULL);
    assert_true(got.commands[0].words[2].flags & SHELL_WORD_INTERPOLATED);
    assert_true(got.commands[0].words[3].flags & SHELL_WORD_INTERPOLATED);
}

/* ---- problems ----------------------------------------------------------- */

static void expect_problem(const char *text, enum shell_problem_kind kind, unsigned line,
                           unsigned column, const char *fragment)
{
    split(text);
    if (got.result.problem_count != 1)
        fail_msg("'%s': %zu problems", text, got.result.problem_count);
    const struct shell_problem *problem = &got.result.problems[0];
    if (problem->kind != kind || problem->line != line || problem->column != column ||
        strstr(problem->message, fragment) == NULL)
        fail_msg("'%s': problem %d at %u:%u '%s'", text, problem->kind, problem->line,
                 problem->column, problem->message);
}

static void test_unterminated_constructs(void **state)
{
    (void)state;
    expect_problem("docker run x\necho 'abc\ndocker run y\n", SHELL_PROBLEM_SYNTAX, 2, 6,
                   "single quote");
    /* What came before the problem was read; nothing after it. */
    expect_words(0, "docker", "run", "x", NULL);
    assert_int_equal(got.count, 1);
    expect_problem("a \"b $(c", SHELL_PROBLEM_SYNTAX, 1, 3, "double quote");
    expect_problem("a $(b \"c\"", SHELL_PROBLEM_SYNTAX, 1, 3, "'$('");
    expect_problem("a `b", SHELL_PROBLEM_SYNTAX, 1, 3, "'`'");
    expect_problem("a ${b", SHELL_PROBLEM_SYNTAX, 1, 3, "'${'");
    expect_problem("a $((1", SHELL_PROBLEM_SYNTAX, 1, 3, "'$(('");
    expect_problem("a \"b\\", SHELL_PROBLEM_SYNTAX, 1, 3, "double quote");
    /* A backslash at the very end is a backslash, as in sh. */
    split("a b\\");
    expect_words(0, "a", "b\\", NULL);
    assert_int_equal(got.result.problem_count, 0);
}

static void test_nesting_limit(void **state)
{
    (void)state;
    struct text text = { NULL, 0, 0 };
    for (unsigned i = 0; i < SHELL_MAX_NESTING + 5; i++)
        text_string(&text, "\"$(");
    split(text.data);
    assert_int_equal(got.result.problem_count, 1);
    assert_int_equal(got.result.problems[0].kind, SHELL_PROBLEM_LIMIT);
    free(text.data);
    /* Just within the limit is read. */
    text.data = NULL;
    text.length = text.capacity = 0;
    for (unsigned i = 0; i < SHELL_MAX_NESTING; i++)
        text_string(&text, "$(");
    text_string(&text, "docker run x");
    for (unsigned i = 0; i < SHELL_MAX_NESTING; i++)
        text_string(&text, ")");
    split(text.data);
    assert_int_equal(got.result.problem_count, 0);
    expect_words(0, "docker", "run", "x", NULL);
    assert_int_equal(got.commands[0].depth, SHELL_MAX_NESTING);
    free(text.data);
}

/* ---- Makefiles ---------------------------------------------------------- */

static void test_makefile_recipes(void **state)
{
    (void)state;
    split_with("IMAGE ?= alpine\n"
               "FLAGS := --privileged \\\n"
               "\tdocker run in-a-variable\n"
               "# sandlint: ignore[SBX001] -- rig\n"
               "run: build ; @docker run --rm $(IMAGE)\n"
               "\t@echo \"start $$HOME\" $${X} '$(Q)'\n"
               "ifdef CI\n"
               "\t-docker run --privileged \\\n"
               "\t  -v $(PWD):/w $@ $$(id -u) # go\n"
               "endif\n"
               "\t$(DOCKER) run -v /:/host x\n"
               "VAR = 1\n"
               "\tdocker run after-a-variable\n"
               "define canned =\n"
               "docker run --pid=host canned\n"
               "endef\n"
               "bad:\n"
               "\techo \"unterminated\n"
               "\tdocker create after-bad\n"
               "x: a:b c\n"
               "\tpodman run last\n",
               SHELL_DIALECT_MAKEFILE, NULL);
    expect_words(0, "docker", "run", "--rm", "$(IMAGE)", NULL);
    expect_span(&got.commands[0].words[0], 5, 15, 5, 21);
    expect_words(1, "echo", "start $$HOME", "$${X}", "$(Q)", NULL);
    assert_true(got.commands[1].words[3].flags & SHELL_WORD_INTERPOLATED);
    expect_words(2, "id", "-u", NULL);
    expect_words(3, "docker", "run", "--privileged", "-v", "$(PWD):/w", "$@", "$$(id -u)",
                 NULL);
    expect_span(&got.commands[3].words[3], 9, 4, 9, 6);
    expect_words(4, "$(DOCKER)", "run", "-v", "/:/host", "x", NULL);
    assert_int_equal(got.commands[4].kind, SHELL_PROGRAM_ENGINE);
    assert_int_equal(got.commands[4].program.engine, SHELL_ENGINE_INTERPOLATED);
    expect_words(5, "docker", "run", "--pid=host", "canned", NULL);
    expect_words(6, "docker", "create", "after-bad", NULL);
    expect_words(7, "podman", "run", "last", NULL);
    assert_int_equal(got.count, 8);
    assert_int_equal(got.result.problem_count, 1);
    assert_int_equal(got.result.problems[0].line, 18);
    assert_int_equal(got.result.problems[0].column, 7);
    assert_int_equal(got.result.comments.count, 2);
    assert_int_equal(got.result.comments.items[0].line, 4);
    assert_true(got.result.comments.items[0].own_line);
    assert_int_equal(got.result.comments.items[1].line, 9);
    assert_false(got.result.comments.items[1].own_line);
}

/* ---- the program ------------------------------------------------------------ */

static void expect_program(const char *text, enum shell_program_kind kind,
                           enum shell_engine engine, size_t program, unsigned flags)
{
    split(text);
    const struct command_copy *command = &got.commands[got.count - 1];
    if (command->kind != kind || command->program.engine != engine ||
        (kind != SHELL_PROGRAM_OTHER && command->program.program != program) ||
        command->program.flags != flags)
        fail_msg("'%s': kind %d engine %d program %zu flags %u", text, command->kind,
                 command->program.engine, command->program.program, command->program.flags);
}

static void test_programs(void **state)
{
    (void)state;
    const enum shell_program_kind engine = SHELL_PROGRAM_ENGINE, other = SHELL_PROGRAM_OTHER;
    const unsigned wrapped = SHELL_PROGRAM_WRAPPED;
    expect_program("docker run x", engine, SHELL_ENGINE_DOCKER, 0, 0);
    expect_program("/usr/local/bin/podman run x", engine, SHELL_ENGINE_PODMAN, 0, 0);
    expect_program("podman-remote run x", engine, SHELL_ENGINE_PODMAN, 0, 0);
    expect_program("\"nerdctl\" run x", engine, SHELL_ENGINE_NERDCTL, 0, 0);
    expect_program("A=1 B=\"2 3\" docker run", engine, SHELL_ENGINE_DOCKER, 2, 0);
    expect_program("sudo docker run", engine, SHELL_ENGINE_DOCKER, 1, wrapped);
    expect_program("sudo -E -u root --preserve-env=PATH -g docker docker run", engine,
                   SHELL_ENGINE_DOCKER, 7, wrapped);
    expect_program("sudo -Eu root X=1 docker run", engine, SHELL_ENGINE_DOCKER, 4, wrapped);
    expect_program("sudo -uroot -- docker run", engine, SHELL_ENGINE_DOCKER, 3, wrapped);
    expect_program("sudo --frobnicate docker run", engine, SHELL_ENGINE_DOCKER, 2,
                   wrapped | SHELL_PROGRAM_UNSURE);
    expect_program("exec -a name docker run", engine, SHELL_ENGINE_DOCKER, 3, wrapped);
    expect_program("env -i -u HOME PATH=/bin A=b docker run", engine, SHELL_ENGINE_DOCKER, 6,
                   wrapped);
    expect_program("time -p nice -n 5 nohup timeout -s KILL 10m setsid -f docker run", engine,
                   SHELL_ENGINE_DOCKER, 12, wrapped);
    expect_program("command docker run", engine, SHELL_ENGINE_DOCKER, 1, wrapped);
    expect_program("command -v docker", other, 0, 0, 0);
    expect_program("command -V docker", other, 0, 0, 0);
    expect_program("if docker run x; then :; fi", other, 0, 0, 0);
    split("if docker run x; then :; fi");
    assert_int_equal(got.commands[0].kind, engine);
    assert_int_equal(got.commands[0].program.program, 1);
    expect_program("! { docker run x", engine, SHELL_ENGINE_DOCKER, 2, 0);
    expect_program("while do docker run x", engine, SHELL_ENGINE_DOCKER, 2, 0);
    expect_program("\"if\" docker run x", other, 0, 0, 0);
    expect_program("$DOCKER run x", engine, SHELL_ENGINE_INTERPOLATED, 0, 0);
    expect_program("${CONTAINER_ENGINE:-podman} container run x", engine,
                   SHELL_ENGINE_INTERPOLATED, 0, 0);
    expect_program("$DOCKER ps", other, 0, 0, 0);
    expect_program("$(MAKE) run", other, 0, 0, 0);
    expect_program("$PYTHON run x", other, 0, 0, 0);
    expect_program("dockerd run", other, 0, 0, 0);
    expect_program("docker", engine, SHELL_ENGINE_DOCKER, 0, 0);
    expect_program("sudo", other, 0, 0, 0);
    expect_program("A=1", other, 0, 0, 0);

    expect_program("sh -c 'docker run --privileged x'", SHELL_PROGRAM_SHELL_TEXT, 0, 0, 0);
    assert_int_equal(got.commands[0].program.text, 2);
    expect_program("sudo bash -xec \"docker run x\" name arg", SHELL_PROGRAM_SHELL_TEXT, 0, 1,
                   wrapped);
    assert_int_equal(got.commands[0].program.text, 3);
    expect_program("bash -o pipefail -c 'x'", SHELL_PROGRAM_SHELL_TEXT, 0, 0, 0);
    assert_int_equal(got.commands[0].program.text, 4);
    expect_program("bash script.sh", other, 0, 0, 0);
    expect_program("eval \"docker run $OPTS x\"", SHELL_PROGRAM_SHELL_TEXT, 0, 0, 0);
    assert_int_equal(got.commands[0].program.text, 1);
    expect_program("eval docker run x", engine, SHELL_ENGINE_DOCKER, 1, wrapped);
    expect_program("env -S'docker run x'", SHELL_PROGRAM_SHELL_TEXT, 0, 0, 0);
    assert_int_equal(got.commands[0].program.text, 1);
    assert_int_equal(got.commands[0].program.text_offset, 2);
    expect_program("env --split-string='docker run x'", SHELL_PROGRAM_SHELL_TEXT, 0, 0, 0);
    assert_int_equal(got.commands[0].program.text_offset, 15);

    /* Programs that run their arguments as a command (0.3). */
    expect_program("xargs docker run", engine, SHELL_ENGINE_DOCKER, 1, wrapped);
    expect_program("xargs -0 -n 1 -P4 -I {} docker run", engine, SHELL_ENGINE_DOCKER, 7,
                   wrapped);
    expect_program("xargs --max-args=1 -r podman run", engine, SHELL_ENGINE_PODMAN, 3, wrapped);
    expect_program("su -c 'docker run x'", SHELL_PROGRAM_SHELL_TEXT, 0, 0, 0);
    assert_int_equal(got.commands[0].program.text, 2);
    expect_program("su - deploy -c 'docker run x'", SHELL_PROGRAM_SHELL_TEXT, 0, 0, 0);
    assert_int_equal(got.commands[0].program.text, 4);
    expect_program("su deploy -s /bin/sh --command='docker run x'", SHELL_PROGRAM_SHELL_TEXT, 0,
                   0, 0);
    assert_int_equal(got.commands[0].program.text, 4);
    assert_int_equal(got.commands[0].program.text_offset, 10);
    expect_program("su -lc'docker run x' deploy", SHELL_PROGRAM_SHELL_TEXT, 0, 0, 0);
    assert_int_equal(got.commands[0].program.text_offset, 3);
    expect_program("su deploy", other, 0, 0, 0);
    expect_program("find . -maxdepth 1 -exec docker run {} ';'", engine, SHELL_ENGINE_DOCKER, 5,
                   wrapped);
    expect_program("find . -type f -execdir sudo podman run x +", engine, SHELL_ENGINE_PODMAN,
                   6, wrapped);
    expect_program("find . -name docker", other, 0, 0, 0);
    expect_program("flock /tmp/l docker run x", engine, SHELL_ENGINE_DOCKER, 2, wrapped);
    expect_program("flock -w 5 /tmp/l -n docker run x", engine, SHELL_ENGINE_DOCKER, 5, wrapped);
    expect_program("flock /tmp/l -c 'docker run x'", SHELL_PROGRAM_SHELL_TEXT, 0, 0, 0);
    assert_int_equal(got.commands[0].program.text, 3);
    expect_program("flock 9", other, 0, 0, 0);
    expect_program("watch -n 60 docker run x", engine, SHELL_ENGINE_DOCKER, 3, wrapped);
    expect_program("watch -d 'docker run x'", SHELL_PROGRAM_SHELL_TEXT, 0, 0, 0);
    assert_int_equal(got.commands[0].program.text, 2);
    expect_program("watch -x docker", engine, SHELL_ENGINE_DOCKER, 2, wrapped);
    expect_program("$ENGINE run x", engine, SHELL_ENGINE_INTERPOLATED, 0, 0);
    expect_program("\"${ENGINE:-podman}\" run x", engine, SHELL_ENGINE_INTERPOLATED, 0, 0);
}

/* The text of sh -c splits again, at the position it was written. */
static void test_shell_text_origin(void **state)
{
    (void)state;
    const char *text = "x; sh -c 'docker run \\\n  --privileged y'";
    split(text);
    const struct command_copy *command = &got.commands[1];
    assert_int_equal(command->kind, SHELL_PROGRAM_SHELL_TEXT);
    struct shell_word word = {
        command->words[2].text, command->words[2].length, command->words[2].literal_length,
        command->words[2].offset, command->words[2].source_length, command->words[2].line,
        command->words[2].column, command->words[2].end_line, command->words[2].end_column,
        command->words[2].flags,
    };
    struct shell_origin origin = shell_word_origin(text, &word);
    assert_int_equal(origin.line, 1);
    assert_int_equal(origin.column, 11);
    char *inner = strdup(word.text);
    split_with(inner, SHELL_DIALECT_SCRIPT, &origin);
    expect_words(0, "docker", "run", "--privileged", "y", NULL);
    expect_span(&got.commands[0].words[0], 1, 11, 1, 17);
    expect_span(&got.commands[0].words[2], 2, 3, 2, 15);
    free(inner);
}

/* ---- hostile input ---------------------------------------------------------- */

static long max_resident_kib(void)
{
    struct rusage usage;
    assert_int_equal(getrusage(RUSAGE_SELF, &usage), 0);
    return usage.ru_maxrss;
}

struct counter {
    size_t commands, engines;
};

static int count_engines(void *data, const struct shell_command *command)
{
    struct counter *counter = data;
    struct shell_program program;
    counter->commands++;
    if (shell_find_program(command, &program) == SHELL_PROGRAM_ENGINE)
        counter->engines++;
    return 0;
}

/* A million docker run lines: every one found, and memory for one at a
 * time (the peak grows by far less than the text). */
static void test_a_million_commands(void **state)
{
    (void)state;
    const char *line = "docker run --rm -v /srv/a:/a -e KEY=value image:tag cmd\n";
    size_t line_length = strlen(line), count = 1000000;
    char *text = malloc(line_length * count + 1);
    assert_non_null(text);
    for (size_t i = 0; i < count; i++)
        memcpy(text + i * line_length, line, line_length);
    text[line_length * count] = '\0';
    long before = max_resident_kib();
    struct counter counter = { 0, 0 };
    struct shell_result result;
    assert_int_equal(shell_split(text, line_length * count, SHELL_DIALECT_SCRIPT, NULL,
                                 count_engines, &counter, &result), 0);
    long grown = max_resident_kib() - before;
    assert_int_equal(counter.commands, count);
    assert_int_equal(counter.engines, count);
    assert_int_equal(result.command_count, count);
    /* The text is 57 MB; holding its words would take several times that. */
    if (grown > 8 * 1024)
        fail_msg("the peak grew by %ld KiB while splitting", grown);
    shell_result_release(&result);
    free(text);
}

/* A 1 MB line: one word, many words, an unterminated quote at its start. */
static void test_long_lines(void **state)
{
    (void)state;
    size_t length = 1 << 20;
    char *text = malloc(length + 1);
    assert_non_null(text);
    memset(text, 'a', length);
    text[length] = '\0';
    split(text);
    assert_int_equal(got.count, 1);
    assert_int_equal(got.commands[0].words[0].length, length);
    for (size_t i = 1; i < length; i += 2)
        text[i] = ' ';
    split(text);
    assert_int_equal(got.commands[0].word_count, length / 2);
    text[0] = '\'';
    split(text);
    assert_int_equal(got.count, 0);
    assert_int_equal(got.result.problem_count, 1);
    memset(text, '(', length);
    split(text);
    assert_int_equal(got.count, 0);
    for (size_t i = 0; i < length; i++)
        text[i] = "$(\"`'\\\n;|&<>{}#"[i % 16];
    split(text);      /* whatever it makes of it, it ends */
    free(text);
}

/* A callback can stop the split. */
static int stop_at_second(void *data, const struct shell_command *command)
{
    (void)data;
    return command->index == 1 ? 42 : 0;
}

static void test_callback_stops(void **state)
{
    (void)state;
    struct shell_result result;
    assert_int_equal(shell_split("a\nb\nc\n", 6, SHELL_DIALECT_SCRIPT, NULL, stop_at_second,
                                 NULL, &result), 42);
    assert_int_equal(result.command_count, 2);
    shell_result_release(&result);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_words_as_the_shell_splits_them, teardown),
        cmocka_unit_test_teardown(test_recipes_as_make_runs_them, teardown),
        cmocka_unit_test_teardown(test_positions, teardown),
        cmocka_unit_test_teardown(test_origin_of_a_block_scalar, teardown),
        cmocka_unit_test_teardown(test_origin_from_the_yaml_model, teardown),
        cmocka_unit_test_teardown(test_crlf_and_columns, teardown),
        cmocka_unit_test_teardown(test_separators, teardown),
        cmocka_unit_test_teardown(test_redirections_are_not_arguments, teardown),
        cmocka_unit_test_teardown(test_heredocs_are_data, teardown),
        cmocka_unit_test_teardown(test_heredocs_run_by_a_shell, teardown),
        cmocka_unit_test_teardown(test_comments, teardown),
        cmocka_unit_test_teardown(test_expansions_are_kept_and_marked, teardown),
        cmocka_unit_test_teardown(test_substitutions_nest, teardown),
        cmocka_unit_test_teardown(test_bash_quotes_are_marked, teardown),
        cmocka_unit_test_teardown(test_unterminated_constructs, teardown),
        cmocka_unit_test_teardown(test_nesting_limit, teardown),
        cmocka_unit_test_teardown(test_makefile_recipes, teardown),
        cmocka_unit_test_teardown(test_programs, teardown),
        cmocka_unit_test_teardown(test_shell_text_origin, teardown),
        cmocka_unit_test_teardown(test_a_million_commands, teardown),
        cmocka_unit_test_teardown(test_long_lines, teardown),
        cmocka_unit_test_teardown(test_callback_stops, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
