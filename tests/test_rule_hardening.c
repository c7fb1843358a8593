/* The sandbox_hardening rules (plugins/hardening.c) unit-tested through the
 * mock host, on the container model: what a container ends up with, from
 * every kind, with one behaviour. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "mock_host.h"

const struct sl_plugin *sandlint_plugin_entry(const struct sl_host *host);

static const struct sl_plugin *plugin;

static int setup(void **state)
{
    (void)state;
    plugin = sandlint_plugin_entry(mock_host_table());
    return plugin == NULL;
}

static int teardown(void **state)
{
    (void)state;
    mock_host_reset();
    return 0;
}

static const struct mock_finding *only(const char *code, int kind, const char *yaml)
{
    mock_host_reset();
    assert_int_equal(mock_host_check_kind(plugin, code, kind, yaml), SL_OK);
    assert_int_equal(mock_host_count(), 1);
    return mock_host_finding(0);
}

/* No capability dropped, in each kind: one error at the container, keyed
 * CONTAINER:cap_drop_all, in the words of its platform and format. */
static void test_cap_drop_missing_in_every_kind(void **state)
{
    const struct mock_finding *finding;
    (void)state;
    finding = only("SBX101", SL_KIND_COMPOSE, "services:\n  web:\n    image: x\n");
    assert_string_equal(finding->service, "web");
    assert_string_equal(finding->field, "cap_drop_all");
    assert_int_equal(finding->line, 2);
    assert_string_equal(finding->message,
                        "the service keeps the engine's default capabilities, among them "
                        "CHOWN, DAC_OVERRIDE, FOWNER, SETUID, SETGID and NET_RAW (no "
                        "cap_drop: [ALL])");
    assert_string_equal(finding->hint, "add 'cap_drop: [ALL]' and cap_add only what the "
                                       "sandbox needs, or %e");
    finding = only("SBX101", SL_KIND_AGENT_ENV, "services:\n  web:\n    image: x\n");
    assert_string_equal(finding->service, "web");
    assert_string_equal(finding->field, "cap_drop_all");
    assert_int_equal(finding->line, 2);     /* the service's key */
    assert_string_equal(finding->hint, "add 'drop: [ALL]' to its securityContext."
                                       "capabilities, and add only the capabilities it "
                                       "needs, or %e");
    assert_string_equal(finding->message,
                        "the container keeps the runtime's default capabilities, among them "
                        "CHOWN, DAC_OVERRIDE, FOWNER, SETUID, SETGID and NET_RAW (no "
                        "securityContext.capabilities.drop: [ALL])");
    finding = only("SBX101", SL_KIND_KUBERNETES,
                   "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
                   "  containers:\n    - name: web\n      securityContext:\n"
                   "        capabilities: {drop: [NET_RAW]}\n");
    assert_string_equal(finding->service, "Pod/p/web");
    assert_string_equal(finding->message,
                        "capabilities.drop does not hold ALL: the container keeps the rest "
                        "of the runtime's default capabilities");
    /* ALL in any case, with or without CAP_, from any kind. */
    mock_host_reset();
    assert_int_equal(mock_host_check(plugin, "SBX101",
                                     "services:\n  a: {cap_drop: [cap_all]}\n"
                                     "  b: {cap_drop: [All]}\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 0);
}

/* What a container inherits counts: a pod's runAsNonRoot covers its
 * containers, and a Compose base service's user the services that extend
 * it. */
static void test_non_root_inherited(void **state)
{
    const struct mock_finding *finding;
    (void)state;
    mock_host_reset();
    assert_int_equal(mock_host_check_kind(plugin, "SBX107", SL_KIND_KUBERNETES,
                                          "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                                          "spec:\n  securityContext: {runAsNonRoot: true}\n"
                                          "  containers: [{name: a}, {name: b}]\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 0);
    mock_host_reset();
    assert_int_equal(mock_host_check(plugin, "SBX107",
                                     "services:\n  base: {user: app}\n"
                                     "  web: {extends: base}\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 0);
    finding = only("SBX107", SL_KIND_KUBERNETES,
                   "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                   "spec:\n  securityContext: {runAsUser: 0}\n  containers: [{name: a}]\n");
    assert_string_equal(finding->service, "Pod/p/a");
    assert_string_equal(finding->message, "runAsUser 0 runs the container as root");
    assert_int_equal(finding->line, 5);     /* the pod's runAsUser */
}

/* A base in another file may set what the service lacks: a warning that
 * says so, not an error. */
static void test_unseen_base_warns(void **state)
{
    const struct mock_finding *finding;
    (void)state;
    finding = only("SBX103", SL_KIND_COMPOSE,
                   "services:\n  web:\n    extends: {file: base.yml, service: x}\n");
    assert_int_equal(finding->severity, SL_SEVERITY_WARNING);
    assert_string_equal(finding->message,
                        "the root file system is writable (no read_only: true): sandboxed "
                        "code can change the programs and libraries of its image, unless the "
                        "service it extends from 'base.yml' sets it, which cannot be checked "
                        "here");
}

/* Limits: the agent-env chart sets its own when a container gives no
 * resources; an ephemeral container takes none; Kubernetes has no process
 * limit per pod. */
static void test_limits_defaults(void **state)
{
    (void)state;
    mock_host_reset();
    assert_int_equal(mock_host_check_kind(plugin, "SBX105", SL_KIND_AGENT_ENV,
                                          "services:\n  web: {image: x}\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 0);
    mock_host_reset();
    assert_int_equal(mock_host_check_kind(plugin, "SBX104", SL_KIND_KUBERNETES,
                                          "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                                          "spec:\n  containers: [{name: a}]\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 0);
    mock_host_reset();
    assert_int_equal(mock_host_check_kind(plugin, "SBX105", SL_KIND_KUBERNETES,
                                          "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                                          "spec:\n  containers: [{name: a}]\n"
                                          "  ephemeralContainers: [{name: debug}]\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 1);
    assert_string_equal(mock_host_finding(0)->service, "Pod/p/a");
    assert_string_equal(mock_host_finding(0)->message,
                        "no resources.limits.memory: the container may use all of the node's "
                        "memory");
}

/* An interpolated security option that names another setting cannot set
 * no-new-privileges; one whose name is interpolated may. */
static void test_no_new_privileges_unresolved(void **state)
{
    const struct mock_finding *finding;
    (void)state;
    finding = only("SBX102", SL_KIND_COMPOSE,
                   "services:\n  web:\n    security_opt: [\"seccomp=${P}\", \"${OPT}\"]\n");
    assert_string_equal(finding->value, "${OPT}");
    assert_string_equal(finding->message,
                        "security_opt entry '${OPT}' is interpolated and cannot be checked");
    finding = only("SBX102", SL_KIND_COMPOSE,
                   "services:\n  web:\n    security_opt: [\"seccomp=${P}\"]\n");
    assert_null(finding->value);
    assert_string_equal(finding->message,
                        "security_opt does not hold no-new-privileges: setuid and "
                        "file-capability programs can gain privileges");
}

/* SBX110: a pod's container without RuntimeDefault or Localhost, its own
 * or the pod's; never a Compose service (the engine has a default). */
static void test_seccomp_profile(void **state)
{
    const struct mock_finding *finding;
    (void)state;
    finding = only("SBX110", SL_KIND_KUBERNETES,
                   "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
                   "  containers: [{name: a}]\n");
    assert_string_equal(finding->service, "Pod/p/a");
    assert_string_equal(finding->field, "seccomp_profile");
    assert_string_equal(finding->hint, "add 'seccompProfile: {type: RuntimeDefault}' to its "
                                       "securityContext (or the pod's), or %e");
    finding = only("SBX110", SL_KIND_AGENT_ENV, "services:\n  web:\n    image: x\n");
    assert_string_equal(finding->service, "web");
    assert_int_equal(finding->line, 2);
    finding = only("SBX110", SL_KIND_KUBERNETES,
                   "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
                   "  securityContext: {seccompProfile: {type: RuntimeDefault}}\n"
                   "  containers:\n    - name: a\n"
                   "      securityContext: {seccompProfile: {type: Unconfined}}\n"
                   "    - name: b\n");
    assert_string_equal(finding->service, "Pod/p/a");
    assert_int_equal(finding->line, 8);
    assert_string_equal(finding->message, "securityContext.seccompProfile.type 'Unconfined' "
                                          "is not RuntimeDefault or Localhost: the container "
                                          "runs with no seccomp system-call filter");
    mock_host_reset();
    assert_int_equal(mock_host_check_kind(plugin, "SBX110", SL_KIND_AGENT_ENV,
                                          "services:\n  web:\n    image: x\n"
                                          "    securityContext:\n      seccompProfile:\n"
                                          "        type: Localhost\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 0);
    assert_int_equal(mock_host_check(plugin, "SBX110", "services:\n  web:\n    image: x\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 0);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_cap_drop_missing_in_every_kind),
        T(test_non_root_inherited),
        T(test_unseen_base_warns),
        T(test_limits_defaults),
        T(test_no_new_privileges_unresolved),
        T(test_seccomp_profile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
