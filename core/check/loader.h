/*
 * loader.h - find plugin files and load them into the registry: the only
 * place that calls dlopen().
 *
 * Where plugins come from: the default directory (the build tree's when
 * the build-tree binary runs, else the installed plugin directory), and
 * plugins named by the user, found in a search path.  The request is a
 * plain description of what to load; the command line and the
 * configuration are turned into one by the driver.
 */
#ifndef SANDLINT_LOADER_H
#define SANDLINT_LOADER_H

#include <stdbool.h>

#include "registry.h"
#include "string_list.h"

struct plugin_request {
    bool default_plugins;       /* every *.so of the default directory */
    struct string_list named;   /* names (found in the search path) or
                                   paths (containing '/') */
    struct string_list search;  /* directories searched for names, in
                                   order, before SANDLINT_PLUGIN_PATH and
                                   the default directory */
};

#define PLUGIN_REQUEST_INIT { true, STRING_LIST_INIT, STRING_LIST_INIT }

void plugin_request_release(struct plugin_request *request);

/* The directory whose plugins load by default (static string). */
const char *loader_default_directory(void);

/*
 * The plugin files request names, in load order (the default directory's
 * sorted, then the named ones), each once.  Only looks at the file system
 * (no plugin code runs), so it can happen before the process confines
 * itself and the files can be allowed by name.  Returns 0, or -1 after
 * printing why to stderr (a name not found, no default directory).
 */
int loader_resolve(const struct plugin_request *request, struct string_list *files);

/*
 * Loads files into registry, in order.  A plugin whose name or rule codes
 * another plugin has already is refused, naming both files.  Returns 0, or
 * -1 after printing why to stderr.
 */
int loader_load_files(struct registry *registry, const struct string_list *files);

/*
 * Loads one plugin file: dlopen, entry symbol, handshake, then the
 * registry's checks of the descriptor.  Returns 0, or -1 with *error set
 * to a malloc'd message naming the file.
 */
int loader_load_file(struct registry *registry, const char *path, char **error);

#endif
