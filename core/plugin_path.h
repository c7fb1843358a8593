/*
 * plugin_path.h - where plugins come from: the default directory (the
 * build tree's when the build-tree binary runs), --plugin-dir and
 * SANDLINT_PLUGIN_PATH, and --plugin names.
 */
#ifndef SANDLINT_PLUGIN_PATH_H
#define SANDLINT_PLUGIN_PATH_H

#include "options.h"
#include "registry.h"

/* The directory whose plugins load by default (static string). */
const char *plugin_default_directory(void);

/*
 * Loads the default plugins (unless options say not to) and every --plugin
 * (and config plugins in extra, may be NULL) into registry.  Returns 0, or
 * -1 after printing why to stderr.
 */
int plugin_load_all(struct registry *registry, const struct options *options,
                    const struct string_list *extra_plugins,
                    const struct string_list *extra_dirs);

#endif
