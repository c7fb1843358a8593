/* SBX007 (plugins/runtime_class.c) unit-tested through the mock host, on
 * the container model. */
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

/* The class each agent-env pod writes; the chart's default is fine. */
static void test_agent_env_classes(void **state)
{
    (void)state;
    assert_int_equal(mock_host_check_kind(plugin, NULL, SL_KIND_AGENT_ENV,
                                          "services:\n"
                                          "  a: {image: x}\n"
                                          "  b: {image: x, runtimeClassName: gvisor}\n"
                                          "  c: {image: x, runtimeClassName: ''}\n"
                                          "  d: {image: x, runtimeClassName: runc}\n"
                                          "  e: {image: x, runtimeClassName: CLUSTER_DEFAULT}\n"
                                          "  f: {image: x, runtimeClassName: '{{ .rc }}'}\n"
                                          "  g: {image: x, runtimeClassName: [runc]}\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 4);
    assert_string_equal(mock_host_finding(0)->service, "d");
    assert_string_equal(mock_host_finding(0)->message,
                        "runtimeClassName 'runc' runs the service without gVisor's kernel "
                        "sandbox");
    assert_string_equal(mock_host_finding(1)->message,
                        "runtimeClassName 'CLUSTER_DEFAULT' runs the service under the "
                        "cluster's default runtime, without gVisor's kernel sandbox");
    assert_string_equal(mock_host_finding(2)->message,
                        "runtimeClassName is Helm template text '{{ .rc }}' and cannot be "
                        "checked");
    assert_string_equal(mock_host_finding(3)->value, "<sequence>");
    assert_string_equal(mock_host_finding(3)->message,
                        "runtimeClassName is a sequence and cannot be checked");
}

/* A cluster's classes cannot be known from a file: Kubernetes objects are
 * not this rule's kind. */
static void test_kubernetes_not_checked(void **state)
{
    (void)state;
    assert_int_equal(mock_host_check_kind(plugin, NULL, SL_KIND_KUBERNETES,
                                          "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                                          "spec:\n  runtimeClassName: runc\n"
                                          "  containers: [{name: a}]\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 0);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_agent_env_classes),
        T(test_kubernetes_not_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
