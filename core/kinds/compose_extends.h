/*
 * compose_extends.h - a Compose service as Compose merges it: the services
 * it extends in the same file, and the tags !reset and !override.
 *
 * Compose builds a service from the services it extends (extends: NAME or
 * {service: NAME}) before it runs it: a setting the service does not write
 * comes from the nearest service of the chain that does; lists are merged
 * (the service's entries, then its bases'); a setting tagged !reset is
 * removed, with what it would inherit; a list tagged !override replaces
 * what it would inherit.  A base in another file (extends.file) or an
 * interpolated service name cannot be seen here: the chain says so
 * (external), so that a missing setting is a warning, not an error.
 *
 * Every walk is bounded: at most COMPOSE_CHAIN_MAX services, cycles
 * stopped (Compose refuses them).  Pure: nothing is kept or allocated.
 */
#ifndef SANDLINT_COMPOSE_EXTENDS_H
#define SANDLINT_COMPOSE_EXTENDS_H

#include <stddef.h>

struct sl_node;

/* What a lookup finds (compose_lookup). */
enum compose_presence {
    COMPOSE_ABSENT = 0,         /* not written, or null/empty: look further */
    COMPOSE_RESET = 1,          /* tagged !reset: removed, also what it would
                                   inherit */
    COMPOSE_PRESENT = 2
};

/* The setting name of mapping, with its key and value nodes (NULL when
 * not written): enum compose_presence. */
int compose_lookup(const struct sl_node *mapping, const char *name,
                   const struct sl_node **key, const struct sl_node **value);

/* Whether node is tagged tag ("!reset", "!override"). */
int compose_tagged(const struct sl_node *node, const char *tag);

/* How deep extends chains are followed. */
#define COMPOSE_CHAIN_MAX 16

/* A service and the services of the same file it extends, nearest first. */
struct compose_chain {
    const struct sl_node *services[COMPOSE_CHAIN_MAX];
    size_t count;
    const char *external;       /* extends names a file (or an interpolated
                                   service) that cannot be seen here: its
                                   text as written, or NULL */
    size_t external_length;
};

/* The chain of service (a mapping); services is the mapping of the
 * document's services (a legacy file's top level). */
void compose_chain_build(struct compose_chain *chain, const struct sl_node *services,
                         const struct sl_node *service);

/*
 * The setting at path (a NULL-terminated list of keys: "read_only", or
 * "deploy", "resources", "limits", "memory") of the nearest service of the
 * chain that writes it: enum compose_presence.  !reset at any level of the
 * path removes it, with what it would inherit; a step that is not a mapping
 * is not written there.  When PRESENT, *key and *value are its nodes and
 * *depth the index in the chain of the service that wrote it.
 */
int compose_chain_setting(const struct compose_chain *chain, const char *const *path,
                          const struct sl_node **key, const struct sl_node **value,
                          size_t *depth);

/* Receives each entry of a merged list: depth in the chain of the service
 * that wrote it, where a finding on it points (the item, or the key of a
 * scalar given for the list), the entry. */
typedef void (*compose_entry_fn)(size_t depth, const struct sl_node *where,
                                 const struct sl_node *entry, void *data);

/*
 * Calls visit for each entry of the list setting name of the chain: the
 * lists of the service and the services it extends, merged, up to a list
 * tagged !reset (removed with what follows) or !override (kept, but
 * replaces what follows).  Null entries are skipped.  *first_key receives
 * the key of the nearest list written, or NULL.
 */
void compose_chain_list(const struct compose_chain *chain, const char *name,
                        const struct sl_node **first_key, compose_entry_fn visit,
                        void *data);

/* Calls visit for each entry of the list setting name of mapping alone, as
 * written (tags not applied); *key receives its key (NULL when the list is
 * null or empty).  Null entries are skipped. */
void compose_written_list(const struct sl_node *mapping, const char *name,
                          const struct sl_node **key, compose_entry_fn visit,
                          void *data);

#endif
