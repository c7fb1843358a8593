/* stdin_file.c - the Compose file on standard input (see stdin_file.h). */
#include "config.h"

#include "stdin_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "byte_buffer.h"
#include "file_kind.h"
#include "paths.h"
#include "worker_protocol.h"
#include "xalloc.h"

struct discovered_file *stdin_file_read(const char *name, const char *root,
                                        size_t max_size)
{
    struct discovered_file *file = xcalloc(1, sizeof(*file));
    file->base_fd = -1;
    file->path = xstrdup(name != NULL ? name : "compose.yaml");
    file->absolute = path_absolute(file->path);
    file->display = path_relative(root, file->absolute);
    /* Named like a file operand: every kind is tried (file_kind.h). */
    char *base = path_basename(file->absolute);
    file->candidates = CANDIDATE_NAMED | file_name_candidates(base);
    /* A YAML file named as one of .github/workflows is a workflow, as the
     * same file named as an operand is (without this, a workflow piped in
     * under its own name was read as nothing and passed). */
    const char *slash = strrchr(file->absolute, '/');
    if (file_name_is_yaml(base) && slash != NULL &&
        file_dir_is_workflows(file->absolute, (size_t)(slash - file->absolute)))
        file->candidates |= CANDIDATE_GITHUB_ACTIONS;
    free(base);
    if (max_size == 0 || max_size > PROTOCOL_MAX_CONTENT)
        max_size = PROTOCOL_MAX_CONTENT;
    struct byte_buffer text = BYTE_BUFFER_INIT;
    for (;;) {
        byte_buffer_reserve(&text, 65536);
        ssize_t got = read(STDIN_FILENO, text.data + text.length,
                           text.capacity - text.length);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            file->problem = xasprintf("cannot read standard input: %s", strerror(errno));
            break;
        }
        if (got == 0)
            break;
        text.length += (size_t)got;
        if (text.length > max_size) {
            file->problem = xasprintf("standard input is larger than the size limit "
                                      "of %zu bytes (--max-file-size); not checked",
                                      max_size);
            break;
        }
    }
    if (file->problem == NULL) {
        file->content = xmemdup(text.data != NULL ? (const char *)text.data : "",
                                text.length);
        file->content_length = text.length;
    }
    byte_buffer_release(&text);
    return file;
}
