/*
 * shell_words.c - shell text split into simple commands and words (see
 * shell_words.h).
 *
 * One pass over the text with an explicit stack of frames: the commands
 * being read (the text itself, or inside $(...), `...`, <(...)), a double
 * quote, a ${...} or a $((...)).  A word grows in the frame of the command
 * it belongs to; a quote, expansion or substitution inside it adds to that
 * word, and a substitution's own commands grow in their own frame, handed
 * over when they end.  Finished words of the commands in progress wait on
 * one stack of text, which a command's end cuts back: memory holds the
 * commands being read, never the whole script.
 *
 * Makefiles: a small reader of make's lines finds the recipe text and hands
 * each recipe line to the same lexer, with make's "$" rules switched on.
 */
#include "config.h"

#include "shell_words.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "utf8.h"
#include "xalloc.h"

enum frame_kind {
    FRAME_COMMANDS,     /* words and operators */
    FRAME_DQUOTE,       /* "..." */
    FRAME_PARAM,        /* ${...} */
    FRAME_ARITH         /* $((...)) */
};

/* What ends a FRAME_COMMANDS. */
enum closer {
    CLOSE_END,          /* the end of the text (or of a recipe line) */
    CLOSE_PAREN,        /* $( or <( or >( */
    CLOSE_BACKTICK
};

/* What the next word of a command is, after a redirection operator. */
enum redirect {
    REDIRECT_NONE,
    REDIRECT_TARGET,            /* a file, an fd, a here-string: not an argument */
    REDIRECT_HEREDOC,           /* << WORD */
    REDIRECT_HEREDOC_TABS       /* <<- WORD */
};

/* The name-and-equals test of an assignment, byte by byte. */
enum name_state { NAME_START, NAME_CHARS, NAME_FAILED, NAME_ASSIGNMENT };

struct bytes {
    unsigned char *data;
    size_t length, capacity;
};

struct word_builder {
    struct bytes text;
    bool active;
    bool has_expansion;
    enum name_state name;
    size_t literal_length;
    size_t offset, end_offset;
    unsigned line, column, end_line, end_column;
    unsigned flags;
};

/* A finished word of a command in progress; its text is on lexer.texts. */
struct pending_word {
    size_t text_at, length, literal_length, offset, source_length;
    unsigned line, column, end_line, end_column, flags;
};

struct frame {
    enum frame_kind kind;
    enum closer closer;         /* FRAME_COMMANDS */
    size_t start;               /* offset of the construct's first byte */
    unsigned line, column;      /* and its position */
    size_t owner;               /* index of the FRAME_COMMANDS whose word this adds
                                   to (a FRAME_COMMANDS: its own index) */
    bool word_level;            /* its text belongs to the owner's word: a double
                                   quote's characters, or an expansion's raw text
                                   when it ends (false inside ${...} and the like,
                                   whose own raw text covers it) */
    bool split;                 /* an expansion the shell may split into words */
    bool in_dquote;             /* FRAME_PARAM inside double quotes */
    unsigned nesting;           /* FRAME_ARITH: open '('; FRAME_COMMANDS: open
                                   grouping '(' */
    /* FRAME_COMMANDS only */
    unsigned depth;             /* substitutions around it */
    unsigned case_depth;        /* open case ... esac */
    bool command_position;      /* the next word may be a reserved word */
    enum redirect redirect;
    bool redirect_stdin;        /* the redirection is of standard input (no fd, or 0) */
    struct word_builder word;
    struct pending_word *words;
    size_t word_count, word_capacity;
    size_t text_mark;           /* lexer.texts length when the frame opened */
};

struct heredoc {
    struct bytes delimiter;
    bool strip_tabs, quoted;
    bool standard_input;        /* no fd before the operator, or 0 */
    bool decided;               /* its command was seen: */
    bool script;                /* a shell reads its body as its script (bash <<EOF) */
    unsigned line, column;
};

struct lexer {
    const unsigned char *text;
    size_t length;              /* of the whole text */
    size_t at, limit;           /* position, and the end of the range being lexed */
    unsigned line, column, indent;
    unsigned content_line;      /* line of the last character that was not blank */
    bool make;                  /* make's "$" rules */
    bool recipe_tab;            /* a continued recipe line loses its leading tab */
    struct frame *frames;       /* frames[0] is the range's own commands; entries
                                   above frame_count keep their buffers for reuse.
                                   Allocated once at the nesting limit: a pointer
                                   to a frame stays valid while frames are pushed */
    size_t frame_count, frame_capacity;
    struct bytes texts;         /* finished words of the commands in progress */
    struct shell_word *handover;
    size_t handover_capacity;
    struct heredoc *heredocs;
    size_t heredoc_count, heredoc_capacity;
    shell_command_fn callback;
    void *data;
    struct shell_result *result;
    unsigned heredoc_depth;     /* of here-document bodies read as scripts */
    int stopped;                /* what a callback returned to stop */
    bool failed;                /* a problem ended the range */
    bool done;                  /* the range was read to its end */
};

/* ------------------------------------------------------------------ */
/* small pieces                                                        */
/* ------------------------------------------------------------------ */

static void bytes_add(struct bytes *bytes, const void *data, size_t count)
{
    if (bytes->capacity - bytes->length <= count) {
        size_t capacity = bytes->capacity ? bytes->capacity : 64;
        while (capacity - bytes->length <= count)
            capacity *= 2;
        bytes->data = xrealloc(bytes->data, capacity, 1);
        bytes->capacity = capacity;
    }
    if (count > 0)
        memcpy(bytes->data + bytes->length, data, count);
    bytes->length += count;
    bytes->data[bytes->length] = '\0';
}

static bool is_line_break(unsigned char c)
{
    return c == '\n' || c == '\r';
}

static bool is_name_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_name_char(unsigned char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

/* The bytes of the character at the lexer's position: a CR LF pair is
 * one, a byte that is not UTF-8 is one. */
static size_t char_width(const struct lexer *lx)
{
    const unsigned char *p = lx->text + lx->at;
    if (p[0] == '\r' && lx->at + 1 < lx->limit && p[1] == '\n')
        return 2;
    size_t width = utf8_decode(p, lx->limit - lx->at, NULL);
    return width == 0 ? 1 : width;
}

static void add_problem(struct lexer *lx, enum shell_problem_kind kind, unsigned line,
                        unsigned column, const char *message)
{
    struct shell_result *result = lx->result;
    result->problems_total++;
    if (result->problem_count >= SHELL_MAX_PROBLEMS)
        return;
    struct shell_problem *problem = &result->problems[result->problem_count++];
    problem->kind = kind;
    problem->line = line;
    problem->column = column;
    problem->message = message;
}

/* ------------------------------------------------------------------ */
/* positions                                                           */
/* ------------------------------------------------------------------ */

/* Moves past one character (a CR LF pair is one), counting lines and
 * columns as source_step() does and applying the origin's indentation. */
static void advance(struct lexer *lx)
{
    unsigned char c = lx->text[lx->at];
    if (c >= 0x20 && c < 0x80) {
        lx->at++;
        lx->column++;
        return;
    }
    unsigned line = lx->line;
    lx->at = source_step((const char *)lx->text, lx->limit, lx->at, &lx->line, &lx->column);
    if (lx->line == line)
        return;
    lx->column = lx->indent + 1;
    /* make removes the recipe prefix of a line that continues a recipe
     * line, and nothing else (the backslash and line break stay). */
    if (lx->recipe_tab && lx->at < lx->limit && lx->text[lx->at] == '\t') {
        lx->at++;
        lx->column++;
    }
}

/* advance() for a character that is not blank: the line holds content. */
static void step(struct lexer *lx)
{
    lx->content_line = lx->line;
    advance(lx);
}

/* ------------------------------------------------------------------ */
/* frames and words                                                    */
/* ------------------------------------------------------------------ */

static struct frame *top(struct lexer *lx)
{
    return &lx->frames[lx->frame_count - 1];
}

/* Opens a frame above the top one at the lexer's position; returns false
 * (after recording the problem) past the nesting limit. */
static bool push_frame(struct lexer *lx, enum frame_kind kind, bool word_level, bool split)
{
    if (lx->frame_count > SHELL_MAX_NESTING) {
        add_problem(lx, SHELL_PROBLEM_LIMIT, lx->line, lx->column,
                    "quotes, expansions and substitutions nested deeper than sandlint "
                    "reads (32 levels); this command line is not checked");
        lx->failed = true;
        return false;
    }
    size_t index = lx->frame_count++;
    struct frame *frame = &lx->frames[index];
    /* Keep the buffers of an earlier frame at this index. */
    struct bytes text = frame->word.text;
    struct pending_word *words = frame->words;
    size_t word_capacity = frame->word_capacity;
    const struct frame *below = index > 0 ? &lx->frames[index - 1] : NULL;
    memset(frame, 0, sizeof(*frame));
    frame->word.text = text;
    frame->word.text.length = 0;
    frame->words = words;
    frame->word_capacity = word_capacity;
    frame->kind = kind;
    frame->start = lx->at;
    frame->line = lx->line;
    frame->column = lx->column;
    frame->word_level = word_level;
    frame->split = split;
    if (kind == FRAME_COMMANDS) {
        frame->owner = index;
        frame->command_position = true;
        frame->text_mark = lx->texts.length;
        frame->depth = below != NULL ? lx->frames[below->owner].depth + 1 : 0;
    } else {
        frame->owner = below->kind == FRAME_COMMANDS ? index - 1 : below->owner;
    }
    return true;
}

static void word_begin(struct lexer *lx, struct frame *commands)
{
    struct word_builder *word = &commands->word;
    if (word->active)
        return;
    word->active = true;
    word->has_expansion = false;
    word->name = NAME_START;
    word->literal_length = 0;
    word->text.length = 0;
    word->flags = 0;
    word->offset = word->end_offset = lx->at;
    word->line = word->end_line = lx->line;
    word->column = word->end_column = lx->column;
}

/* The word ends at least where the lexer now is. */
static void word_touch(struct lexer *lx, struct frame *commands)
{
    struct word_builder *word = &commands->word;
    word->end_offset = lx->at;
    word->end_line = lx->line;
    word->end_column = lx->column;
}

/* Adds literal bytes (quoted: inside quotes or escaped). */
static void word_literal(struct lexer *lx, struct frame *commands, const void *bytes,
                         size_t count, bool quoted)
{
    struct word_builder *word = &commands->word;
    word_begin(lx, commands);
    bytes_add(&word->text, bytes, count);
    if (!word->has_expansion)
        word->literal_length = word->text.length;
    if (quoted) {
        word->flags |= SHELL_WORD_QUOTED;
        if (word->name != NAME_ASSIGNMENT)
            word->name = NAME_FAILED;
        return;
    }
    const unsigned char *p = bytes;
    for (size_t i = 0; i < count && word->name != NAME_ASSIGNMENT; i++) {
        if (word->name == NAME_START)
            word->name = is_name_start(p[i]) ? NAME_CHARS : NAME_FAILED;
        else if (word->name == NAME_CHARS && p[i] == '=')
            word->name = NAME_ASSIGNMENT;
        else if (word->name == NAME_CHARS && !is_name_char(p[i]))
            word->name = NAME_FAILED;
    }
}

/* Adds the raw text of an expansion that started at start and ends at the
 * lexer's position. */
static void word_expansion(struct lexer *lx, struct frame *commands, size_t start, bool split)
{
    struct word_builder *word = &commands->word;
    word_begin(lx, commands);
    if (!word->has_expansion) {
        word->literal_length = word->text.length;
        word->has_expansion = true;
    }
    bytes_add(&word->text, lx->text + start, lx->at - start);
    word->flags |= SHELL_WORD_INTERPOLATED | (split ? SHELL_WORD_SPLIT : 0);
    if (word->name != NAME_ASSIGNMENT)
        word->name = NAME_FAILED;
}

/* Reserved words after which a command name may still come. */
static bool keeps_command_position(const unsigned char *text, size_t length)
{
    static const char *const words[] = {
        "!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until",
        "time",
    };
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (strlen(words[i]) == length && memcmp(words[i], text, length) == 0)
            return true;
    return false;
}

static void add_heredoc(struct lexer *lx, const struct word_builder *word, bool strip_tabs,
                        bool standard_input)
{
    if (lx->heredoc_count == lx->heredoc_capacity) {
        size_t capacity = lx->heredoc_capacity ? lx->heredoc_capacity * 2 : 4;
        lx->heredocs = xrealloc(lx->heredocs, capacity, sizeof(*lx->heredocs));
        memset(lx->heredocs + lx->heredoc_capacity, 0,
               (capacity - lx->heredoc_capacity) * sizeof(*lx->heredocs));
        lx->heredoc_capacity = capacity;
    }
    struct heredoc *heredoc = &lx->heredocs[lx->heredoc_count++];
    heredoc->delimiter.length = 0;
    bytes_add(&heredoc->delimiter, word->text.data, word->text.length);
    heredoc->strip_tabs = strip_tabs;
    heredoc->quoted = (word->flags & SHELL_WORD_QUOTED) != 0;
    heredoc->standard_input = standard_input;
    heredoc->decided = heredoc->script = false;
    heredoc->line = word->line;
    heredoc->column = word->column;
}

/* Ends the word being read in a FRAME_COMMANDS. */
static void word_end(struct lexer *lx, struct frame *commands)
{
    struct word_builder *word = &commands->word;
    if (!word->active)
        return;
    word->active = false;
    if (word->name == NAME_ASSIGNMENT)
        word->flags |= SHELL_WORD_ASSIGNMENT;
    enum redirect redirect = commands->redirect;
    commands->redirect = REDIRECT_NONE;
    if (redirect == REDIRECT_TARGET)
        return;
    if (redirect == REDIRECT_HEREDOC || redirect == REDIRECT_HEREDOC_TABS) {
        add_heredoc(lx, word, redirect == REDIRECT_HEREDOC_TABS, commands->redirect_stdin);
        return;
    }
    if (commands->command_position) {
        bool plain = (word->flags & (SHELL_WORD_QUOTED | SHELL_WORD_INTERPOLATED)) == 0;
        const unsigned char *text = word->text.data;
        size_t length = word->text.length;
        if (plain && length == 4 && memcmp(text, "case", 4) == 0) {
            commands->case_depth++;
            commands->command_position = false;
        } else if (plain && length == 4 && memcmp(text, "esac", 4) == 0) {
            if (commands->case_depth > 0)
                commands->case_depth--;
        } else if (!(plain && keeps_command_position(text, length)) &&
                   (word->flags & SHELL_WORD_ASSIGNMENT) == 0) {
            commands->command_position = false;
        }
    }
    if (commands->word_count == commands->word_capacity) {
        commands->word_capacity = commands->word_capacity ? commands->word_capacity * 2 : 16;
        commands->words = xrealloc(commands->words, commands->word_capacity,
                                   sizeof(*commands->words));
    }
    struct pending_word *pending = &commands->words[commands->word_count++];
    pending->text_at = lx->texts.length;
    pending->length = word->text.length;
    pending->literal_length = word->has_expansion ? word->literal_length : word->text.length;
    pending->offset = word->offset;
    pending->source_length = word->end_offset - word->offset;
    pending->line = word->line;
    pending->column = word->column;
    pending->end_line = word->end_line;
    pending->end_column = word->end_column;
    pending->flags = word->flags;
    bytes_add(&lx->texts, word->text.data, word->text.length);
    bytes_add(&lx->texts, "", 1);
}

static void hand_over(struct lexer *lx, const struct frame *commands);

/* Ends the command being read in a FRAME_COMMANDS: hands it over. */
static void command_end(struct lexer *lx, struct frame *commands)
{
    word_end(lx, commands);
    commands->redirect = REDIRECT_NONE;
    commands->command_position = true;
    if (commands->word_count > 0 && lx->stopped == 0)
        hand_over(lx, commands);
    for (size_t h = 0; h < lx->heredoc_count; h++)
        lx->heredocs[h].decided = true;     /* a command without words reads none */
    commands->word_count = 0;
    lx->texts.length = commands->text_mark;
}

/* Calls the callback with the command's words. */
static void hand_over(struct lexer *lx, const struct frame *commands)
{
    if (commands->word_count > lx->handover_capacity) {
        size_t capacity = lx->handover_capacity ? lx->handover_capacity : 16;
        while (capacity < commands->word_count)
            capacity *= 2;
        free(lx->handover);
        lx->handover = xmalloc(capacity * sizeof(*lx->handover));
        lx->handover_capacity = capacity;
    }
    for (size_t i = 0; i < commands->word_count; i++) {
        const struct pending_word *pending = &commands->words[i];
        struct shell_word *word = &lx->handover[i];
        word->text = (const char *)lx->texts.data + pending->text_at;
        word->length = pending->length;
        word->literal_length = pending->literal_length;
        word->offset = pending->offset;
        word->source_length = pending->source_length;
        word->line = pending->line;
        word->column = pending->column;
        word->end_line = pending->end_line;
        word->end_column = pending->end_column;
        word->flags = pending->flags;
    }
    /* The callback says whether the command reads a here-document on
     * standard input as its script (bash <<EOF, sh -s). */
    bool undecided = false, reads = false;
    for (size_t h = 0; h < lx->heredoc_count; h++)
        undecided = undecided || !lx->heredocs[h].decided;
    struct shell_command command = {
        lx->handover, commands->word_count, commands->depth, lx->result->command_count,
        undecided ? &reads : NULL,
    };
    lx->result->command_count++;
    lx->stopped = lx->callback(lx->data, &command);
    /* The last of its here-documents on standard input is the script. */
    for (size_t h = lx->heredoc_count; undecided && h > 0; h--) {
        struct heredoc *heredoc = &lx->heredocs[h - 1];
        if (heredoc->decided)
            break;
        heredoc->script = reads && heredoc->standard_input;
        reads = reads && !heredoc->script;
    }
    for (size_t h = 0; h < lx->heredoc_count; h++)
        lx->heredocs[h].decided = true;
}

/* ------------------------------------------------------------------ */
/* "$"                                                                 */
/* ------------------------------------------------------------------ */

enum make_dollar {
    MAKE_REFERENCE,     /* $(VAR), ${VAR}, $@: make's, replaced before the shell */
    MAKE_SHELL_DOLLAR   /* $$: one "$" for the shell */
};

/* make's reading of the "$" at the lexer's position; *width is how many
 * bytes it takes. */
static enum make_dollar make_dollar(const struct lexer *lx, size_t *width)
{
    size_t at = lx->at;
    if (at + 1 >= lx->limit) {
        *width = 1;
        return MAKE_REFERENCE;
    }
    unsigned char next = lx->text[at + 1];
    if (next == '$') {
        *width = 2;
        return MAKE_SHELL_DOLLAR;
    }
    if (next != '(' && next != '{') {
        *width = 2;
        return MAKE_REFERENCE;
    }
    unsigned char close = next == '(' ? ')' : '}';
    size_t depth = 1, i = at + 2;
    for (; i < lx->limit; i++) {
        if (lx->text[i] == next) {
            depth++;
        } else if (lx->text[i] == close && --depth == 0) {
            i++;
            break;
        }
    }
    /* An unterminated reference runs to the end of the line (make itself
     * refuses the Makefile then). */
    *width = i - at;
    return MAKE_REFERENCE;
}

/* The bytes of the "$" after a backslash at the lexer's position: 1; in a
 * Makefile 2 for "$$" (make leaves one "$" for the shell to escape), 0 for
 * a make reference (make replaces it; the shell escapes its first
 * character, which sandlint cannot know). */
static size_t escaped_dollar(struct lexer *lx)
{
    if (!lx->make)
        return 1;
    lx->at++;
    size_t width;
    enum make_dollar kind = make_dollar(lx, &width);
    lx->at--;
    return kind == MAKE_SHELL_DOLLAR ? 2 : 0;
}

/* Moves past count bytes, whatever they are. */
static void advance_bytes(struct lexer *lx, size_t count)
{
    size_t end = lx->at + count;
    while (lx->at < end)
        step(lx);
}

/*
 * The "$" at the lexer's position.  collect: the expansion is part of the
 * owner's word (not inside a ${...} or $((...)) that covers it); quoted:
 * inside double quotes (the shell does not split it).
 */
static void read_dollar(struct lexer *lx, bool collect, bool quoted)
{
    size_t start = lx->at, width = 1;
    struct frame *owner = &lx->frames[top(lx)->owner];
    if (collect)
        word_begin(lx, owner);
    if (lx->make && make_dollar(lx, &width) == MAKE_REFERENCE) {
        advance_bytes(lx, width);
        if (collect) {
            word_expansion(lx, owner, start, !quoted);
            word_touch(lx, owner);
        }
        return;
    }
    size_t at = lx->at + width;
    unsigned char next = at < lx->limit ? lx->text[at] : 0;
    if (next == '(' || next == '{') {
        bool arithmetic = next == '(' && at + 1 < lx->limit && lx->text[at + 1] == '(';
        enum frame_kind kind = arithmetic ? FRAME_ARITH
                               : next == '(' ? FRAME_COMMANDS : FRAME_PARAM;
        if (!push_frame(lx, kind, collect, !quoted))
            return;
        struct frame *frame = top(lx);
        frame->closer = CLOSE_PAREN;
        frame->in_dquote = quoted;
        advance_bytes(lx, width + (arithmetic ? 2 : 1));
        return;
    }
    size_t end = at;
    bool split = !quoted;
    if (at < lx->limit && is_name_start(next)) {
        while (end < lx->limit && is_name_char(lx->text[end]))
            end++;
    } else if (at < lx->limit && next != 0 && strchr("0123456789@*#?-$!", next) != NULL) {
        end = at + 1;
        split = split || next == '@';
    } else {
        /* Not an expansion: a "$" of its own.  bash would read $'...' and
         * $"..." differently from sh: the word cannot be trusted. */
        advance_bytes(lx, width);
        if (collect) {
            word_literal(lx, owner, "$", 1, quoted);
            if (next == '\'' || next == '"')
                owner->word.flags |= SHELL_WORD_INTERPOLATED;
            word_touch(lx, owner);
        }
        return;
    }
    advance_bytes(lx, end - lx->at);
    if (collect) {
        word_expansion(lx, owner, start, split);
        word_touch(lx, owner);
    }
}

/* The '`' at the lexer's position opens a command substitution. */
static void open_backtick(struct lexer *lx, bool word_level, bool split)
{
    if (!push_frame(lx, FRAME_COMMANDS, word_level, split))
        return;
    top(lx)->closer = CLOSE_BACKTICK;
    step(lx);
}

/* ------------------------------------------------------------------ */
/* frames that end                                                     */
/* ------------------------------------------------------------------ */

/* Closes the top frame (after its closing bytes were passed); an
 * expansion at word level adds its raw text to the owner's word. */
static void pop_frame(struct lexer *lx)
{
    struct frame *frame = top(lx);
    size_t start = frame->start;
    bool word_level = frame->word_level, split = frame->split;
    enum frame_kind kind = frame->kind;
    lx->frame_count--;
    struct frame *owner = &lx->frames[top(lx)->owner];
    if (word_level && kind != FRAME_DQUOTE)
        word_expansion(lx, owner, start, split);
    if (word_level || kind == FRAME_DQUOTE)
        word_touch(lx, owner);
}

/* The problem that ends a range with frames still open: the outermost of
 * them is where the text stopped making sense. */
static void unterminated(struct lexer *lx)
{
    const struct frame *frame = &lx->frames[1];
    const char *message;
    if (frame->kind == FRAME_DQUOTE)
        message = "a double quote is not closed; the rest of the command line is not read";
    else if (frame->kind == FRAME_PARAM)
        message = "a '${' is not closed; the rest of the command line is not read";
    else if (frame->kind == FRAME_ARITH)
        message = "a '$((' is not closed; the rest of the command line is not read";
    else if (frame->closer == CLOSE_BACKTICK)
        message = "a '`' command substitution is not closed; the rest of the command line "
                  "is not read";
    else
        message = "a '$(' command substitution is not closed; the rest of the command line "
                  "is not read";
    add_problem(lx, SHELL_PROBLEM_SYNTAX, frame->line, frame->column, message);
    lx->failed = true;
}

/* ------------------------------------------------------------------ */
/* here-documents                                                      */
/* ------------------------------------------------------------------ */

static bool contains(const unsigned char *text, size_t length, const char *needle)
{
    size_t needle_length = strlen(needle);
    for (size_t i = 0; i + needle_length <= length; i++)
        if (text[i] == (unsigned char)needle[0] &&
            memcmp(text + i, needle, needle_length) == 0)
            return true;
    return false;
}

static int split_text(const char *text, size_t start, size_t length,
                      enum shell_dialect dialect, const struct shell_origin *origin,
                      shell_command_fn command, void *data, struct shell_result *result,
                      unsigned heredoc_depth, size_t first_index);

/* A here-document that a shell runs as its script: its commands are handed
 * over as the text's own (its problems and comments too), bounded in how
 * deep such bodies nest.  (Without a quoted delimiter the body is expanded
 * first: its expansions stay interpolations, as they would in sh -c.) */
static void read_script(struct lexer *lx, const struct heredoc *heredoc, size_t body,
                        size_t length, unsigned line, unsigned column)
{
    if (lx->heredoc_depth + 1 >= SHELL_MAX_SCRIPT_NESTING) {
        add_problem(lx, SHELL_PROBLEM_LIMIT, heredoc->line, heredoc->column,
                    "here-documents run by a shell nested deeper than sandlint reads; "
                    "not checked");
        return;
    }
    struct shell_origin origin = { line, column, lx->indent };
    struct shell_result inner;
    /* The body is a range of the same text, so that offsets stay the
     * text's. */
    int stopped = split_text((const char *)lx->text, body, body + length, SHELL_DIALECT_SCRIPT,
                             &origin, lx->callback, lx->data, &inner, lx->heredoc_depth + 1,
                             lx->result->command_count);
    for (size_t i = 0; i < inner.problem_count; i++)
        add_problem(lx, inner.problems[i].kind, inner.problems[i].line,
                    inner.problems[i].column, inner.problems[i].message);
    lx->result->problems_total += inner.problems_total - inner.problem_count;
    for (size_t i = 0; i < inner.comments.count; i++)
        comment_list_add(&lx->result->comments, &inner.comments.items[i]);
    lx->result->command_count = inner.command_count;   /* indexes go on */
    shell_result_release(&inner);
    if (stopped != 0)
        lx->stopped = stopped;
}

/* Skips the bodies of the here-documents whose operators came before the
 * line break just passed (or reads them as a script). */
static void read_heredocs(struct lexer *lx)
{
    for (size_t h = 0; h < lx->heredoc_count; h++) {
        const struct heredoc *heredoc = &lx->heredocs[h];
        size_t body = lx->at, body_end = lx->limit;
        unsigned body_line = lx->line, body_column = lx->column;
        while (lx->at < lx->limit) {
            size_t line_start = lx->at, end = lx->at;
            while (end < lx->limit && !is_line_break(lx->text[end]))
                end++;
            size_t from = line_start;
            while (heredoc->strip_tabs && from < end && lx->text[from] == '\t')
                from++;
            bool last = end - from == heredoc->delimiter.length &&
                        memcmp(lx->text + from, heredoc->delimiter.data, end - from) == 0;
            while (lx->at < end)
                advance(lx);
            if (lx->at < lx->limit)
                advance(lx);
            if (last) {
                body_end = line_start;
                break;
            }
        }
        /* Without a quoted delimiter, $(...) and `...` in the body run. */
        const unsigned char *text = lx->text + body;
        size_t length = body_end - body;
        if (heredoc->script) {
            read_script(lx, heredoc, body, length, body_line, body_column);
            if (lx->stopped != 0)
                break;
            continue;
        }
        if (!heredoc->quoted && (contains(text, length, "$(") || contains(text, length, "`")) &&
            (contains(text, length, "docker") || contains(text, length, "podman") ||
             contains(text, length, "nerdctl")))
            add_problem(lx, SHELL_PROBLEM_UNREAD, heredoc->line, heredoc->column,
                        "a here-document runs a command substitution that names a container "
                        "engine; sandlint does not read here-documents");
    }
    lx->heredoc_count = 0;
}

/* ------------------------------------------------------------------ */
/* the frames' steps                                                   */
/* ------------------------------------------------------------------ */

static void read_comment(struct lexer *lx)
{
    struct comment_span span;
    memset(&span, 0, sizeof(span));
    span.offset = lx->at;
    span.text_offset = lx->at + 1;
    span.line = lx->line;
    span.column = lx->column;
    span.own_line = lx->content_line != lx->line;
    while (lx->at < lx->limit && !is_line_break(lx->text[lx->at]))
        advance(lx);
    span.length = lx->at - span.offset;
    span.text_length = lx->at - span.text_offset;
    span.end_line = lx->line;
    span.end_column = lx->column;
    comment_list_add(&lx->result->comments, &span);
}

/* '...' in a command: everything literal up to the next quote (but make
 * still replaces its references inside). */
static void read_single_quote(struct lexer *lx, struct frame *commands)
{
    unsigned line = lx->line, column = lx->column;
    word_begin(lx, commands);
    commands->word.flags |= SHELL_WORD_QUOTED;
    if (commands->word.name != NAME_ASSIGNMENT)
        commands->word.name = NAME_FAILED;
    step(lx);
    for (;;) {
        if (lx->at >= lx->limit) {
            add_problem(lx, SHELL_PROBLEM_SYNTAX, line, column,
                        "a single quote is not closed; the rest of the command line is not "
                        "read");
            lx->failed = true;
            return;
        }
        unsigned char c = lx->text[lx->at];
        if (c == '\'') {
            step(lx);
            word_touch(lx, commands);
            return;
        }
        if (c == '$' && lx->make) {
            size_t start = lx->at, width;
            if (make_dollar(lx, &width) == MAKE_REFERENCE) {
                advance_bytes(lx, width);
                word_expansion(lx, commands, start, false);
            } else {
                advance_bytes(lx, width);
                word_literal(lx, commands, "$", 1, true);
            }
            continue;
        }
        /* The character's own bytes: after a line break, a recipe's
         * continued line may have lost its tab. */
        size_t start = lx->at, count = char_width(lx);
        step(lx);
        word_literal(lx, commands, lx->text + start, count, true);
    }
}

/* '<' or '>' at the lexer's position in a command. */
static void read_redirection(struct lexer *lx, struct frame *commands)
{
    const unsigned char *p = lx->text + lx->at;
    size_t available = lx->limit - lx->at;
    struct word_builder *word = &commands->word;
    /* bash's process substitution <(...) and >(...) */
    if (available >= 2 && p[1] == '(' && !word->active) {
        word_begin(lx, commands);
        if (!push_frame(lx, FRAME_COMMANDS, true, false))
            return;
        top(lx)->closer = CLOSE_PAREN;
        step(lx);
        step(lx);
        return;
    }
    /* digits just before the operator are the fd it applies to */
    commands->redirect_stdin = true;
    if (word->active && !word->has_expansion && word->flags == 0) {
        bool digits = word->text.length > 0;
        for (size_t i = 0; i < word->text.length; i++)
            digits = digits && word->text.data[i] >= '0' && word->text.data[i] <= '9';
        if (digits) {
            word->active = false;
            commands->redirect_stdin = word->text.length == 1 && word->text.data[0] == '0';
        }
    }
    word_end(lx, commands);
    size_t length = 1;
    enum redirect redirect = REDIRECT_TARGET;
    if (p[0] == '<' && available >= 2 && p[1] == '<') {
        length = 2;
        redirect = REDIRECT_HEREDOC;
        if (available >= 3 && p[2] == '-') {
            length = 3;
            redirect = REDIRECT_HEREDOC_TABS;
        } else if (available >= 3 && p[2] == '<') {
            length = 3;     /* <<< here-string */
            redirect = REDIRECT_TARGET;
        }
    } else if (available >= 2 && (p[1] == '>' || p[1] == '&' || (p[0] == '<' && p[1] == '>') ||
                                  (p[0] == '>' && p[1] == '|'))) {
        length = 2;
    }
    for (size_t i = 0; i < length; i++)
        step(lx);
    commands->redirect = redirect;
}

/* ';' '&' '|' at the lexer's position: the operator ends the command. */
static void read_operator(struct lexer *lx, struct frame *commands)
{
    unsigned char c = lx->text[lx->at];
    if (c == '&' && lx->at + 1 < lx->limit && lx->text[lx->at + 1] == '>') {
        /* bash's &> and &>>: a redirection, not a separator */
        word_end(lx, commands);
        step(lx);
        read_redirection(lx, commands);
        return;
    }
    command_end(lx, commands);
    step(lx);
    if (lx->at < lx->limit) {
        unsigned char next = lx->text[lx->at];
        if (next == c || (c == '|' && next == '&') || (c == ';' && next == '&'))
            step(lx);
    }
}

/* Whether the shell takes c as it is: printable ASCII that is no blank,
 * quote, expansion, operator, comment, glob or tilde. */
static bool is_plain(unsigned char c)
{
    if (c <= 0x20 || c >= 0x7F)
        return false;
    switch (c) {
    case '#': case '\\': case '\'': case '"': case '`': case '$': case ';': case '&':
    case '|': case '(': case ')': case '<': case '>': case '*': case '?': case '[': case '~':
        return false;
    default:
        return true;
    }
}

/* The length of the run of plain characters at the lexer's position. */
static size_t plain_run(const struct lexer *lx)
{
    size_t at = lx->at;
    while (at < lx->limit && is_plain(lx->text[at]))
        at++;
    return at - lx->at;
}

static void commands_step(struct lexer *lx)
{
    struct frame *commands = top(lx);
    struct word_builder *word = &commands->word;
    if (lx->at >= lx->limit) {
        command_end(lx, commands);
        lx->done = true;
        return;
    }
    unsigned char c = lx->text[lx->at];
    switch (c) {
    case ' ':
    case '\t':
        word_end(lx, commands);
        advance(lx);
        return;
    case '\n':
    case '\r':
        command_end(lx, commands);
        advance(lx);
        if (lx->heredoc_count > 0)
            read_heredocs(lx);
        return;
    case '#':
        if (word->active)
            break;
        read_comment(lx);
        return;
    case '\\': {
        if (lx->at + 1 >= lx->limit)
            break;      /* a backslash at the very end stays, as in sh */
        unsigned char next = lx->text[lx->at + 1];
        if (is_line_break(next)) {
            advance(lx);
            advance(lx);
            return;
        }
        size_t dollar = next == '$' ? escaped_dollar(lx) : 1;
        if ((commands->closer == CLOSE_BACKTICK && (next == '$' || next == '\\')) ||
            dollar == 0) {
            /* Inside `...` these lose their backslash before the command
             * inside is read; a make reference is an expansion. */
            step(lx);
            return;
        }
        word_begin(lx, commands);
        step(lx);
        size_t start = lx->at, width = next == '$' ? dollar : char_width(lx);
        advance_bytes(lx, width);
        word_literal(lx, commands, lx->text + start, 1 + (next == '$' ? 0 : width - 1), true);
        word_touch(lx, commands);
        return;
    }
    case '\'':
        read_single_quote(lx, commands);
        return;
    case '"':
        word_begin(lx, commands);
        commands->word.flags |= SHELL_WORD_QUOTED;
        if (commands->word.name != NAME_ASSIGNMENT)
            commands->word.name = NAME_FAILED;
        if (!push_frame(lx, FRAME_DQUOTE, true, false))
            return;
        step(lx);
        return;
    case '`':
        if (commands->closer == CLOSE_BACKTICK) {
            command_end(lx, commands);
            step(lx);
            pop_frame(lx);
            return;
        }
        word_begin(lx, commands);
        open_backtick(lx, true, true);
        return;
    case '$':
        read_dollar(lx, true, false);
        return;
    case ';':
    case '&':
    case '|':
        read_operator(lx, commands);
        return;
    case '(':
        command_end(lx, commands);
        commands->nesting++;
        step(lx);
        return;
    case ')':
        command_end(lx, commands);
        step(lx);
        if (commands->nesting > 0)
            commands->nesting--;
        else if (commands->case_depth == 0 && commands->closer == CLOSE_PAREN)
            pop_frame(lx);
        return;
    case '<':
    case '>':
        read_redirection(lx, commands);
        return;
    default:
        break;
    }
    /* A run of characters that are nothing but themselves, at once. */
    size_t run = plain_run(lx);
    if (run > 0) {
        word_begin(lx, commands);
        word_literal(lx, commands, lx->text + lx->at, run, false);
        lx->content_line = lx->line;
        lx->at += run;
        lx->column += (unsigned)run;
        word_touch(lx, commands);
        return;
    }
    /* A character of a word. */
    bool tilde = !word->active && c == '~';
    word_begin(lx, commands);
    if (tilde)
        word->flags |= SHELL_WORD_TILDE;
    if (c == '*' || c == '?' || c == '[')
        word->flags |= SHELL_WORD_GLOB;
    size_t start = lx->at, width = char_width(lx);
    step(lx);
    word_literal(lx, commands, lx->text + start, width, false);
    word_touch(lx, commands);
}

static void dquote_step(struct lexer *lx)
{
    struct frame *frame = top(lx);
    struct frame *owner = &lx->frames[frame->owner];
    bool collect = frame->word_level;
    unsigned char c = lx->text[lx->at];
    if (c == '"') {
        step(lx);
        pop_frame(lx);
        return;
    }
    if (c == '$') {
        read_dollar(lx, collect, true);
        if (collect)
            word_touch(lx, owner);
        return;
    }
    if (c == '`') {
        open_backtick(lx, collect, false);
        return;
    }
    size_t start = lx->at, count = char_width(lx);
    if (c == '\\') {
        if (lx->at + 1 >= lx->limit) {
            step(lx);   /* the text ends inside the quote */
            return;
        }
        unsigned char next = lx->text[lx->at + 1];
        if (is_line_break(next)) {
            advance(lx);
            advance(lx);
            return;
        }
        size_t dollar = next == '$' ? escaped_dollar(lx) : 1;
        step(lx);
        if (dollar != 0 && (next == '$' || next == '`' || next == '"' || next == '\\')) {
            start = lx->at;
            count = 1;
            advance_bytes(lx, dollar);
        }
        /* Otherwise the backslash stays and the next character is read
         * on its own. */
    } else {
        step(lx);
    }
    if (collect) {
        word_literal(lx, owner, lx->text + start, count, true);
        word_touch(lx, owner);
    }
}

static void param_step(struct lexer *lx)
{
    struct frame *frame = top(lx);
    unsigned char c = lx->text[lx->at];
    switch (c) {
    case '}':
        step(lx);
        pop_frame(lx);
        return;
    case '\\':
        step(lx);
        if (lx->at < lx->limit)
            step(lx);
        return;
    case '\'':
        if (frame->in_dquote)
            break;
        step(lx);
        while (lx->at < lx->limit && lx->text[lx->at] != '\'')
            step(lx);
        if (lx->at < lx->limit)
            step(lx);
        return;
    case '"':
        if (!push_frame(lx, FRAME_DQUOTE, false, false))
            return;
        step(lx);
        return;
    case '$':
        read_dollar(lx, false, frame->in_dquote);
        return;
    case '`':
        open_backtick(lx, false, false);
        return;
    default:
        break;
    }
    step(lx);
}

static void arith_step(struct lexer *lx)
{
    struct frame *frame = top(lx);
    unsigned char c = lx->text[lx->at];
    switch (c) {
    case '(':
        frame->nesting++;
        break;
    case ')':
        if (frame->nesting > 0) {
            frame->nesting--;
            break;
        }
        step(lx);
        if (lx->at < lx->limit && lx->text[lx->at] == ')')
            step(lx);
        pop_frame(lx);
        return;
    case '$':
        read_dollar(lx, false, true);
        return;
    case '`':
        open_backtick(lx, false, false);
        return;
    case '\\':
        step(lx);
        if (lx->at >= lx->limit)
            return;
        break;
    default:
        break;
    }
    step(lx);
}

/*
 * Lexes [lx->at, limit) as one shell text: every command in it is handed
 * over; a problem ends it.  Leaves lx->at at limit unless a problem or a
 * callback stopped it.
 */
static void lex_range(struct lexer *lx, size_t limit)
{
    lx->limit = limit;
    lx->failed = false;
    lx->done = false;
    lx->frame_count = 0;
    lx->texts.length = 0;
    lx->heredoc_count = 0;
    push_frame(lx, FRAME_COMMANDS, false, false);
    while (!lx->done && !lx->failed && lx->stopped == 0) {
        if (lx->at >= lx->limit && lx->frame_count > 1) {
            unterminated(lx);
            break;
        }
        switch (top(lx)->kind) {
        case FRAME_COMMANDS:
            commands_step(lx);
            break;
        case FRAME_DQUOTE:
            dquote_step(lx);
            break;
        case FRAME_PARAM:
            param_step(lx);
            break;
        case FRAME_ARITH:
            arith_step(lx);
            break;
        }
    }
    /* A problem drops the commands it left unfinished. */
    lx->frame_count = 0;
    lx->heredoc_count = 0;
    for (size_t i = 0; i < lx->frame_capacity; i++) {
        lx->frames[i].word_count = 0;
        lx->frames[i].word.active = false;
    }
}

/* ------------------------------------------------------------------ */
/* Makefiles                                                           */
/* ------------------------------------------------------------------ */

/* The end of the logical line starting at start: the first line break not
 * preceded by an odd number of backslashes. */
static size_t logical_line_end(const struct lexer *lx, size_t start)
{
    size_t at = start;
    for (;;) {
        while (at < lx->length && !is_line_break(lx->text[at]))
            at++;
        if (at >= lx->length)
            return at;
        size_t backslashes = 0;
        while (at - backslashes > start && lx->text[at - backslashes - 1] == '\\')
            backslashes++;
        if (backslashes % 2 == 0)
            return at;
        at += lx->text[at] == '\r' && at + 1 < lx->length && lx->text[at + 1] == '\n' ? 2 : 1;
    }
}

/* Moves the lexer's position forward to at, counting lines. */
static void advance_to(struct lexer *lx, size_t at)
{
    while (lx->at < at)
        advance(lx);
}

static bool starts_word(const unsigned char *text, size_t length, const char *word)
{
    size_t word_length = strlen(word);
    return length >= word_length && memcmp(text, word, word_length) == 0 &&
           (length == word_length || text[word_length] == ' ' || text[word_length] == '\t');
}

enum make_line {
    MAKE_LINE_OTHER,        /* ends a rule's recipe */
    MAKE_LINE_NEUTRAL,      /* blank, comment, conditional: the recipe goes on */
    MAKE_LINE_RULE,         /* targets: prerequisites */
    MAKE_LINE_DEFINE,       /* define NAME */
    MAKE_LINE_ENDEF
};

/* What a line of make (not a recipe line) is; for a rule, *recipe is the
 * offset after its ';' (0 when it has none). */
static enum make_line classify_make_line(const struct lexer *lx, size_t start, size_t end,
                                         size_t *recipe)
{
    const unsigned char *text = lx->text;
    *recipe = 0;
    while (start < end && (text[start] == ' ' || text[start] == '\t'))
        start++;
    if (start == end || text[start] == '#')
        return MAKE_LINE_NEUTRAL;
    const unsigned char *p = text + start;
    size_t length = end - start;
    static const char *const conditionals[] = { "ifeq", "ifneq", "ifdef", "ifndef", "else",
                                                "endif" };
    for (size_t i = 0; i < sizeof(conditionals) / sizeof(conditionals[0]); i++)
        if (starts_word(p, length, conditionals[i]))
            return MAKE_LINE_NEUTRAL;
    if (starts_word(p, length, "endef"))
        return MAKE_LINE_ENDEF;
    /* define, possibly after override, export or private */
    for (int word = 0; word < 3; word++) {
        if (starts_word(p, length, "define"))
            return MAKE_LINE_DEFINE;
        if (!starts_word(p, length, "override") && !starts_word(p, length, "export") &&
            !starts_word(p, length, "private"))
            break;
        while (length > 0 && *p != ' ' && *p != '\t') {
            p++;
            length--;
        }
        while (length > 0 && (*p == ' ' || *p == '\t')) {
            p++;
            length--;
        }
    }
    /* A rule has a ':' before any '=' (outside make references), which is
     * not the ':' of ':=' or '::='. */
    unsigned depth = 0;
    for (size_t i = start; i < end; i++) {
        unsigned char c = text[i];
        if (c == '$' && i + 1 < end && (text[i + 1] == '(' || text[i + 1] == '{')) {
            depth++;
            i++;
        } else if ((c == ')' || c == '}') && depth > 0) {
            depth--;
        } else if (depth == 0 && c == '#') {
            return MAKE_LINE_OTHER;
        } else if (depth == 0 && c == '=') {
            return MAKE_LINE_OTHER;
        } else if (depth == 0 && c == ':') {
            size_t j = i + 1;
            while (j < end && text[j] == ':')
                j++;
            if (j < end && text[j] == '=')
                return MAKE_LINE_OTHER;
            for (size_t k = j; k < end; k++) {
                if (text[k] == '$' && k + 1 < end && (text[k + 1] == '(' || text[k + 1] == '{')) {
                    depth++;
                    k++;
                } else if ((text[k] == ')' || text[k] == '}') && depth > 0) {
                    depth--;
                } else if (depth == 0 && (text[k] == '#' || text[k] == '=')) {
                    break;
                } else if (depth == 0 && text[k] == ';') {
                    *recipe = k + 1;
                    break;
                }
            }
            return MAKE_LINE_RULE;
        }
    }
    return MAKE_LINE_OTHER;
}

/* Records the make comment of the line [start, end), if it has one. */
static void make_comment(struct lexer *lx, size_t start, size_t end)
{
    size_t hash = start;
    bool own_line = true;
    while (hash < end && lx->text[hash] != '#') {
        if (lx->text[hash] != ' ' && lx->text[hash] != '\t')
            own_line = false;
        if (lx->text[hash] == '\\')
            hash++;     /* \# is a literal '#' */
        hash++;
    }
    if (hash >= end)
        return;
    advance_to(lx, hash);
    struct comment_span span;
    memset(&span, 0, sizeof(span));
    span.offset = hash;
    span.text_offset = hash + 1;
    span.length = end - hash;
    span.text_length = end - hash - 1;
    span.line = lx->line;
    span.column = lx->column;
    span.own_line = own_line;
    advance_to(lx, end);
    span.end_line = lx->line;
    span.end_column = lx->column;
    comment_list_add(&lx->result->comments, &span);
}

/* Lexes the recipe text [start, end): make's prefixes first. */
static void make_recipe(struct lexer *lx, size_t start, size_t end)
{
    while (start < end && (lx->text[start] == '@' || lx->text[start] == '-' ||
                           lx->text[start] == '+' || lx->text[start] == ' ' ||
                           lx->text[start] == '\t'))
        start++;
    advance_to(lx, start);
    lx->make = true;
    lx->recipe_tab = true;
    lx->content_line = 0;
    lex_range(lx, end);
    lx->make = false;
    lx->recipe_tab = false;
    lx->limit = lx->length;
}

static void split_makefile(struct lexer *lx)
{
    bool in_rule = false;
    unsigned define_depth = 0;
    while (lx->at < lx->length && lx->stopped == 0) {
        size_t start = lx->at, end = logical_line_end(lx, start);
        size_t recipe = 0;
        if (define_depth > 0) {
            enum make_line kind = classify_make_line(lx, start, end, &recipe);
            if (kind == MAKE_LINE_ENDEF)
                define_depth--;
            else if (kind == MAKE_LINE_DEFINE)
                define_depth++;
            else
                make_recipe(lx, start, end);   /* a canned recipe's line */
        } else if (lx->text[start] == '\t' && in_rule) {
            make_recipe(lx, start + 1, end);
        } else {
            enum make_line kind = classify_make_line(lx, start, end, &recipe);
            if (kind == MAKE_LINE_DEFINE) {
                define_depth = 1;
                in_rule = false;
            } else if (kind == MAKE_LINE_RULE) {
                in_rule = true;
            } else if (kind == MAKE_LINE_OTHER) {
                in_rule = false;
            }
            if (recipe != 0)
                make_recipe(lx, recipe, end);
            else
                make_comment(lx, start, end);
        }
        lx->limit = lx->length;
        advance_to(lx, end);
        if (lx->at < lx->length)
            advance(lx);
    }
}

/* ------------------------------------------------------------------ */
/* the entry points                                                    */
/* ------------------------------------------------------------------ */

int shell_split(const char *text, size_t length, enum shell_dialect dialect,
                const struct shell_origin *origin, shell_command_fn command, void *data,
                struct shell_result *result)
{
    return split_text(text, 0, length, dialect, origin, command, data, result, 0, 0);
}

/* Splits text[start, length) (length counted from the text's start). */
static int split_text(const char *text, size_t start, size_t length,
                      enum shell_dialect dialect, const struct shell_origin *origin,
                      shell_command_fn command, void *data, struct shell_result *result,
                      unsigned heredoc_depth, size_t first_index)
{
    memset(result, 0, sizeof(*result));
    comment_list_init(&result->comments);
    result->command_count = first_index;
    struct lexer lx;
    memset(&lx, 0, sizeof(lx));
    lx.text = (const unsigned char *)text;
    lx.length = length;
    lx.at = start;
    lx.limit = length;
    lx.line = origin != NULL ? origin->line : 1;
    lx.column = origin != NULL ? origin->column : 1;
    lx.indent = origin != NULL ? origin->indent : 0;
    lx.callback = command;
    lx.data = data;
    lx.result = result;
    lx.heredoc_depth = heredoc_depth;
    lx.frame_capacity = SHELL_MAX_NESTING + 1;
    lx.frames = xcalloc(lx.frame_capacity, sizeof(*lx.frames));
    if (dialect == SHELL_DIALECT_MAKEFILE) {
        split_makefile(&lx);
    } else if (dialect == SHELL_DIALECT_MAKE_TEXT) {
        lx.make = true;     /* $(VAR) is make's, $$ one "$" for the shell */
        lex_range(&lx, length);
    } else {
        lex_range(&lx, length);
    }
    for (size_t i = 0; i < lx.frame_capacity; i++) {
        free(lx.frames[i].word.text.data);
        free(lx.frames[i].words);
    }
    free(lx.frames);
    free(lx.texts.data);
    free(lx.handover);
    for (size_t i = 0; i < lx.heredoc_capacity; i++)
        free(lx.heredocs[i].delimiter.data);
    free(lx.heredocs);
    return lx.stopped;
}

void shell_result_release(struct shell_result *result)
{
    comment_list_release(&result->comments);
    result->problem_count = 0;
    result->problems_total = 0;
    result->command_count = 0;
}

struct shell_origin shell_word_origin(const char *text, const struct shell_word *word)
{
    struct shell_origin origin = { word->line, word->column, 0 };
    if (word->source_length > 0 && (text[word->offset] == '\'' || text[word->offset] == '"'))
        origin.column++;
    return origin;
}
