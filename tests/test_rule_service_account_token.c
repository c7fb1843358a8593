/* SBX008 (plugins/service_account_token.c) unit-tested through the mock
 * host, on the container model: the token where each scope writes it. */
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

/* automountServiceAccountToken: true, written for every pod of a values
 * file, for one pod, and for the pods of a ServiceAccount: one finding
 * each, at its scope, naming whom the token reaches. */
static void test_token_in_every_scope(void **state)
{
    (void)state;
    assert_int_equal(mock_host_check_kind(plugin, NULL, SL_KIND_AGENT_ENV,
                                          "automountServiceAccountToken: true\n"
                                          "serviceAccountName: default\n"
                                          "services:\n  web: {image: x}\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 2);
    assert_null(mock_host_finding(0)->service);     /* a document-level key */
    assert_string_equal(mock_host_finding(0)->message,
                        "automountServiceAccountToken: true mounts a Kubernetes API token "
                        "into every sandbox pod");
    /* No default to compare with in a file's project-wide values. */
    assert_string_equal(mock_host_finding(1)->value, "default");
    mock_host_reset();
    assert_int_equal(mock_host_check_kind(plugin, NULL, SL_KIND_KUBERNETES,
                                          "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                                          "spec:\n  automountServiceAccountToken: yes\n"
                                          "  serviceAccountName: default\n"
                                          "  serviceAccount: builder\n"
                                          "  containers: [{name: a}, {name: b}]\n"
                                          "---\n"
                                          "apiVersion: v1\nkind: ServiceAccount\n"
                                          "metadata: {generateName: ci-}\n"
                                          "automountServiceAccountToken: true\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 3);
    assert_string_equal(mock_host_finding(0)->service, "Pod/p");
    assert_string_equal(mock_host_finding(0)->message,
                        "automountServiceAccountToken: true mounts a Kubernetes API token "
                        "into every container of the pod");
    assert_string_equal(mock_host_finding(1)->field, "serviceAccount");
    assert_string_equal(mock_host_finding(1)->message,
                        "serviceAccount 'builder' names a service account whose rights "
                        "cannot be checked here");
    assert_int_equal(mock_host_finding(1)->severity, SL_SEVERITY_WARNING);
    /* A ServiceAccount is named as the host names every object. */
    assert_string_equal(mock_host_finding(2)->service, "ServiceAccount/ci-");
    assert_string_equal(mock_host_finding(2)->message,
                        "automountServiceAccountToken: true mounts a Kubernetes API token "
                        "into every pod that uses the account and does not opt out");
}

static void test_templated_and_compose(void **state)
{
    (void)state;
    assert_int_equal(mock_host_check_kind(plugin, NULL, SL_KIND_AGENT_ENV,
                                          "automountServiceAccountToken: '{{ .t }}'\n"
                                          "serviceAccountName: [a]\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 2);
    assert_string_equal(mock_host_finding(0)->message,
                        "automountServiceAccountToken is Helm template text '{{ .t }}' and "
                        "cannot be checked");
    assert_string_equal(mock_host_finding(1)->message,
                        "serviceAccountName is a sequence and cannot be checked");
    mock_host_reset();
    /* Compose has no such setting: nothing. */
    assert_int_equal(mock_host_check(plugin, NULL, "services:\n  web:\n"
                                                   "    automountServiceAccountToken: true\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 0);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_token_in_every_scope),
        T(test_templated_and_compose),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
