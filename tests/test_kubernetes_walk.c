/* Unit tests for the shape walk over a Kubernetes object
 * (core/kinds/kubernetes_walk.c) and 0.2's allowlist key form
 * (allowlist_namespace_length): SPEC §13, §17. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allowlist.h"
#include "kubernetes_walk.h"
#include "yaml_model.h"

/* Walks the first document of yaml into walk (the model stays parsed). */
static void walk_yaml(struct yaml_model *model, struct kubernetes_walk *walk,
                      const char *yaml, bool host_disk)
{
    assert_int_equal(model_parse(model, yaml, strlen(yaml), NULL), MODEL_OK);
    memset(walk, 0, sizeof(*walk));
    kubernetes_walk_object(walk, model->documents[0], NULL, 0, host_disk);
}

static size_t count_of(const struct kubernetes_walk *walk, enum kubernetes_found_kind kind)
{
    size_t count = 0;
    for (size_t i = 0; i < walk->count; i++)
        count += walk->items[i].kind == kind;
    return count;
}

static void test_pod_spec_shape(void **state)
{
    (void)state;
    struct yaml_model model;
    struct kubernetes_walk walk;
    walk_yaml(&model, &walk,
              "kind: X\n"
              "spec:\n"
              "  a: {containers: [{name: c, image: i}]}\n"
              "  b: {initContainers: [{image: i}]}\n"
              "  c: {containers: [{name: no-image}]}\n"
              "  d: {containers: {image: i}}\n"
              "  e: [{containers: [{image: i, securityContext: {privileged: true}}]}]\n",
              false);
    assert_int_equal(count_of(&walk, KUBERNETES_FOUND_POD_SPEC), 3);
    assert_string_equal(walk.items[0].path, "spec.a");
    assert_string_equal(walk.items[1].path, "spec.b");
    assert_string_equal(walk.items[2].path, "spec.e[0]");
    /* Nothing inside a pod spec is looked at: its securityContext is read. */
    assert_int_equal(count_of(&walk, KUBERNETES_FOUND_SECURITY_KEY), 0);
    assert_false(walk.over_limit);
    kubernetes_walk_release(&walk);
    model_release(&model);
}

static void test_security_keys_and_host_paths(void **state)
{
    (void)state;
    struct yaml_model model;
    struct kubernetes_walk walk;
    walk_yaml(&model, &walk,
              "kind: X\n"
              "spec:\n"
              "  securityContext: {privileged: true}\n"
              "  empty: {securityContext: {}, hostNetwork: false, hostPID: null}\n"
              "  on: {hostIPC: true}\n"
              "  volume: {hostPath: {path: /etc}}\n"
              "  disk: {hostDisk: {path: /dev/sda}}\n",
              false);
    assert_int_equal(count_of(&walk, KUBERNETES_FOUND_SECURITY_KEY), 2);
    assert_string_equal(walk.items[0].path, "spec.securityContext");
    assert_string_equal(walk.items[1].path, "spec.on.hostIPC");
    assert_int_equal(count_of(&walk, KUBERNETES_FOUND_HOST_PATH), 1);
    kubernetes_walk_release(&walk);
    model_release(&model);
    /* KubeVirt's hostDisk only when asked. */
    walk_yaml(&model, &walk, "kind: X\ndisk: {hostDisk: {path: /dev/sda}}\n", true);
    assert_int_equal(count_of(&walk, KUBERNETES_FOUND_HOST_PATH), 1);
    assert_string_equal(walk.items[0].holder_key, "hostDisk");
    kubernetes_walk_release(&walk);
    model_release(&model);
}

static void test_skip(void **state)
{
    (void)state;
    struct yaml_model model;
    struct kubernetes_walk walk;
    const char *yaml = "kind: X\nspec:\n  read: {hostNetwork: true}\n  other: {hostPID: true}\n";
    assert_int_equal(model_parse(&model, yaml, strlen(yaml), NULL), MODEL_OK);
    const struct sl_node *spec = model_mapping_get(model.documents[0], "spec", 4, NULL);
    const struct sl_node *skip[] = { model_mapping_get(spec, "read", 4, NULL) };
    memset(&walk, 0, sizeof(walk));
    kubernetes_walk_object(&walk, model.documents[0], skip, 1, false);
    assert_int_equal(walk.count, 1);
    assert_string_equal(walk.items[0].path, "spec.other.hostPID");
    kubernetes_walk_release(&walk);
    model_release(&model);
}

static void test_limits(void **state)
{
    (void)state;
    struct yaml_model model;
    struct kubernetes_walk walk;
    char yaml[4096];
    size_t at = (size_t)snprintf(yaml, sizeof(yaml), "kind: X\nspec: ");
    for (int i = 0; i < KUBERNETES_WALK_MAX_DEPTH + 2; i++)
        at += (size_t)snprintf(yaml + at, sizeof(yaml) - at, "{a: ");
    at += (size_t)snprintf(yaml + at, sizeof(yaml) - at, "1");
    for (int i = 0; i < KUBERNETES_WALK_MAX_DEPTH + 2; i++)
        at += (size_t)snprintf(yaml + at, sizeof(yaml) - at, "}");
    snprintf(yaml + at, sizeof(yaml) - at, "\n");
    walk_yaml(&model, &walk, yaml, false);
    assert_true(walk.over_limit);
    kubernetes_walk_release(&walk);
    model_release(&model);
}

static void test_long_paths_are_cut(void **state)
{
    (void)state;
    struct yaml_model model;
    struct kubernetes_walk walk;
    char yaml[8192];
    size_t at = (size_t)snprintf(yaml, sizeof(yaml), "kind: X\n");
    for (int i = 0; i < 30; i++)
        at += (size_t)snprintf(yaml + at, sizeof(yaml) - at, "%*sk%02d_%s:\n", i, "", i,
                               "a_rather_long_key_name_that_fills_the_path");
    snprintf(yaml + at, sizeof(yaml) - at, "%*shostPID: true\n", 30, "");
    walk_yaml(&model, &walk, yaml, false);
    assert_int_equal(walk.count, 1);
    assert_true(strlen(walk.items[0].path) < 256);
    assert_non_null(strstr(walk.items[0].path, "..."));
    kubernetes_walk_release(&walk);
    model_release(&model);
}

static void test_namespace_length(void **state)
{
    (void)state;
    static const struct {
        const char *key;
        size_t length;
    } cases[] = {
        { "eval-a/Deployment/runner/r:securityContext.privileged", 7 },
        { "eval-a/Deployment/runner:hostPID", 7 },
        { "Deployment/runner/r:securityContext.privileged", 0 },
        { "default:securityContext.privileged", 0 },
        { "web:volumes:/var/run/docker.sock", 0 },
        { "ns/Kind:field", 0 },             /* no name: not an object key */
        { "Ns/Deployment/x:f", 0 },         /* a namespace is lower case */
        { "ns/deployment/x:f", 0 },         /* a kind begins with a capital */
        { "automountServiceAccountToken", 0 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        size_t got = allowlist_namespace_length(cases[i].key, strlen(cases[i].key));
        if (got != cases[i].length)
            fail_msg("'%s': %zu, expected %zu", cases[i].key, got, cases[i].length);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pod_spec_shape),
        cmocka_unit_test(test_security_keys_and_host_paths),
        cmocka_unit_test(test_skip),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_long_paths_are_cut),
        cmocka_unit_test(test_namespace_length),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
