/* SBX006 (plugins/engine_sockets.c) unit-tested through the mock host, on
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

/* The engine's socket from three kinds: one finding each, at the scope
 * that mounts it, with SBX003's key. */
static void test_socket_in_every_kind(void **state)
{
    static const struct {
        int kind;
        const char *yaml;
        const char *service;
        const char *message;
    } cases[] = {
        { SL_KIND_COMPOSE,
          "services:\n  web:\n    volumes: [/var/run/docker.sock:/var/run/docker.sock]\n",
          "web", "bind-mounts host path '/var/run/docker.sock', which exposes a container "
                 "engine API socket" },
        { SL_KIND_AGENT_ENV,
          "services:\n  web:\n    image: x\n    volumes:\n"
          "      - {name: s, hostPath: {path: /var/run/docker.sock}}\n",
          "web", "bind-mounts host path '/var/run/docker.sock' (hostPath volume), which "
                 "exposes a container engine API socket" },
        { SL_KIND_KUBERNETES,
          "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template:\n"
          "    spec:\n      containers: [{name: a}]\n"
          "      volumes: [{name: s, hostPath: {path: /var/run/docker.sock}}]\n",
          "Job/j", "bind-mounts host path '/var/run/docker.sock' (hostPath volume), which "
                   "exposes a container engine API socket" },
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        mock_host_reset();
        assert_int_equal(mock_host_check_kind(plugin, "SBX006", cases[i].kind, cases[i].yaml),
                         SL_OK);
        assert_int_equal(mock_host_count(), 1);
        const struct mock_finding *finding = mock_host_finding(0);
        assert_string_equal(finding->service, cases[i].service);
        assert_string_equal(finding->field, "volumes");
        assert_string_equal(finding->value, "/var/run/docker.sock");
        assert_string_equal(finding->message, cases[i].message);
    }
}

/* use_api_socket is an engine setting: on, interpolated, or not there. */
static void test_api_socket(void **state)
{
    (void)state;
    assert_int_equal(mock_host_check(plugin, NULL,
                                     "services:\n  a:\n    use_api_socket: yes\n"
                                     "  b:\n    use_api_socket: ${SOCKET}\n"
                                     "  c:\n    use_api_socket: false\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 2);
    assert_string_equal(mock_host_finding(0)->service, "a");
    assert_null(mock_host_finding(0)->value);
    assert_string_equal(mock_host_finding(0)->message,
                        "use_api_socket exposes the container engine API socket and the "
                        "user's registry credentials");
    assert_string_equal(mock_host_finding(1)->value, "${SOCKET}");
    assert_int_equal(mock_host_finding(1)->severity, SL_SEVERITY_WARNING);
    assert_string_equal(mock_host_finding(1)->message,
                        "use_api_socket is set by interpolation '${SOCKET}' and cannot be "
                        "checked");
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_socket_in_every_kind),
        T(test_api_socket),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
