/*
 * container_model.h - the container model (SPEC §18): what a front-end
 * reads a document into, and what the checker hands to rules.
 *
 * A front-end (compose_front.c, agent_env_front.c, kubernetes_front.c)
 * walks one document of its format and hands the checker its steps, in
 * the order rules must see them (struct model_step): the document, each
 * service or pod spec (for rules of ABI 1.0-1.2), each scope of the model
 * (for rules of ABI 1.3), and the structure warnings it found.  It never
 * calls the checker: problems are steps, and the checker turns them into
 * findings.
 *
 * A scope (struct model_scope) is a container, a pod, a ServiceAccount or a
 * file's project-wide values.  Its settings are filled on first use by the
 * front-end that made it (struct model_reader), in either view of
 * <sandlint/plugin.h> (written, effective), and kept until its group is
 * released.  Scopes live in groups (struct model_group): a front-end makes
 * the scopes of one service or object in one group, hands their steps over
 * and releases the group, so a file of 400,000 services never holds more
 * than one service's model at a time.  A scope's parent (a container's
 * pod, a pod's project) must live at least as long as the scope.
 */
#ifndef SANDLINT_CONTAINER_MODEL_H
#define SANDLINT_CONTAINER_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "comment_list.h"
#include "sandlint/plugin.h"
#include "string_set.h"
#include "yaml_model.h"

/* Setting ids this host knows: 1 .. MODEL_SETTING_LAST. */
#define MODEL_SETTING_LAST SL_SETTING_BUILD_NETWORK
_Static_assert(MODEL_SETTING_LAST <= 64, "struct model_scope's filled bits");

/* The smallest structs a caller may declare: ABI 1.3's. */
#define MODEL_SCOPE_SIZE_1_3 \
    (offsetof(struct sl_scope, parent) + sizeof(const struct sl_scope *))
#define MODEL_SETTING_SIZE_1_3 (offsetof(struct sl_setting, unseen_length) + sizeof(size_t))
#define MODEL_VALUE_SIZE_1_3 \
    (offsetof(struct sl_value, resolved_from_length) + sizeof(size_t))

struct model_scope;
struct compose_project;

/* One setting as filled: the descriptor and its values. */
struct model_setting {
    struct sl_setting setting;
    struct sl_value *values;    /* setting.count of them */
};

/* What a front-end fills a setting with (model_reader.fill). */
struct model_fill {
    struct model_scope *scope;
    struct sl_setting setting;  /* state ABSENT, node the scope's, until set */
    struct sl_value *values;    /* malloc'd while filling */
    size_t count, capacity;
};

/* Appends a value to the setting being filled (its state SET, origin
 * OWN, struct_size set, the rest zero) and returns it; the fill's state
 * becomes SL_SETTING_SET.  Valid until the next call. */
struct sl_value *model_fill_value(struct model_fill *fill);

/* Appends mount (as a front-end's host-mount walk found it) as a value of
 * SL_SETTING_MOUNTS: text its key value, meaning its kind; an
 * interpolated one is TEMPLATED in template_syntax, one of a shape that
 * cannot be checked UNCHECKABLE.  The mount's texts must outlive the
 * setting (they point into the document). */
void model_fill_mount(struct model_fill *fill, const struct sl_mount *mount,
                      int template_syntax);

/* Sets value->parsed to a capability as the engine and the runtime read
 * it: its text in upper case without "CAP_" (SYS_ADMIN, ALL). */
void model_parse_capability(struct model_fill *fill, struct sl_value *value);

/* Fills fill with what its scope inherits of setting id from its parent:
 * the parent's effective setting, each value of origin PARENT (a default
 * stays DEFAULT).  Leaves fill as it is when the scope has no parent or
 * the parent cannot express the setting. */
void model_fill_inherit(struct model_fill *fill, int id);

/* The front-end behind a scope. */
struct model_reader {
    /* Fills fill->setting (and its values) with setting id (1 ..
     * MODEL_SETTING_LAST) in view.  fill arrives with state ABSENT,
     * id, view and node (the scope's node) set. */
    void (*fill)(struct model_fill *fill, const struct model_scope *scope, int view,
                 int id);
    /* The scope's own host mounts, as sl_host.scope_mounts() delivers
     * them; NULL: it has none.  Returns as host_mounts_each() does. */
    int (*mounts)(const struct model_scope *scope, struct sl_context *ctx,
                  size_t mount_size, sl_mount_fn visit, void *data,
                  const char **problem);
};

/* Scopes that live and die together, with everything they point to. */
struct model_group {
    struct arena arena;
};

void model_group_init(struct model_group *group);
/* Frees every scope of the group and what its settings hold. */
void model_group_release(struct model_group *group);
/* size zeroed bytes, or a copy of text (NUL-terminated), owned by the
 * group; out of memory ends the process as xalloc does. */
void *model_group_alloc(struct model_group *group, size_t size);
char *model_group_strndup(struct model_group *group, const char *text, size_t length);
/* An empty mapping at where's position, owned by the group: what stands
 * for a scope with no settings of its own to read (an image string, a
 * step, a TOML table) for rules of ABI 1.0-1.2. */
struct sl_node *model_group_empty_mapping(struct model_group *group,
                                          const struct sl_node *where);

/* What a scope is (model_scope_new). */
struct model_scope_spec {
    int level, sort, platform, kind;    /* as in struct sl_scope */
    const char *service;                /* copied; NULL for a project */
    size_t service_length;
    const char *name;                   /* borrowed (a node's text) or NULL */
    size_t name_length;
    const char *noun;                   /* static text */
    const struct sl_node *node, *mapping;
    struct model_scope *parent;         /* outlives the scope, or NULL */
    const struct model_reader *reader;
    const void *data;                   /* the reader's; outlives the scope */
};

struct model_scope {
    struct sl_scope public;             /* what rules receive */
    unsigned magic;                     /* MODEL_SCOPE_MAGIC: a handle check */
    struct model_group *group;
    struct model_scope *parent;
    const struct model_reader *reader;
    const void *data;
    struct model_setting *settings[2];  /* [view - 1][id - 1], on first use */
    uint64_t filled[2];                 /* [view - 1]: bit id - 1 when filled */
};

#define MODEL_SCOPE_MAGIC 0x5c09e13u

/* A scope in group, described by spec. */
struct model_scope *model_scope_new(struct model_group *group,
                                    const struct model_scope_spec *spec);

/* The model's scope behind a scope handed to a plugin, or NULL when it is
 * not one (NULL, too small, a foreign handle). */
struct model_scope *model_scope_of(const struct sl_scope *scope);

/* Setting id of scope in view (enum sl_view), filled on first use; id
 * out of range gives SL_SETTING_UNMODELLED.  NULL for a view that is not
 * one. */
const struct model_setting *model_scope_setting(struct model_scope *scope, int view,
                                                int id);

/* The scope's own mounts (model_reader.mounts); SL_OK when it has none. */
int model_scope_mounts(const struct model_scope *scope, struct sl_context *ctx,
                       size_t mount_size, sl_mount_fn visit, void *data,
                       const char **problem);

/* ------------------------------------------------------------------ */
/* Steps: what the checker does with a document, in order              */
/* ------------------------------------------------------------------ */

enum model_step_type {
    MODEL_STEP_DOCUMENT,        /* check_document on node, of kind */
    MODEL_STEP_SERVICE,         /* check_service: name, key, node (the
                                   mapping); one service or pod spec more */
    MODEL_STEP_SCOPE,           /* check_scope or check_container on scope */
    MODEL_STEP_WARNING,         /* a structure warning (SL003) at node */
    MODEL_STEP_NOT_CHECKED,     /* an error at node: part of the file was
                                   not checked (a limit), so it fails */
    MODEL_STEP_NOT_UNDERSTOOD,  /* an error at node (SL008): security
                                   settings sandlint cannot place, so the
                                   file fails */
    MODEL_STEP_TEMPLATED,       /* Helm template text where structure is
                                   (SL009, a warning) at node */
    MODEL_STEP_COMMAND_LINE     /* an SL011 warning at node: an engine
                                   command line, or a part of one, that
                                   cannot be read (shell_front.h) */
};

struct model_step {
    enum model_step_type type;
    int kind;                   /* SL_KIND_* rules see */
    const struct sl_node *root; /* what document_root() answers: the
                                   document, or the Kubernetes object */
    const struct sl_node *node;
    const struct sl_node *key;  /* SERVICE: the service's key */
    const char *name;           /* SERVICE: its name, NUL-terminated */
    size_t name_length;
    struct model_scope *scope;  /* SCOPE */
    const char *message;        /* WARNING, NOT_CHECKED */
};

/* Where a front-end hands its steps: the checker, or the mock host of the
 * unit tests.  A step and what it points to are valid during the call. */
struct model_sink {
    void (*take)(struct model_sink *sink, const struct model_step *step);
};

/* What a front-end remembers across the documents of one file. */
struct model_file_state {
    bool not_compose_reported;  /* the "not a Compose file" warning is out */
    size_t objects_read;        /* Kubernetes objects so far (aliases in
                                   Lists can repeat one many times) */
    bool objects_limit_reported; /* the Lists' limit error is out */
    /* The file's documents, for what one object says of another (a pod's
     * ServiceAccount); NULL where the caller reads documents alone. */
    const struct sl_node *const *documents;
    size_t document_count;
    /* "NAMESPACE/NAME" of the file's ServiceAccounts that say
     * automountServiceAccountToken: false; made on first use, freed by
     * model_file_state_release(). */
    struct string_set *accounts_without_token;
    size_t engine_commands;     /* engine run/create commands so far: the
                                   N of the run<N> services */
    size_t shell_bytes;         /* shell text read from the file's scalars
                                   (aliases can repeat one many times) */
    bool shell_limit_reported;  /* the error that says the rest was not read */
    struct comment_list *step_comments; /* where the comments of shell text
                                   in a YAML file (CI steps) go, for
                                   suppression comments; NULL: dropped */
    struct compose_project *compose_project; /* a Compose file's variables
                                   (compose_project.h), borrowed; NULL:
                                   none known */
};

/* Frees what the front-ends made for the file; the state is zero after. */
void model_file_state_release(struct model_file_state *file);

/* One document being read: where its steps go. */
struct model_reading {
    struct model_sink *sink;
    struct model_file_state *file;
    const struct sl_node *root;     /* the steps' root: the document, or
                                       the Kubernetes object being read */
};

/* Whether pair (of a services mapping) is a service a front-end can read:
 * a mapping under a scalar key.  If not, the structure warning that says
 * why is handed to the sink. */
bool model_service_pair(struct model_reading *reading, const struct model_pair *pair);

/* Hands one step to the sink. */
void model_emit(struct model_reading *reading, const struct model_step *step);
void model_emit_document(struct model_reading *reading, int kind,
                         const struct sl_node *root);
void model_emit_service(struct model_reading *reading, int kind, const char *name,
                        size_t name_length, const struct sl_node *key,
                        const struct sl_node *mapping);
void model_emit_scope(struct model_reading *reading, struct model_scope *scope);
void model_emit_warning(struct model_reading *reading, const struct sl_node *at,
                        const char *message);
void model_emit_not_checked(struct model_reading *reading, const struct sl_node *at,
                            const char *message);
void model_emit_not_understood(struct model_reading *reading, const struct sl_node *at,
                               const char *message);
void model_emit_templated(struct model_reading *reading, const struct sl_node *at,
                          const char *message);
void model_emit_command_line(struct model_reading *reading, const struct sl_node *at,
                             const char *message);

#endif
