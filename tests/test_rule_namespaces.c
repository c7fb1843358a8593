/* SBX002 (plugins/namespaces.c) unit-tested through the mock host, on the
 * container model: the same namespace from every kind. */
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

static void expect(size_t index, const char *service, const char *field, const char *value,
                   int severity, const char *message)
{
    const struct mock_finding *finding = mock_host_finding(index);
    assert_non_null(finding);
    assert_string_equal(finding->rule, "SBX002");
    assert_string_equal(finding->service, service);
    assert_string_equal(finding->field, field);
    if (value == NULL)
        assert_null(finding->value);
    else
        assert_string_equal(finding->value, value);
    assert_int_equal(finding->severity, severity);
    assert_string_equal(finding->message, message);
}

/* The host's network, as each kind writes it: an engine mode (keyed by
 * its value), a pod switch (keyed by the field alone, at the pod), and
 * nothing in agent-env values (the chart has no such field). */
static void test_host_network_in_every_kind(void **state)
{
    (void)state;
    assert_int_equal(mock_host_check_kind(plugin, NULL, SL_KIND_COMPOSE,
                                          "services:\n  web:\n    network_mode: host\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 1);
    expect(0, "web", "network_mode", "host", SL_SEVERITY_DEFAULT,
           "network_mode 'host' shares the host's network stack, including services on "
           "its loopback interface");
    mock_host_reset();
    assert_int_equal(mock_host_check_kind(plugin, NULL, SL_KIND_KUBERNETES,
                                          "apiVersion: apps/v1\nkind: Deployment\n"
                                          "metadata: {name: d}\n"
                                          "spec:\n  template:\n    spec:\n"
                                          "      hostNetwork: true\n"
                                          "      containers: [{name: a}, {name: b}]\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 1);     /* once, for the pod */
    expect(0, "Deployment/d", "hostNetwork", NULL, SL_SEVERITY_DEFAULT,
           "hostNetwork: true shares the host's network stack, including services on its "
           "loopback interface");
    mock_host_reset();
    assert_int_equal(mock_host_check_kind(plugin, NULL, SL_KIND_AGENT_ENV,
                                          "services:\n  web:\n    image: x\n"
                                          "    hostNetwork: true\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 0);
}

static void test_joined_and_templated(void **state)
{
    (void)state;
    assert_int_equal(mock_host_check(plugin, NULL,
                                     "services:\n"
                                     "  web:\n"
                                     "    pid: container:monitor\n"
                                     "    ipc: ${IPC:-private}\n"
                                     "    uts: container:x\n"
                                     "    network_mode: service:db\n"
                                     "  mon:\n"
                                     "    container_name: monitor\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 2);
    expect(0, "web", "pid", "container:monitor", SL_SEVERITY_DEFAULT,
           "pid 'container:monitor' joins the process namespace of the container of "
           "service 'mon' in this file");
    expect(1, "web", "ipc", "${IPC:-private}", SL_SEVERITY_WARNING,
           "ipc '${IPC:-private}' is interpolated and cannot be checked");
    mock_host_reset();
    assert_int_equal(mock_host_check_kind(plugin, NULL, SL_KIND_KUBERNETES,
                                          "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                                          "spec:\n  hostPID: \"{{ .Values.pid }}\"\n"
                                          "  hostUsers: true\n  containers: [{name: a}]\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 2);
    expect(0, "Pod/p", "hostPID", "{{ .Values.pid }}", SL_SEVERITY_WARNING,
           "hostPID is Helm template text '{{ .Values.pid }}' and cannot be checked");
    expect(1, "Pod/p", "hostUsers", NULL, SL_SEVERITY_DEFAULT,
           "hostUsers: true is stated, so the pod runs in the host's user namespace and "
           "container user IDs are host user IDs");
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_host_network_in_every_kind),
        T(test_joined_and_templated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
