/*
 * compose.h - Compose value rules shared by the core and, through the host
 * services of the plugin ABI, by every plugin: truthy strings, interpolation,
 * short-syntax volume parsing, host-path classification and engine sockets.
 * All functions are pure: they read their arguments and keep nothing.
 */
#ifndef SANDLINT_COMPOSE_H
#define SANDLINT_COMPOSE_H

#include <stddef.h>

/* compose_has_interpolation() and the spans of interpolations that the
 * volume parsing below skips live with the interpolation engine. */
#include "compose_interpolation.h"

struct sl_node;
struct sl_volume;

/* 1 for "true", "y", "yes", "on" in any case (what Compose accepts). */
int compose_text_truthy(const char *text, size_t length);

/* 1 when node is a scalar whose text is truthy. */
int compose_node_truthy(const struct sl_node *node);

/* 1 when node is no setting: NULL, null, or an empty collection. */
int compose_node_empty(const struct sl_node *node);

/* The text of a scalar that holds a setting (not null, not empty), with
 * its length in *length; NULL (and 0) for anything else.  The node API's
 * sl_setting_text() in the core. */
const char *compose_setting_text(const struct sl_node *node, size_t *length);

/* enum sl_source_kind of a short-syntax volume source. */
int compose_classify_source(const char *source, size_t length);

/* Splits SOURCE:TARGET[:MODE]; out->struct_size must be set.  Returns
 * SL_OK or SL_ERROR. */
int compose_parse_volume(const char *text, size_t length, struct sl_volume *out);

/* 1 when a host mount exposes a container engine API (see plugin.h). */
int compose_is_engine_socket(const char *source, size_t source_length,
                             const char *target, size_t target_length);

#endif
