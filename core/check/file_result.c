/* file_result.c - what checking one file produced (see file_result.h). */
#include "config.h"

#include "file_result.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void file_result_init(struct file_result *result, const char *display,
                      const char *package)
{
    memset(result, 0, sizeof(*result));
    finding_set_init(&result->findings);
    result->display = display != NULL ? xstrdup(display) : NULL;
    result->package = package != NULL ? xstrdup(package) : NULL;
}

void file_result_release(struct file_result *result)
{
    finding_set_release(&result->findings);
    for (size_t i = 0; i < result->comment_count; i++)
        free(result->comments[i].reason);
    free(result->comments);
    for (size_t i = 0; i < result->reference_count; i++) {
        free(result->references[i].text);
        free(result->references[i].path);
        free(result->references[i].from);
        free(result->references[i].context);
    }
    free(result->references);
    free(result->display);
    free(result->package);
    file_result_init(result, NULL, NULL);
}

void file_result_move(struct file_result *to, struct file_result *from)
{
    file_result_release(to);
    *to = *from;
    file_result_init(from, NULL, NULL);
}

size_t file_result_add_comment(struct file_result *result, unsigned line,
                               unsigned column, const char *reason)
{
    if (result->comment_count == result->comment_capacity) {
        result->comment_capacity = result->comment_capacity
                                       ? result->comment_capacity * 2 : 4;
        result->comments = xrealloc(result->comments, result->comment_capacity,
                                    sizeof(*result->comments));
    }
    struct suppression_comment *comment = &result->comments[result->comment_count];
    comment->line = line;
    comment->column = column;
    comment->reason = xstrdup(reason != NULL ? reason : "");
    return result->comment_count++;
}

struct file_reference *file_result_add_reference(struct file_result *result, int kind,
                                                 unsigned line, unsigned column,
                                                 const char *text)
{
    if (result->reference_count == result->reference_capacity) {
        result->reference_capacity = result->reference_capacity
                                         ? result->reference_capacity * 2 : 4;
        result->references = xrealloc(result->references, result->reference_capacity,
                                      sizeof(*result->references));
    }
    struct file_reference *reference = &result->references[result->reference_count++];
    memset(reference, 0, sizeof(*reference));
    reference->kind = kind;
    reference->line = line;
    reference->column = column;
    reference->text = xstrdup(text);
    reference->path = reference->from = NULL;
    return reference;
}
