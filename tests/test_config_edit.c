/* Unit tests for the allowlist editor (core/config_edit*.c): a table of
 * (input, changes, expected output or error at line:col) for INI and TOML,
 * then idempotence, and a realistic pyproject.toml from the shared corpus. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_edit.h"
#include "config_file.h"
#include "source.h"
#include "text_buffer.h"
#include "toml/toml_write.h"
#include "utf8.h"

#define MAX_CHANGES 8

struct change {
    const char *group, *scope, *key;
    size_t key_length;          /* 0: strlen(key) */
};

struct edit_case {
    const char *name;
    enum config_format format;
    const char *input;          /* NULL: no file yet */
    struct change add[MAX_CHANGES];
    struct change remove[MAX_CHANGES];  /* the first parsed entry equal to it */
    const char *output;         /* NULL: an error is expected */
    size_t added, removed;
    unsigned line, column;      /* of the expected error */
    const char *error;
};

static size_t key_length(const struct change *change)
{
    return change->key_length ? change->key_length : strlen(change->key);
}

static size_t count_changes(const struct change *changes)
{
    size_t count = 0;
    while (count < MAX_CHANGES && changes[count].group != NULL)
        count++;
    return count;
}

static void to_edit_entries(const struct change *changes, size_t count,
                            struct config_edit_entry *entries)
{
    for (size_t i = 0; i < count; i++) {
        entries[i].group = changes[i].group;
        entries[i].group_length = strlen(changes[i].group);
        entries[i].scope = changes[i].scope;
        entries[i].scope_length = strlen(changes[i].scope);
        entries[i].key = changes[i].key;
        entries[i].key_length = key_length(&changes[i]);
    }
}

static int parse(enum config_format format, const char *text, struct config *config)
{
    struct config_error error = { NULL, { 0, 0 }, false };
    config_init(config);
    int result = format == CONFIG_INI ? config_parse_ini(config, text, strlen(text), &error)
                                      : config_parse_toml(config, text, strlen(text), &error);
    config_error_release(&error);
    return result;
}

/* The parsed entries to remove, copied out of config (borrowed texts). */
static void find_removals(const struct edit_case *c, const struct config *config,
                          struct allowlist_entry *removals, size_t count)
{
    for (size_t r = 0; r < count; r++) {
        const struct change *wanted = &c->remove[r];
        size_t i;
        for (i = 0; i < config->entry_count; i++) {
            const struct allowlist_entry *entry = &config->entries[i];
            if (strcmp(entry->group.text, wanted->group) == 0 &&
                strcmp(entry->scope.text, wanted->scope) == 0 &&
                entry->key.length == key_length(wanted) &&
                memcmp(entry->key.text, wanted->key, entry->key.length) == 0)
                break;
        }
        if (i == config->entry_count)
            fail_msg("%s: no entry %s/%s/%s to remove", c->name, wanted->group,
                     wanted->scope, wanted->key);
        removals[r] = config->entries[i];
    }
}

static void run_case(const struct edit_case *c)
{
    struct config config;
    config_init(&config);
    size_t add_count = count_changes(c->add), remove_count = count_changes(c->remove);
    struct config_edit_entry add[MAX_CHANGES];
    struct allowlist_entry remove[MAX_CHANGES];
    to_edit_entries(c->add, add_count, add);
    if (remove_count > 0) {
        if (parse(c->format, c->input, &config) != 0)
            fail_msg("%s: the input does not parse", c->name);
        find_removals(c, &config, remove, remove_count);
    }
    struct config_edit_result result;
    struct config_error error = { NULL, { 0, 0 }, false };
    int status = config_edit_allowlist(c->format, c->input, c->input ? strlen(c->input) : 0,
                                       add, add_count, remove, remove_count, &result,
                                       &error);
    if (c->output == NULL) {
        if (status == 0)
            fail_msg("%s: accepted, giving:\n%s", c->name, result.text);
        if (error.pos.line != c->line || error.pos.column != c->column ||
            strstr(error.message, c->error) == NULL)
            fail_msg("%s:\n  got      %u:%u: %s\n  expected %u:%u: ...%s...", c->name,
                     error.pos.line, error.pos.column, error.message, c->line, c->column,
                     c->error);
        config_error_release(&error);
        config_release(&config);
        return;
    }
    if (status != 0)
        fail_msg("%s: refused at %u:%u: %s", c->name, error.pos.line, error.pos.column,
                 error.message);
    if (result.length != strlen(c->output) || memcmp(result.text, c->output, result.length))
        fail_msg("%s: got\n---\n%s---\nexpected\n---\n%s---", c->name, result.text,
                 c->output);
    if (result.added != c->added || result.removed != c->removed)
        fail_msg("%s: added %zu, removed %zu; expected %zu and %zu", c->name, result.added,
                 result.removed, c->added, c->removed);

    /* Idempotent: the same additions again change nothing. */
    struct config_edit_result again;
    status = config_edit_allowlist(c->format, result.text, result.length, add, add_count,
                                   NULL, 0, &again, &error);
    if (status != 0)
        fail_msg("%s: second run refused: %s", c->name, error.message);
    if (again.added != 0 || again.length != result.length ||
        memcmp(again.text, result.text, result.length) != 0)
        fail_msg("%s: a second run changed the file:\n%s", c->name, again.text);
    config_edit_result_release(&again);
    config_edit_result_release(&result);
    config_release(&config);
}

/* ------------------------------------------------------------------ */
/* INI                                                                 */

#define SP "sandbox_privileges"

static const struct edit_case ini_cases[] = {
    {
        "INI: a new file", CONFIG_INI, NULL,
        { { SP, "cybench", "default:volumes:/var/run/docker.sock", 0 },
          { SP, "cybench", "default:privileged", 0 },
          { "acme", "*", "web:extra_hosts:host-gateway", 0 },
          { SP, "*", "web:privileged", 0 } },
        { { NULL, NULL, NULL, 0 } },
        "[allowlist acme]\n"
        "* = web:extra_hosts:host-gateway\n"
        "\n"
        "[allowlist sandbox_privileges]\n"
        "* = web:privileged\n"
        "cybench = default:privileged\n"
        "cybench = default:volumes:/var/run/docker.sock\n",
        4, 0, 0, 0, NULL,
    },
    {
        "INI: after the package's entries, sorted; new packages at the section's end",
        CONFIG_INI,
        "# top comment\n"
        "[sandlint]\n"
        "packages = src/*\n"
        "\n"
        "[allowlist sandbox_privileges]\n"
        "; reviewed in #12\n"
        "cybench = b:x\n"
        "# between entries\n"
        "cybench = d:y\n"
        "dind = default:privileged ; inline comment\n"
        "\n"
        "[allowlist acme]\n"
        "tools = runner:x\n",
        { { SP, "cybench", "c:z", 0 }, { SP, "cybench", "a:w", 0 },
          { SP, "aaa", "k:1", 0 }, { SP, "dind", "default:privileged", 0 } },
        { { NULL, NULL, NULL, 0 } },
        "# top comment\n"
        "[sandlint]\n"
        "packages = src/*\n"
        "\n"
        "[allowlist sandbox_privileges]\n"
        "; reviewed in #12\n"
        "cybench = b:x\n"
        "# between entries\n"
        "cybench = d:y\n"
        "cybench = a:w\n"
        "cybench = c:z\n"
        "dind = default:privileged ; inline comment\n"
        "aaa = k:1\n"
        "\n"
        "[allowlist acme]\n"
        "tools = runner:x\n",
        3, 0, 0, 0, NULL,
    },
    {
        "INI: CRLF lines stay CRLF", CONFIG_INI,
        "[allowlist sandbox_privileges]\r\n"
        "cybench = b:x\r\n",
        { { SP, "cybench", "c:y", 0 }, { "acme", "p", "k", 0 } },
        { { NULL, NULL, NULL, 0 } },
        "[allowlist sandbox_privileges]\r\n"
        "cybench = b:x\r\n"
        "cybench = c:y\r\n"
        "\r\n"
        "[allowlist acme]\r\n"
        "p = k\r\n",
        2, 0, 0, 0, NULL,
    },
    {
        "INI: a file without a final newline keeps none", CONFIG_INI,
        "[allowlist sandbox_privileges]\n"
        "cybench = b:x",
        { { SP, "cybench", "c:y", 0 } },
        { { NULL, NULL, NULL, 0 } },
        "[allowlist sandbox_privileges]\n"
        "cybench = b:x\n"
        "cybench = c:y",
        1, 0, 0, 0, NULL,
    },
    {
        "INI: a new section after a file without a final newline", CONFIG_INI,
        "[sandlint]\n"
        "select = SBX",
        { { SP, "p", "web:privileged", 0 } },
        { { NULL, NULL, NULL, 0 } },
        "[sandlint]\n"
        "select = SBX\n"
        "\n"
        "[allowlist sandbox_privileges]\n"
        "p = web:privileged\n",
        1, 0, 0, 0, NULL,
    },
    {
        "INI: an empty section gets entries after its header", CONFIG_INI,
        "[allowlist sandbox_privileges] ; none yet\n"
        "\n"
        "[sandlint]\n",
        { { SP, "p", "k", 0 } },
        { { NULL, NULL, NULL, 0 } },
        "[allowlist sandbox_privileges] ; none yet\n"
        "p = k\n"
        "\n"
        "[sandlint]\n",
        1, 0, 0, 0, NULL,
    },
    {
        "INI: the last of two sections of a group", CONFIG_INI,
        "[allowlist g]\n"
        "a = 1\n"
        "[allowlist g]\n"
        "b = 2\n"
        "[sandlint]\n",
        { { "g", "c", "3", 0 }, { "g", "a", "0", 0 } },
        { { NULL, NULL, NULL, 0 } },
        "[allowlist g]\n"
        "a = 1\n"
        "a = 0\n"
        "[allowlist g]\n"
        "b = 2\n"
        "c = 3\n"
        "[sandlint]\n",
        2, 0, 0, 0, NULL,
    },
    {
        "INI: removal takes exactly the entry's line", CONFIG_INI,
        "[allowlist g]\n"
        "a = 1 ; why\n"
        "# keep me\n"
        "a = 2\n"
        "b = 3",
        { { NULL, NULL, NULL, 0 } },
        { { "g", "a", "1", 0 }, { "g", "b", "3", 0 } },
        "[allowlist g]\n"
        "# keep me\n"
        "a = 2",
        0, 2, 0, 0, NULL,
    },
    {
        "INI: a continuation line goes alone", CONFIG_INI,
        "[allowlist g]\n"
        "a = 1\n"
        "    2\n"
        "    3\n",
        { { "g", "a", "4", 0 } },
        { { "g", "a", "2", 0 } },
        "[allowlist g]\n"
        "a = 1\n"
        "    3\n"
        "a = 4\n",
        1, 1, 0, 0, NULL,
    },
    {
        "INI: a continued first line cannot go alone", CONFIG_INI,
        "[allowlist g]\n"
        "a = 1\n"
        "    2\n",
        { { NULL, NULL, NULL, 0 } },
        { { "g", "a", "1", 0 } },
        NULL, 0, 0, 2, 5, "the indented line 3 continues 'a'",
    },
    {
        "INI: added and removed stays, present is not added twice", CONFIG_INI,
        "[allowlist g]\n"
        "a = 1\n",
        { { "g", "a", "1", 0 }, { "g", "a", "1", 0 } },
        { { "g", "a", "1", 0 } },
        "[allowlist g]\n"
        "a = 1\n",
        0, 0, 0, 0, NULL,
    },
    {
        "INI: two equal additions make one entry", CONFIG_INI,
        "[allowlist g]\n",
        { { "g", "p", "1", 0 }, { "g", "p", "1", 0 } },
        { { NULL, NULL, NULL, 0 } },
        "[allowlist g]\n"
        "p = 1\n",
        1, 0, 0, 0, NULL,
    },
    {
        "INI: path scopes are written like package names", CONFIG_INI,
        "[allowlist g]\n"
        "evals/a/compose.yaml = web:pid:host\n",
        { { "g", "evals/a/compose.yaml", "web:privileged", 0 },
          { "g", "./compose.yaml", "web:privileged", 0 },
          { "g", "evals/b/", "web:privileged", 0 } },
        { { NULL, NULL, NULL, 0 } },
        "[allowlist g]\n"
        "evals/a/compose.yaml = web:pid:host\n"
        "evals/a/compose.yaml = web:privileged\n"
        "./compose.yaml = web:privileged\n"
        "evals/b/ = web:privileged\n",
        3, 0, 0, 0, NULL,
    },
    {
        "INI: a path with ':' cannot be written", CONFIG_INI,
        "[allowlist g]\n",
        { { "g", "evals/a:b/compose.yaml", "k", 0 } },
        { { NULL, NULL, NULL, 0 } },
        NULL, 0, 0, 0, 0, "the scope: a name ends at the first '=' or ':'",
    },
    {
        "INI: a bidi control cannot be written (TOML escapes it)", CONFIG_INI,
        "[allowlist g]\n",
        { { "g", "p", "web:cap_add:\xe2\x80\xaeNIMDA_SYS", 0 } },
        { { NULL, NULL, NULL, 0 } },
        NULL, 0, 0, 0, 0, "control character or an invisible formatting character",
    },
    {
        "INI: keys with quotes, backslashes, unicode, '=' and ':'", CONFIG_INI,
        "[allowlist g]\n",
        { { "g", "*", "web:volumes:C:\\data \"x\" \xC3\xA9=1#2", 0 } },
        { { NULL, NULL, NULL, 0 } },
        "[allowlist g]\n"
        "* = web:volumes:C:\\data \"x\" \xC3\xA9=1#2\n",
        1, 0, 0, 0, NULL,
    },
    {
        "INI: a key with a trailing blank cannot be written", CONFIG_INI,
        "[allowlist g]\n",
        { { "g", "p", "web:x ", 0 } },
        { { NULL, NULL, NULL, 0 } },
        NULL, 0, 0, 0, 0, "the key: inih would drop its leading or trailing blanks",
    },
    {
        "INI: a key with ' ;' cannot be written", CONFIG_INI,
        "[allowlist g]\n",
        { { "g", "p", "web:a ;b", 0 } },
        { { NULL, NULL, NULL, 0 } },
        NULL, 0, 0, 0, 0, "';' after a blank",
    },
    {
        "INI: a key with a newline cannot be written", CONFIG_INI,
        "[allowlist g]\n",
        { { "g", "p", "a\nb = c", 0 } },
        { { NULL, NULL, NULL, 0 } },
        NULL, 0, 0, 0, 0, "control character",
    },
    {
        "INI: a NUL cannot be written", CONFIG_INI,
        "[allowlist g]\n",
        { { "g", "p", "a\0b", 3 } },
        { { NULL, NULL, NULL, 0 } },
        NULL, 0, 0, 0, 0, "control character",
    },
    {
        "INI: a package name with ':' cannot be written", CONFIG_INI,
        "[allowlist g]\n",
        { { "g", "a:b", "k", 0 } },
        { { NULL, NULL, NULL, 0 } },
        NULL, 0, 0, 0, 0, "the scope: a name ends at the first '=' or ':'",
    },
    {
        "INI: a syntax error in the file", CONFIG_INI,
        "[allowlist g]\n"
        "no equals sign here\n",
        { { "g", "p", "k", 0 } },
        { { NULL, NULL, NULL, 0 } },
        NULL, 0, 0, 2, 1, "syntax error",
    },
};

/* ------------------------------------------------------------------ */
/* TOML                                                                */

#define IEL "[tool.inspect-evals-lint.allowlists.sandbox_privileges]\n"

static const struct edit_case toml_cases[] = {
    {
        "TOML: the inspect-evals-lint table keeps being used", CONFIG_TOML,
        "[project]\n"
        "name = \"evals\"\n"
        "\n"
        "[tool.inspect-evals-lint]\n"
        "other = 1\n"
        "\n"
        IEL
        "# reviewed\n"
        "cybench = [\n"
        "    \"default:privileged\",  # needs ptrace\n"
        "    # the socket is for docker-in-docker\n"
        "    \"default:volumes:/var/run/docker.sock\",\n"
        "]\n"
        "\n"
        "[tool.ruff]\n"
        "src = [\"src\"]\n",
        { { SP, "cybench", "default:cap_add:SYS_ADMIN", 0 },
          { SP, "cybench", "default:cap_add:NET_ADMIN", 0 },
          { SP, "dind", "default:privileged", 0 } },
        { { NULL, NULL, NULL, 0 } },
        "[project]\n"
        "name = \"evals\"\n"
        "\n"
        "[tool.inspect-evals-lint]\n"
        "other = 1\n"
        "\n"
        IEL
        "# reviewed\n"
        "cybench = [\n"
        "    \"default:privileged\",  # needs ptrace\n"
        "    # the socket is for docker-in-docker\n"
        "    \"default:volumes:/var/run/docker.sock\",\n"
        "    \"default:cap_add:NET_ADMIN\",\n"
        "    \"default:cap_add:SYS_ADMIN\",\n"
        "]\n"
        "dind = [\"default:privileged\"]\n"
        "\n"
        "[tool.ruff]\n"
        "src = [\"src\"]\n",
        3, 0, 0, 0, NULL,
    },
    {
        "TOML: paths go to sandlint's table, never to inspect-evals-lint's", CONFIG_TOML,
        IEL
        "cybench = [\"default:privileged\"]\n",
        { { SP, "cybench", "default:pid:host", 0 },
          { SP, "evals/cybench/compose.yaml", "default:cap_add:ALL", 0 },
          { SP, "./compose.yaml", "web:privileged", 0 } },
        { { NULL, NULL, NULL, 0 } },
        IEL
        "cybench = [\"default:privileged\", \"default:pid:host\"]\n"
        "\n"
        "[tool.sandlint.allowlists.sandbox_privileges]\n"
        "\"./compose.yaml\" = [\"web:privileged\"]\n"
        "\"evals/cybench/compose.yaml\" = [\"default:cap_add:ALL\"]\n",
        3, 0, 0, 0, NULL,
    },
    {
        "TOML: with both tables, paths join sandlint's, packages the later", CONFIG_TOML,
        "[tool.sandlint.allowlists.sandbox_privileges]\n"
        "\"a/compose.yaml\" = [\"k\"]\n"
        "\n"
        IEL
        "cybench = [\"default:privileged\"]\n",
        { { SP, "b/compose.yaml", "k", 0 }, { SP, "dind", "k", 0 } },
        { { NULL, NULL, NULL, 0 } },
        "[tool.sandlint.allowlists.sandbox_privileges]\n"
        "\"a/compose.yaml\" = [\"k\"]\n"
        "\"b/compose.yaml\" = [\"k\"]\n"
        "\n"
        IEL
        "cybench = [\"default:privileged\"]\n"
        "dind = [\"k\"]\n",
        2, 0, 0, 0, NULL,
    },
    {
        "TOML: inline arrays stay inline, in their separator style", CONFIG_TOML,
        "[tool.sandlint.allowlists.g]\n"
        "a = [\"1\", \"2\"]  # inline\n"
        "b = ['x','y',]\n"
        "c = []\n"
        "d = [ ]\n",
        { { "g", "a", "3", 0 }, { "g", "b", "z", 0 }, { "g", "c", "k1", 0 },
          { "g", "c", "k2", 0 }, { "g", "d", "k", 0 } },
        { { NULL, NULL, NULL, 0 } },
        "[tool.sandlint.allowlists.g]\n"
        "a = [\"1\", \"2\", \"3\"]  # inline\n"
        "b = ['x','y',\"z\",]\n"
        "c = [\"k1\", \"k2\"]\n"
        "d = [\"k\"]\n",
        5, 0, 0, 0, NULL,
    },
    {
        "TOML: multi-line arrays, with and without trailing comma", CONFIG_TOML,
        "[tool.sandlint.allowlists.g]\n"
        "aligned = [\"a\",\n"
        "           \"b\"]\n"
        "open = [\n"
        "  \"a\"  # last\n"
        "]\n"
        "first = [\"a\",\n"
        "]\n"
        "empty = [\n"
        "  # none yet\n"
        "]\n",
        { { "g", "aligned", "c", 0 }, { "g", "open", "b", 0 }, { "g", "open", "c", 0 },
          { "g", "first", "b", 0 }, { "g", "empty", "x", 0 } },
        { { NULL, NULL, NULL, 0 } },
        "[tool.sandlint.allowlists.g]\n"
        "aligned = [\"a\",\n"
        "           \"b\",\n"
        "           \"c\"]\n"
        "open = [\n"
        "  \"a\",  # last\n"
        "  \"b\",\n"
        "  \"c\"\n"
        "]\n"
        "first = [\"a\",\n"
        "         \"b\",\n"
        "]\n"
        "empty = [\n"
        "  # none yet\n"
        "    \"x\",\n"
        "]\n",
        5, 0, 0, 0, NULL,
    },
    {
        "TOML: a new table, '*' and keys that need escapes", CONFIG_TOML,
        "[tool.sandlint]\n"
        "packages = [\"src/*\"]\n",
        { { SP, "*", "web:privileged", 0 },
          { SP, "pkg.1", "a\"b\\c\xC3\xA9\x7f\t\xE2\x80\xAE", 0 },
          { SP, "pkg.1", "nul\0here", 8 },
          { "acme-net", "tools", "runner:x", 0 } },
        { { NULL, NULL, NULL, 0 } },
        "[tool.sandlint]\n"
        "packages = [\"src/*\"]\n"
        "\n"
        "[tool.sandlint.allowlists.acme-net]\n"
        "tools = [\"runner:x\"]\n"
        "\n"
        "[tool.sandlint.allowlists.sandbox_privileges]\n"
        "\"*\" = [\"web:privileged\"]\n"
        "\"pkg.1\" = [\n"
        "    \"a\\\"b\\\\c\xC3\xA9\\u007F\\t\\u202E\",\n"
        "    \"nul\\u0000here\",\n"
        "]\n",
        4, 0, 0, 0, NULL,
    },
    {
        "TOML: CRLF, no final newline", CONFIG_TOML,
        "[tool.sandlint.allowlists.g]\r\n"
        "a = [\r\n"
        "    \"1\",\r\n"
        "]\r\n"
        "b = [\"x\"]",
        { { "g", "a", "2", 0 }, { "g", "c", "k", 0 } },
        { { NULL, NULL, NULL, 0 } },
        "[tool.sandlint.allowlists.g]\r\n"
        "a = [\r\n"
        "    \"1\",\r\n"
        "    \"2\",\r\n"
        "]\r\n"
        "b = [\"x\"]\r\n"
        "c = [\"k\"]",
        2, 0, 0, 0, NULL,
    },
    {
        "TOML: removing items and their commas", CONFIG_TOML,
        "[tool.sandlint.allowlists.g]\n"
        "inline = [\"a\", \"b\", \"c\", \"d\"]\n"
        "lines = [\n"
        "    \"a\",  # a\n"
        "    \"b\",\n"
        "    \"c\"  # c\n"
        "]\n"
        "gone = [\"x\",\n"
        "        \"y\"]  # both go\n"
        "single = \"s\"\n"
        "kept = [\"k\"]\n",
        { { NULL, NULL, NULL, 0 } },
        { { "g", "inline", "a", 0 }, { "g", "inline", "c", 0 }, { "g", "inline", "d", 0 },
          { "g", "lines", "b", 0 }, { "g", "lines", "c", 0 }, { "g", "gone", "x", 0 },
          { "g", "gone", "y", 0 }, { "g", "single", "s", 0 } },
        "[tool.sandlint.allowlists.g]\n"
        "inline = [\"b\"]\n"
        "lines = [\n"
        "    \"a\"  # a\n"
        "]\n"
        "kept = [\"k\"]\n",
        0, 8, 0, 0, NULL,
    },
    {
        "TOML: commas that start lines stay so (found by fuzzing)", CONFIG_TOML,
        "[tool.sandlint.allowlists.g]\n"
        "a = [\n"
        "    \"1\"\n"
        ",   \"2\"\n"
        ",   \"3\"]\n",
        { { "g", "a", "4", 0 } },
        { { "g", "a", "1", 0 }, { "g", "a", "3", 0 } },
        "[tool.sandlint.allowlists.g]\n"
        "a = [\n"
        "    \"2\"\n"
        ",   \"4\"]\n",
        1, 2, 0, 0, NULL,
    },
    {
        "TOML: an inline group table: arrays grow, emptied arrays stay", CONFIG_TOML,
        "[tool.sandlint]\n"
        "allowlists = { g = { a = [\"1\"], b = [\"2\"] } }\n",
        { { "g", "a", "0", 0 } },
        { { "g", "b", "2", 0 } },
        "[tool.sandlint]\n"
        "allowlists = { g = { a = [\"1\", \"0\"], b = [] } }\n",
        1, 1, 0, 0, NULL,
    },
    {
        "TOML: no new package in an inline group table", CONFIG_TOML,
        "[tool.sandlint]\n"
        "allowlists = { g = { a = [\"1\"] } }\n",
        { { "g", "new", "0", 0 } },
        { { NULL, NULL, NULL, 0 } },
        NULL, 0, 0, 2, 20, "cannot add 'new' to the allowlist table of g here "
                           "(it is an inline table)",
    },
    {
        "TOML: no new package in a dotted group table", CONFIG_TOML,
        "[tool.sandlint]\n"
        "allowlists.g.a = [\"1\"]\n",
        { { "g", "new", "0", 0 } },
        { { NULL, NULL, NULL, 0 } },
        NULL, 0, 0, 2, 12, "(it is made by dotted keys)",
    },
    {
        "TOML: a package written as one string", CONFIG_TOML,
        "[tool.sandlint.allowlists.g]\n"
        "a = \"1\"\n",
        { { "g", "a", "2", 0 } },
        { { NULL, NULL, NULL, 0 } },
        NULL, 0, 0, 2, 5, "its entry is one string",
    },
    {
        "TOML: no new table under an inline tool.sandlint", CONFIG_TOML,
        "tool.sandlint = { select = [\"SBX\"] }\n",
        { { "g", "a", "1", 0 } },
        { { NULL, NULL, NULL, 0 } },
        NULL, 0, 0, 1, 17, "tool.sandlint is an inline table here",
    },
    {
        "TOML: a syntax error in the file", CONFIG_TOML,
        "[tool.sandlint.allowlists.g]\n"
        "a = [\"1\"\n",
        { { "g", "a", "2", 0 } },
        { { NULL, NULL, NULL, 0 } },
        NULL, 0, 0, 3, 1, "unterminated array",
    },
    {
        "TOML: a key that is not UTF-8", CONFIG_TOML,
        "[tool.sandlint.allowlists.g]\n",
        { { "g", "a", "\xff", 0 } },
        { { NULL, NULL, NULL, 0 } },
        NULL, 0, 0, 0, 0, "TOML text must be UTF-8",
    },
};

static void test_ini_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(ini_cases) / sizeof(ini_cases[0]); i++)
        run_case(&ini_cases[i]);
}

static void test_toml_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(toml_cases) / sizeof(toml_cases[0]); i++)
        run_case(&toml_cases[i]);
}

/* INI and TOML treat the same characters alike: every code point the TOML
 * writer escapes, INI refuses, and INI holds every other one TOML writes as
 * it is (controls, bidirectional controls, separators, BOM included). */
static void test_same_characters_in_ini_and_toml(void **state)
{
    (void)state;
    size_t refused = 0;
    for (uint32_t code = 1; code < 0x30000; code++) {
        if (code >= 0xD800 && code <= 0xDFFF)
            continue;
        unsigned char bytes[8] = { 'k' };
        size_t length = 1 + utf8_encode(code, bytes + 1);
        bytes[length++] = 'k';
        struct config_edit_entry entry = { "g", 1, "p", 1, (const char *)bytes, length };
        const char *what, *problem;
        bool ini_refuses = config_edit_ini_writable(&entry, &what, &problem) != 0;
        struct text_buffer written = TEXT_BUFFER_INIT;
        assert_true(toml_write_string(&written, (const char *)bytes, length));
        bool toml_escapes = written.length != length + 2 ||
                            memcmp(written.bytes + 1, bytes, length) != 0;
        /* Quotes and backslashes: TOML escapes them, INI needs no escape;
         * ';' and blanks: only INI's comment and trimming rules. */
        bool ordinary_for_ini = code == '"' || code == '\\';
        bool ini_syntax = code == ' ' || code == ';';
        if (!ordinary_for_ini && !ini_syntax && ini_refuses != toml_escapes)
            fail_msg("U+%04X: INI %s, TOML %s", (unsigned)code,
                     ini_refuses ? "refuses" : "writes", toml_escapes ? "escapes" : "writes");
        refused += ini_refuses;
        text_buffer_release(&written);
    }
    /* C0 (tab too; NUL is not tried), DEL, C1, 0x061C, 0x200E-F, 0x2028-E,
     * 0x2066-9, 0xFEFF. */
    assert_int_equal(refused, 31 + 1 + 32 + 1 + 2 + 7 + 4 + 1);
}

/* An entry in both allowlists: the second one listed goes, the first stays. */
static void test_remove_one_of_two_equal_entries(void **state)
{
    (void)state;
    const char *text = "[allowlist g]\na = 1\nb = 2\na = 1\n";
    struct config config;
    assert_int_equal(parse(CONFIG_INI, text, &config), 0);
    assert_int_equal(config.entry_count, 3);
    struct config_edit_result result;
    struct config_error error = { NULL, { 0, 0 }, false };
    assert_int_equal(config_edit_allowlist(CONFIG_INI, text, strlen(text), NULL, 0,
                                           &config.entries[2], 1, &result, &error), 0);
    assert_string_equal(result.text, "[allowlist g]\na = 1\nb = 2\n");
    config_edit_result_release(&result);
    /* A position that holds no such entry is refused. */
    struct allowlist_entry moved = config.entries[0];
    moved.key.pos.line = 3;
    assert_int_equal(config_edit_allowlist(CONFIG_INI, text, strlen(text), NULL, 0, &moved,
                                           1, &result, &error), -1);
    assert_non_null(strstr(error.message, "is not in the file at this position"));
    config_error_release(&error);
    config_release(&config);
}

/* ------------------------------------------------------------------ */
/* a realistic pyproject.toml                                          */

/* Every line of original appears in edited, in order. */
static void assert_lines_kept(const char *original, const char *edited)
{
    const char *line = original;
    const char *cursor = edited;
    while (*line != '\0') {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) + 1 : strlen(line);
        char *copy = strndup(line, length);
        const char *found = strstr(cursor, copy);
        if (found == NULL)
            fail_msg("line lost or moved: %s", copy);
        cursor = found + length;
        free(copy);
        line += length;
    }
}

static void test_inspect_evals_pyproject(void **state)
{
    (void)state;
    const char *shared = getenv("SHARED_DIR");
    char path[4096];
    snprintf(path, sizeof(path), "%s/corpus/inspect_evals/pyproject.toml",
             shared ? shared : "../shared");
    struct source_text original;
    char *problem = NULL;
    if (source_read(path, 0, &original, &problem) != 0) {
        free(problem);
        skip();
    }
    /* Configured as issue 12 describes, plus an inspect-evals-lint table in
     * the middle of the file (after [tool.ruff]). */
    const char *marker = "\n[tool.ruff.lint]\n";
    const char *split = strstr(original.data, marker);
    assert_non_null(split);
    size_t head = (size_t)(split - original.data) + 1;
    char *text = NULL;
    size_t text_size = 0;
    FILE *out = open_memstream(&text, &text_size);
    assert_non_null(out);
    fprintf(out, "%.*s", (int)head, original.data);
    fprintf(out, "[tool.inspect-evals-lint.allowlists.sandbox_privileges]\n"
                 "cybench = [\"default:privileged\"]\n\n");
    fprintf(out, "%s", original.data + head);
    fprintf(out, "\n[tool.sandlint]\npackages = [\"src/inspect_evals/*\"]\n");
    fclose(out);

    static const struct change changes[] = {
        { SP, "cybench", "default:cap_add:SYS_PTRACE", 0 },
        { SP, "cybench", "default:volumes:/var/run/docker.sock", 0 },
        { SP, "gdm_capabilities", "default:network_mode:host", 0 },
        { SP, "agentdojo", "default:privileged", 0 },
        { SP, "cybench", "default:privileged", 0 },     /* already there */
        { "sandbox_hardening", "swe_bench", "default:cap_drop_all", 0 },
    };
    size_t count = sizeof(changes) / sizeof(changes[0]);
    struct config_edit_entry add[sizeof(changes) / sizeof(changes[0])];
    to_edit_entries(changes, count, add);
    struct config_edit_result result;
    struct config_error error = { NULL, { 0, 0 }, false };
    if (config_edit_allowlist(CONFIG_TOML, text, strlen(text), add, count, NULL, 0, &result,
                              &error) != 0)
        fail_msg("refused at %u:%u: %s", error.pos.line, error.pos.column, error.message);
    assert_int_equal(result.added, 5);
    assert_lines_kept(original.data, result.text);
    assert_non_null(strstr(result.text,
                           "[tool.inspect-evals-lint.allowlists.sandbox_privileges]\n"
                           "cybench = [\"default:privileged\", "
                           "\"default:cap_add:SYS_PTRACE\", "
                           "\"default:volumes:/var/run/docker.sock\"]\n"
                           "agentdojo = [\"default:privileged\"]\n"
                           "gdm_capabilities = [\"default:network_mode:host\"]\n\n"
                           "[tool.ruff.lint]\n"));
    assert_non_null(strstr(result.text, "packages = [\"src/inspect_evals/*\"]\n\n"
                                        "[tool.sandlint.allowlists.sandbox_hardening]\n"
                                        "swe_bench = [\"default:cap_drop_all\"]\n"));

    /* A second run changes nothing. */
    struct config_edit_result again;
    assert_int_equal(config_edit_allowlist(CONFIG_TOML, result.text, result.length, add,
                                           count, NULL, 0, &again, &error), 0);
    assert_int_equal(again.added, 0);
    assert_string_equal(again.text, result.text);
    config_edit_result_release(&again);

    /* Removing what was added gives the file back, but for the new table's
     * header, which stays. */
    struct config edited;
    assert_int_equal(parse(CONFIG_TOML, result.text, &edited), 0);
    struct allowlist_entry remove[8];
    size_t removals = 0;
    for (size_t i = 0; i < edited.entry_count; i++) {
        const struct allowlist_entry *entry = &edited.entries[i];
        if (strcmp(entry->key.text, "default:privileged") == 0 &&
            strcmp(entry->scope.text, "cybench") == 0)
            continue;
        remove[removals++] = *entry;
    }
    assert_int_equal(removals, 5);
    assert_int_equal(config_edit_allowlist(CONFIG_TOML, result.text, result.length, NULL, 0,
                                           remove, removals, &again, &error), 0);
    assert_int_equal(again.removed, 5);
    char *expected = NULL;
    size_t expected_size = 0;
    out = open_memstream(&expected, &expected_size);
    fprintf(out, "%s\n[tool.sandlint.allowlists.sandbox_hardening]\n", text);
    fclose(out);
    assert_string_equal(again.text, expected);
    free(expected);
    config_edit_result_release(&again);
    config_release(&edited);
    config_edit_result_release(&result);
    free(text);
    source_release(&original);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ini_cases),
        cmocka_unit_test(test_toml_cases),
        cmocka_unit_test(test_remove_one_of_two_equal_entries),
        cmocka_unit_test(test_same_characters_in_ini_and_toml),
        cmocka_unit_test(test_inspect_evals_pyproject),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
