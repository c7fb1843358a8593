/* compose_project.c - a Compose file's .env and its values resolved (see
 * compose_project.h). */
#include "config.h"

#include "compose_project.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compose_context.h"
#include "source.h"
#include "xalloc.h"

/* "dir/file" -> "dir/.env"; "file" -> ".env". */
static char *sibling_env(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        return xstrdup(".env");
    return xasprintf("%.*s/.env", (int)(slash - path), path);
}

void compose_project_init(struct compose_project *project, int dir_fd,
                          const char *relative, const char *display)
{
    memset(project, 0, sizeof(*project));
    project->dir_fd = relative != NULL ? dir_fd : -1;
    if (project->dir_fd >= 0) {
        project->env_relative = sibling_env(relative);
        project->env_display = sibling_env(display != NULL ? display : relative);
    }
    dotenv_init(&project->env, NULL);
    interpolation_budget_init(&project->budget, INTERPOLATION_FILE_WORK);
}

void compose_project_release(struct compose_project *project)
{
    free(project->env_relative);
    free(project->env_display);
    free(project->problem);
    dotenv_release(&project->env);
    if (project->handed_on != NULL) {
        dotenv_release(project->handed_on);
        free(project->handed_on);
    }
    memset(project, 0, sizeof(*project));
    project->dir_fd = -1;
}

/* Reads the .env beside the file, once.  None, or a directory (a Python
 * virtual environment is often called .env; Compose skips a directory),
 * is no variables. */
static void load(struct compose_project *project)
{
    if (project->loaded)
        return;
    project->loaded = true;
    if (project->dir_fd < 0 || project->skip_own_env)
        return;
    struct stat info;
    if (fstatat(project->dir_fd, project->env_relative, &info, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return;
        project->problem = xasprintf("%s cannot be read (%s), so the values that use "
                                     "its variables cannot be checked",
                                     project->env_display, strerror(errno));
        return;
    }
    if (S_ISDIR(info.st_mode))
        return;
    struct source_text text;
    char *error = NULL;
    if (source_read_at(project->dir_fd, project->env_relative, DOTENV_MAX_BYTES, &text,
                       &error) != 0) {
        project->problem = xasprintf("%s cannot be read (%s), so the values that use "
                                     "its variables cannot be checked",
                                     project->env_display, error);
        free(error);
        return;
    }
    struct dotenv_error parse_error = { 0, 0, NULL };
    if (dotenv_parse(&project->env, project->env_display, text.data, text.length,
                     &parse_error) != 0) {
        project->problem = xasprintf("%s:%u:%u: %s; Compose refuses the project, and "
                                     "the values that use its variables cannot be "
                                     "checked",
                                     project->env_display, parse_error.line,
                                     parse_error.column, parse_error.message);
        project->problem_line = parse_error.line;
        project->problem_column = parse_error.column;
        dotenv_error_release(&parse_error);
    }
    source_release(&text);
}

bool compose_project_set_context(struct compose_project *project, const char *context,
                                 size_t length)
{
    int kind = compose_context_kind(context, length);
    if (kind != CONTEXT_INCLUDED && kind != CONTEXT_EXTENDED &&
        kind != CONTEXT_INCLUDED_ENV_FILE)
        return false;
    struct dotenv *handed_on = xmalloc(sizeof(*handed_on));
    dotenv_init(handed_on, NULL);
    if (!compose_context_decode(context, length, handed_on)) {
        dotenv_release(handed_on);
        free(handed_on);
        return false;
    }
    /* An include item's project_directory: its .env is the project's,
     * and the paths of the file's own include items start there. */
    struct compose_directory directory;
    if (compose_context_directory(context, length, &directory)) {
        if (project->dir_fd < 0) {
            compose_directory_release(&directory);
            dotenv_release(handed_on);
            free(handed_on);
            return false;
        }
        free(project->env_relative);
        free(project->env_display);
        project->env_relative = directory.relative[0] == '\0'
                                    ? xstrdup(".env")
                                    : xasprintf("%s/.env", directory.relative);
        project->env_display = directory.display[0] == '\0' ||
                                       strcmp(directory.display, ".") == 0
                                   ? xstrdup(".env")
                                   : xasprintf("%s/.env", directory.display);
        compose_directory_release(&directory);
    }
    project->handed_on = handed_on;
    project->skip_own_env = kind != CONTEXT_INCLUDED;  /* env_file replaces it */
    dotenv_release(&project->env);
    dotenv_init(&project->env, handed_on);
    return true;
}

const struct dotenv *compose_project_variables(struct compose_project *project)
{
    load(project);
    return project->problem == NULL ? &project->env : NULL;
}

bool compose_project_resolve(struct compose_project *project, const char *text,
                             size_t length, struct compose_resolution *out)
{
    memset(out, 0, sizeof(*out));
    load(project);
    struct interpolation_variables variables = dotenv_variables(&project->env);
    struct interpolation_result result;
    enum interpolation_status status =
        compose_interpolate(text, length, &variables, &project->budget, &result);
    /* With a .env that could not be read, a variable may be defined in the
     * part that was not: only a value without variables is known. */
    bool known = status == INTERPOLATION_FIXED ||
                 (status == INTERPOLATION_RESOLVED && project->problem == NULL);
    if (known) {
        out->text = result.text;
        out->length = result.length;
        result.text = NULL;
        out->from = interpolation_describe(&result);
    }
    interpolation_result_release(&result);
    return known;
}

void compose_resolution_release(struct compose_resolution *resolution)
{
    free(resolution->text);
    free(resolution->from);
    memset(resolution, 0, sizeof(*resolution));
}
