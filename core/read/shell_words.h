/*
 * shell_words.h - shell text split into simple commands and words, as a
 * POSIX shell splits it, with the position of every word in the file
 * (which program a command runs: shell_program.h).
 *
 * What is split as the shell does (checked against sh itself by
 * tests/test_shell_words.c): blanks, single quotes, double quotes (where a
 * backslash escapes only $ ` " \ and a line break), backslashes outside
 * quotes, backslash-newline line continuations, comments ('#' starting a
 * word), the separators ; & && | || ;; ( ) and line breaks, redirections
 * (< > >> <& >& <> >| << <<- <<<, bash's &> &>>, with an fd number before
 * them: neither the operator nor its target is an argument), and
 * here-documents (their bodies are data, skipped, unless the callback says
 * a shell reads the body as its script: see shell_command.heredoc_script).
 *
 * What is kept as written and marked instead of evaluated: parameter
 * expansions ($NAME, $1, $@, ${...}), command substitutions ($(...),
 * `...`, bash's <(...) and >(...)), arithmetic ($((...))) and, in
 * Makefiles, make's references ($(VAR), ${VAR}, $@).  A word holding one is
 * SHELL_WORD_INTERPOLATED: its text shows the expansion as written (after
 * quote removal around it), and literal_length says how much of the text
 * comes before the first expansion.  The commands inside a command
 * substitution are commands too: each is handed over on its own (depth 1
 * and deeper), before the command that contains it.
 *
 * Deliberate differences from sh: CR LF and a lone CR end a line (a script
 * edited on Windows reads as its author meant); unquoted ~ and * ? [ are
 * kept and marked, not expanded; bash's $'...' and $"..." are split as sh
 * splits them and marked interpolated (bash reads them differently).
 *
 * Dialects: a shell script (or a block of shell text such as a CI step),
 * or a Makefile, where only recipe lines are shell: lines starting with a
 * tab after a rule, the text after ';' on a rule line, and every line of a
 * define...endef block (canned recipes); the recipe prefixes @ - + are
 * dropped, $$ is the shell's $, make references are interpolations, and
 * each recipe line is its own shell (a problem in one does not stop the
 * next).
 *
 * Bounded: time and memory are linear in the text, nothing recurses, and
 * only the words of the commands being read are held (a script of a
 * million commands costs the memory of one).
 */
#ifndef SANDLINT_SHELL_WORDS_H
#define SANDLINT_SHELL_WORDS_H

#include <stddef.h>

#include "comment_list.h"

enum shell_dialect {
    SHELL_DIALECT_SCRIPT = 0,   /* sh, bash; a CI step's run: or script: text */
    SHELL_DIALECT_MAKEFILE,     /* a whole Makefile */
    SHELL_DIALECT_MAKE_TEXT     /* one command make expands before a shell
                                   runs it: the argument of $(shell ...) */
};

/* Where the text sits in its file: its first byte is at (line, column);
 * every later line starts at column indent + 1 (the indentation a YAML
 * literal block scalar removed from each line).  A whole file is
 * { 1, 1, 0 }. */
struct shell_origin {
    unsigned line, column;
    unsigned indent;
};

enum shell_word_flags {
    SHELL_WORD_QUOTED = 0x1,        /* some of it was quoted or escaped */
    SHELL_WORD_INTERPOLATED = 0x2,  /* holds an expansion: its value is not known */
    SHELL_WORD_SPLIT = 0x4,         /* an expansion the shell may split into several
                                       words or none (unquoted, or "$@") */
    SHELL_WORD_GLOB = 0x8,          /* an unquoted * ? [ the shell may replace by file
                                       names */
    SHELL_WORD_TILDE = 0x10,        /* an unquoted ~ at its start (a home directory) */
    SHELL_WORD_ASSIGNMENT = 0x20    /* starts with an unquoted NAME= (an assignment when
                                       it comes before the command name) */
};

struct shell_word {
    const char *text;           /* after quote removal, expansions as written;
                                   NUL-terminated (it may hold other NUL bytes:
                                   use length) */
    size_t length;
    size_t literal_length;      /* bytes of text before the first expansion */
    size_t offset, source_length;   /* the word as written, in the text given */
    unsigned line, column;      /* 1-based, in the file (the origin applied) */
    unsigned end_line, end_column;  /* exclusive */
    unsigned flags;             /* enum shell_word_flags */
};

/* One simple command.  Everything it points to is borrowed and lives
 * until the callback returns. */
struct shell_command {
    const struct shell_word *words;
    size_t word_count;          /* at least 1 */
    unsigned depth;             /* 0; 1 inside one command substitution... */
    size_t index;               /* 0 for the first command handed over */
    bool *heredoc_script;       /* when the command has here-documents: the
                                   callback sets *heredoc_script when its program
                                   is a shell that reads its script from standard
                                   input (shell_find_program's
                                   SHELL_PROGRAM_STDIN_SCRIPT), and the last one
                                   there is then split as shell text, its commands
                                   handed over in turn; else NULL */
};

/* Called once per simple command, in the order the commands end (so a
 * command substitution's commands come before the command holding it).
 * Return 0 to go on, anything else to stop the split (shell_split returns
 * it). */
typedef int (*shell_command_fn)(void *data, const struct shell_command *command);

enum shell_problem_kind {
    /* The text cannot be split: an unterminated quote, substitution or
     * parameter expansion (a sandlint warning, SL011 command_line).  In a
     * script the rest of the text is not read; in a Makefile the rest of
     * that recipe line. */
    SHELL_PROBLEM_SYNTAX = 1,
    /* Substitutions nested deeper than SHELL_MAX_NESTING: as above, but a
     * limit of sandlint's own, so the text is not checked (an error). */
    SHELL_PROBLEM_LIMIT,
    /* A here-document that names a container engine in a command
     * substitution: its body is data to the splitter, so what it runs is
     * not read (a "cannot be checked" warning). */
    SHELL_PROBLEM_UNREAD
};

#define SHELL_MAX_NESTING 32u
/* bash <<EOF whose body runs bash <<EOF...: how deep such scripts are read. */
#define SHELL_MAX_SCRIPT_NESTING 8u
#define SHELL_MAX_PROBLEMS 100u

struct shell_problem {
    enum shell_problem_kind kind;
    unsigned line, column;      /* where the construct starts, in the file */
    const char *message;        /* static text, no bytes of the input */
};

struct shell_result {
    struct comment_list comments;   /* every comment read, in text order */
    struct shell_problem problems[SHELL_MAX_PROBLEMS];
    size_t problem_count;           /* at most SHELL_MAX_PROBLEMS kept */
    size_t problems_total;          /* all of them */
    size_t command_count;           /* commands handed over */
};

/*
 * Splits length bytes of text (UTF-8 expected; other bytes are taken as
 * word characters) and calls command for every simple command that has at
 * least one word.  origin may be NULL for a whole file.  *result is always
 * initialised; release it with shell_result_release().  Returns 0, or what
 * a callback returned to stop.
 */
int shell_split(const char *text, size_t length, enum shell_dialect dialect,
                const struct shell_origin *origin, shell_command_fn command, void *data,
                struct shell_result *result);

void shell_result_release(struct shell_result *result);

/*
 * The origin of a word's text when the word is itself shell text (the
 * string after sh -c): where its first character is, after an opening
 * quote.  text is the text the word was split from.  Exact for a quoted
 * word without escapes or continuations; otherwise the inner words'
 * positions are near, not at, what was written.
 */
struct shell_origin shell_word_origin(const char *text, const struct shell_word *word);

#endif
