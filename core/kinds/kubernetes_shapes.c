/* kubernetes_shapes.c - security settings of the wrong YAML type (see
 * kubernetes_shapes.h). */
#include "config.h"

#include "kubernetes_shapes.h"

#include <stdlib.h>
#include <string.h>

#include "kubernetes.h"
#include "xalloc.h"

static const struct sl_node *find(const struct sl_node *mapping, const char *name,
                                  const struct sl_node **key)
{
    *key = NULL;
    if (mapping == NULL || mapping->kind != SL_NODE_MAPPING)
        return NULL;
    return model_mapping_get(mapping, name, strlen(name), key);
}

/* Absent, null or Helm template text: nothing to report here. */
static bool unwritten(const struct sl_node *node)
{
    return node == NULL || model_is_null(node) ||
           (node->kind == SL_NODE_SCALAR &&
            kubernetes_is_templated(node->u.scalar.text, node->u.scalar.length));
}

static const char *type_name(const struct sl_node *node)
{
    return node->kind == SL_NODE_MAPPING ? "a mapping"
           : node->kind == SL_NODE_SEQUENCE ? "a list"
           : node->style == SL_STYLE_PLAIN ? "a scalar" : "a string";
}

static void wrong_type(struct model_reading *reading, const char *name, const char *path,
                       const struct sl_node *key, const struct sl_node *node,
                       const char *expected)
{
    bool flag = strcmp(expected, "true or false") == 0;
    char *message = xasprintf("%s: %s is %s where Kubernetes expects %s; %s", name, path,
                              type_name(node), expected,
                              flag ? "what it turns on is not understood"
                                   : "the security settings it holds were not checked");
    model_emit_not_understood(reading, key != NULL ? key : node, message);
    free(message);
}

/* A boolean as Kubernetes' YAML reader takes it: a plain true or false
 * (YAML 1.1 spellings too); a quoted "true" is a string it refuses. */
static bool is_boolean(const struct sl_node *node)
{
    static const char *const words[] = { "true", "false", "yes", "no", "on", "off",
                                         "y", "n" };
    if (node->kind != SL_NODE_SCALAR || node->style != SL_STYLE_PLAIN)
        return false;
    for (size_t w = 0; w < sizeof(words) / sizeof(*words); w++) {
        size_t length = strlen(words[w]);
        if (node->u.scalar.length != length)
            continue;
        size_t i = 0;
        while (i < length && (node->u.scalar.text[i] | 0x20) == words[w][i])
            i++;
        if (i == length)
            return true;
    }
    return false;
}

static void want_boolean(struct model_reading *reading, const char *name,
                         const struct sl_node *mapping, const char *field, const char *path)
{
    const struct sl_node *key;
    const struct sl_node *node = find(mapping, field, &key);
    if (!unwritten(node) && !is_boolean(node))
        wrong_type(reading, name, path, key, node, "true or false");
}

/* Reports field of mapping unless it is a node of kind (or unwritten);
 * returns it when it is. */
static const struct sl_node *want(struct model_reading *reading, const char *name,
                                  const struct sl_node *mapping, const char *field,
                                  const char *path, int kind)
{
    const struct sl_node *key;
    const struct sl_node *node = find(mapping, field, &key);
    if (node != NULL && kind != SL_NODE_SCALAR && node->kind == SL_NODE_SCALAR &&
        kubernetes_is_templated(node->u.scalar.text, node->u.scalar.length)) {
        /* Helm fills it in at deploy time: SL009, not a wrong type. */
        char *message = xasprintf("%s: %s is Helm template text and cannot be checked",
                                  name, path);
        model_emit_templated(reading, key != NULL ? key : node, message);
        free(message);
        return NULL;
    }
    if (unwritten(node))
        return NULL;
    if (node->kind == kind)
        return node;
    wrong_type(reading, name, path, key, node,
               kind == SL_NODE_MAPPING ? "a mapping" : kind == SL_NODE_SEQUENCE ? "a list"
                                                                                : "a string");
    return NULL;
}

/* The profiles and labels a pod's and a container's securityContext both
 * have: each a mapping whose type is a string. */
static void confinement(struct model_reading *reading, const char *name,
                        const struct sl_node *security)
{
    static const char *const fields[] = { "seccompProfile", "appArmorProfile",
                                          "seLinuxOptions" };
    for (size_t i = 0; i < sizeof(fields) / sizeof(*fields); i++) {
        char *path = xasprintf("securityContext.%s", fields[i]);
        const struct sl_node *profile = want(reading, name, security, fields[i], path,
                                             SL_NODE_MAPPING);
        free(path);
        if (profile == NULL)
            continue;
        path = xasprintf("securityContext.%s.type", fields[i]);
        want(reading, name, profile, "type", path, SL_NODE_SCALAR);
        free(path);
    }
}

void kubernetes_shapes_container(struct model_reading *reading, const char *name,
                                 const struct sl_node *container)
{
    kubernetes_shapes_security(reading, name,
                               want(reading, name, container, "securityContext",
                                    "securityContext", SL_NODE_MAPPING));
}

void kubernetes_shapes_security(struct model_reading *reading, const char *name,
                                const struct sl_node *security)
{
    if (security == NULL || security->kind != SL_NODE_MAPPING)
        return;
    want_boolean(reading, name, security, "privileged", "securityContext.privileged");
    want_boolean(reading, name, security, "allowPrivilegeEscalation",
                 "securityContext.allowPrivilegeEscalation");
    want_boolean(reading, name, security, "readOnlyRootFilesystem",
                 "securityContext.readOnlyRootFilesystem");
    want_boolean(reading, name, security, "runAsNonRoot", "securityContext.runAsNonRoot");
    confinement(reading, name, security);
    const struct sl_node *capabilities = want(reading, name, security, "capabilities",
                                              "securityContext.capabilities",
                                              SL_NODE_MAPPING);
    /* A scalar add or drop is read as a one-entry list, as Compose's
     * cap_add: SYS_ADMIN is: it is checked, not passed. */
    static const char *const lists[] = { "add", "drop" };
    for (size_t i = 0; capabilities != NULL && i < 2; i++) {
        const struct sl_node *key;
        const struct sl_node *node = find(capabilities, lists[i], &key);
        if (!unwritten(node) && node->kind == SL_NODE_MAPPING) {
            char *path = xasprintf("securityContext.capabilities.%s", lists[i]);
            wrong_type(reading, name, path, key, node, "a list");
            free(path);
        }
    }
}

void kubernetes_shapes_pod(struct model_reading *reading, const char *name,
                           const struct sl_node *spec)
{
    static const char *const switches[] = { "hostNetwork", "hostPID", "hostIPC",
                                            "hostUsers" };
    for (size_t i = 0; i < sizeof(switches) / sizeof(*switches); i++)
        want_boolean(reading, name, spec, switches[i], switches[i]);
    const struct sl_node *security = want(reading, name, spec, "securityContext",
                                          "securityContext", SL_NODE_MAPPING);
    if (security != NULL)
        confinement(reading, name, security);
    const struct sl_node *volumes = want(reading, name, spec, "volumes", "volumes",
                                         SL_NODE_SEQUENCE);
    for (size_t i = 0; volumes != NULL && i < volumes->u.sequence.count; i++) {
        const struct sl_node *volume = volumes->u.sequence.items[i];
        if (volume->kind != SL_NODE_MAPPING)
            continue;   /* the volume walk reports what it cannot read */
        const struct sl_node *host = want(reading, name, volume, "hostPath",
                                          "volumes[].hostPath", SL_NODE_MAPPING);
        want(reading, name, host, "path", "volumes[].hostPath.path", SL_NODE_SCALAR);
    }
}
