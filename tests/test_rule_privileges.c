/* SBX001 (plugins/privileges.c) unit-tested through the mock host: the
 * plugin's source is built into this test and its callback runs on YAML
 * snippets without the driver. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
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

/* Runs SBX001 on yaml; expects it to succeed with count findings. */
static void check(const char *yaml, size_t count)
{
    assert_int_equal(mock_host_check(plugin, "SBX001", yaml), SL_OK);
    assert_int_equal(mock_host_count(), count);
}

static void expect(size_t index, unsigned line, unsigned column, const char *field,
                   const char *value, int severity, const char *message)
{
    const struct mock_finding *finding = mock_host_finding(index);
    assert_non_null(finding);
    assert_string_equal(finding->rule, "SBX001");
    assert_string_equal(finding->service, "web");
    assert_int_equal(finding->line, line);
    assert_int_equal(finding->column, column);
    assert_string_equal(finding->field, field);
    if (value == NULL)
        assert_null(finding->value);
    else
        assert_string_equal(finding->value, value);
    assert_int_equal(finding->severity, severity);
    assert_string_equal(finding->message, message);
    assert_null(finding->hint);
}

static void test_descriptor(void **state)
{
    (void)state;
    assert_string_equal(plugin->name, "privileges");
    assert_string_equal(plugin->rules[0]->code, "SBX001");
    assert_null(plugin->rules[1]);
}

static void test_privileged(void **state)
{
    (void)state;
    check("services:\n  web:\n    privileged: yes\n", 1);
    expect(0, 3, 5, "privileged", NULL, SL_SEVERITY_DEFAULT,
           "privileged mode grants every capability, host devices and relaxed "
           "security profiles");
    mock_host_reset();
    check("services:\n  web:\n    privileged: \"${PRIV:-false}\"\n", 1);
    expect(0, 3, 5, "privileged", "${PRIV:-false}", SL_SEVERITY_WARNING,
           "privileged is set by interpolation '${PRIV:-false}' and cannot be checked");
    mock_host_reset();
    check("services:\n  web:\n    privileged: false\n  db:\n    privileged: \"no\"\n", 0);
}

static void test_lists(void **state)
{
    (void)state;
    check("services:\n"
          "  web:\n"
          "    cap_add: [SYS_ADMIN, \"${CAP}\"]\n"
          "    devices:\n"
          "      - /dev/fuse\n"
          "      - source: /dev/kvm\n"
          "        target: /dev/kvm\n"
          "      - [nested]\n"
          "    device_cgroup_rules: ['c 10:* rmw']\n", 6);
    expect(0, 3, 15, "cap_add", "SYS_ADMIN", SL_SEVERITY_DEFAULT,
           "cap_add grants the Linux capability 'SYS_ADMIN'");
    expect(1, 3, 26, "cap_add", "${CAP}", SL_SEVERITY_WARNING,
           "cap_add entry '${CAP}' is interpolated and cannot be checked");
    expect(2, 5, 9, "devices", "/dev/fuse", SL_SEVERITY_DEFAULT,
           "devices exposes the host device '/dev/fuse'");
    expect(3, 6, 9, "devices", "/dev/kvm", SL_SEVERITY_DEFAULT,
           "devices exposes the host device '/dev/kvm'");
    expect(4, 8, 9, "devices", "<sequence>", SL_SEVERITY_WARNING,
           "devices entry is a sequence and cannot be checked");
    expect(5, 9, 27, "device_cgroup_rules", "c 10:* rmw", SL_SEVERITY_DEFAULT,
           "device_cgroup_rules allows device access 'c 10:* rmw'");
    /* device_cgroup_rules given as a scalar: the finding points at the key. */
    mock_host_reset();
    check("services:\n  web:\n    device_cgroup_rules: 'c 10:* rmw'\n", 1);
    expect(0, 3, 5, "device_cgroup_rules", "c 10:* rmw", SL_SEVERITY_DEFAULT,
           "device_cgroup_rules allows device access 'c 10:* rmw'");
}

static void test_security_opt(void **state)
{
    (void)state;
    check("services:\n"
          "  web:\n"
          "    security_opt:\n"
          "      - seccomp=unconfined\n"
          "      - no-new-privileges:true\n"
          "      - apparmor:unconfined\n"
          "      - label=type:spc_t\n"
          "      - seccomp=./profile.json\n", 3);
    expect(0, 4, 9, "security_opt", "seccomp=unconfined", SL_SEVERITY_DEFAULT,
           "security_opt 'seccomp=unconfined' removes the seccomp system-call filter");
    expect(1, 6, 9, "security_opt", "apparmor:unconfined", SL_SEVERITY_DEFAULT,
           "security_opt 'apparmor:unconfined' removes AppArmor confinement");
    expect(2, 7, 9, "security_opt", "label=type:spc_t", SL_SEVERITY_DEFAULT,
           "security_opt 'label=type:spc_t' removes SELinux label confinement");
}

/* One setting from three kinds: the rule reads the container model, so a
 * Compose service, an agent-env service and a Kubernetes container that
 * ask for privileged mode get the same finding, each in its own field and
 * service and with its platform's words. */
static void test_privileged_in_every_kind(void **state)
{
    static const struct {
        int kind;
        const char *yaml;
        const char *service;
        const char *field;
        unsigned line, column;
        const char *message;
    } cases[] = {
        { SL_KIND_COMPOSE, "services:\n  web:\n    privileged: true\n", "web", "privileged",
          3, 5, "privileged mode grants every capability, host devices and relaxed "
                "security profiles" },
        { SL_KIND_AGENT_ENV,
          "services:\n  web:\n    image: x\n    securityContext:\n      privileged: true\n",
          "web", "securityContext.privileged", 5, 7,
          "a privileged container gets every capability, the host's devices and no "
          "seccomp or AppArmor confinement" },
        { SL_KIND_KUBERNETES,
          "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
          "    - name: web\n      securityContext:\n        privileged: true\n",
          "Pod/p/web", "securityContext.privileged", 8, 9,
          "a privileged container gets every capability, the host's devices and no "
          "seccomp or AppArmor confinement" },
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        mock_host_reset();
        assert_int_equal(mock_host_check_kind(plugin, "SBX001", cases[i].kind, cases[i].yaml),
                         SL_OK);
        assert_int_equal(mock_host_count(), 1);
        const struct mock_finding *finding = mock_host_finding(0);
        assert_string_equal(finding->service, cases[i].service);
        assert_string_equal(finding->field, cases[i].field);
        assert_null(finding->value);    /* a switch that is on: no value */
        assert_int_equal(finding->severity, SL_SEVERITY_DEFAULT);
        assert_int_equal(finding->line, cases[i].line);
        assert_int_equal(finding->column, cases[i].column);
        assert_string_equal(finding->message, cases[i].message);
    }
}

/* A security option is checked under the setting it names: an interpolated
 * value of no-new-privileges cannot switch a protection off, while an
 * option whose name is interpolated may set any of them. */
static void test_interpolated_security_options(void **state)
{
    (void)state;
    check("services:\n"
          "  web:\n"
          "    security_opt:\n"
          "      - no-new-privileges:${NNP}\n"
          "      - $OPT\n"
          "      - seccomp=${PROFILE}\n"
          "      - foo=${X}\n", 3);
    expect(0, 6, 9, "security_opt", "seccomp=${PROFILE}", SL_SEVERITY_WARNING,
           "security_opt entry 'seccomp=${PROFILE}' is interpolated and cannot be checked");
    expect(1, 5, 9, "security_opt", "$OPT", SL_SEVERITY_WARNING,
           "security_opt entry '$OPT' is interpolated and cannot be checked");
    expect(2, 7, 9, "security_opt", "foo=${X}", SL_SEVERITY_WARNING,
           "security_opt entry 'foo=${X}' is interpolated and cannot be checked");
}

/* A pod's own securityContext is the pod's: reported once, at the pod,
 * not again for each container that inherits it. */
static void test_pod_level_profile_once(void **state)
{
    (void)state;
    assert_int_equal(mock_host_check_kind(plugin, "SBX001", SL_KIND_KUBERNETES,
                                          "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                                          "spec:\n"
                                          "  securityContext:\n"
                                          "    seccompProfile: {type: Unconfined}\n"
                                          "  containers: [{name: a}, {name: b}]\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 1);
    const struct mock_finding *finding = mock_host_finding(0);
    assert_string_equal(finding->service, "Pod/p");
    assert_string_equal(finding->field, "securityContext.seccompProfile.type");
    assert_string_equal(finding->message, "securityContext.seccompProfile.type "
                                          "'Unconfined' removes the seccomp system-call "
                                          "filter");
}

/* Pod Security "restricted" (SPEC §13): NET_BIND_SERVICE added with ALL
 * dropped in the same container is no finding on Kubernetes and agent-env;
 * anything else added beside it still is, and so is NET_BIND_SERVICE
 * without drop ALL, or in Compose (the engine keeps its defaults). */
static void test_restricted_pattern(void **state)
{
    (void)state;
    static const char pod[] =
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
        "    - name: a\n      securityContext:\n"
        "        capabilities: {drop: [ALL], add: [NET_BIND_SERVICE]}\n"
        "    - name: b\n      securityContext:\n"
        "        capabilities: {drop: [all], add: [CAP_NET_BIND_SERVICE, NET_RAW]}\n"
        "    - name: c\n      securityContext:\n"
        "        capabilities: {drop: [NET_RAW], add: [NET_BIND_SERVICE]}\n";
    assert_int_equal(mock_host_check_kind(plugin, "SBX001", SL_KIND_KUBERNETES, pod), SL_OK);
    assert_int_equal(mock_host_count(), 2);
    assert_string_equal(mock_host_finding(0)->service, "Pod/p/b");
    assert_string_equal(mock_host_finding(0)->value, "NET_RAW");
    assert_string_equal(mock_host_finding(1)->service, "Pod/p/c");
    assert_string_equal(mock_host_finding(1)->value, "NET_BIND_SERVICE");
    mock_host_reset();
    assert_int_equal(mock_host_check_kind(plugin, "SBX001", SL_KIND_AGENT_ENV,
                                          "services:\n  web:\n    image: x\n"
                                          "    securityContext:\n      capabilities:\n"
                                          "        drop: [ALL]\n"
                                          "        add: [NET_BIND_SERVICE]\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 0);
    mock_host_reset();
    check("services:\n  web:\n    cap_drop: [ALL]\n    cap_add: [NET_BIND_SERVICE]\n", 1);
}

static void test_long_values_are_quoted_short(void **state)
{
    (void)state;
    char yaml[512];
    char capability[201];
    memset(capability, 'A', 200);
    capability[200] = '\0';
    snprintf(yaml, sizeof(yaml), "services:\n  web:\n    cap_add: [%s]\n", capability);
    check(yaml, 1);
    const struct mock_finding *finding = mock_host_finding(0);
    assert_int_equal(finding->value_length, 200);   /* the key keeps it whole */
    assert_int_equal(strlen(finding->message),
                     strlen("cap_add grants the Linux capability ''") + 160 + 3);
    assert_non_null(strstr(finding->message, "AAA...'"));
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_descriptor),
        T(test_privileged),
        T(test_lists),
        T(test_security_opt),
        T(test_long_values_are_quoted_short),
        T(test_privileged_in_every_kind),
        T(test_interpolated_security_options),
        T(test_pod_level_profile_once),
        T(test_restricted_pattern),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
