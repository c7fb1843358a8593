/* SBX003 (plugins/mounts.c) and the host mounts service it stands on,
 * unit-tested through the mock host: the plugin's source is built into this
 * test, and a rule of the test's own walks the same mounts, as an in-house
 * rule would. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "mock_host.h"
#include "sandlint/rule.h"

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

static void expect(size_t index, unsigned line, const char *field, const char *value,
                   int severity, const char *message)
{
    const struct mock_finding *finding = mock_host_finding(index);
    assert_non_null(finding);
    assert_string_equal(finding->rule, "SBX003");
    assert_int_equal(finding->line, line);
    assert_string_equal(finding->field, field);
    assert_string_equal(finding->value, value);
    assert_int_equal(finding->severity, severity);
    assert_string_equal(finding->message, message);
}

static const char compose[] =
    "services:\n"
    "  web:\n"
    "    volumes:\n"
    "      - ./src:/src:ro\n"                                   /* 4 */
    "      - /var/run/docker.sock:/var/run/docker.sock\n"       /* 5: SBX006's */
    "      - data:/data\n"                                      /* 6 */
    "      - cache:/cache\n"                                    /* 7: a plain volume */
    "      - ${DATA}:/data2\n"                                  /* 8 */
    "      - type: bind\n"                                      /* 9 */
    "        target: /x\n"
    "        read_only: true\n"
    "      - type: ${TYPE}\n"                                   /* 12 */
    "        source: ./y\n"
    "        target: /y\n"
    "      - source: ~/.ssh\n"                                  /* 15 */
    "        target: /root/.ssh\n"
    "      - [nested]\n"                                        /* 17 */
    "      - /anonymous\n"                                      /* 18 */
    "      - type: tmpfs\n"                                     /* 19 */
    "        target: /tmp\n"
    "    volumes_from:\n"
    "      - container:builder:ro\n"                            /* 22 */
    "      - db\n"                                              /* 23 */
    "      - ${FROM}\n"                                         /* 24 */
    "volumes:\n"
    "  data:\n"
    "    driver_opts: {type: none, o: 'rbind,ro', device: /srv/data}\n"
    "  cache: {}\n";

static void test_sbx003_reports(void **state)
{
    (void)state;
    assert_int_equal(mock_host_check(plugin, "SBX003", compose), SL_OK);
    assert_int_equal(mock_host_count(), 9);
    expect(0, 4, "volumes", "./src", SL_SEVERITY_DEFAULT,
           "bind-mounts host path './src'");
    expect(1, 6, "volumes", "/srv/data", SL_SEVERITY_DEFAULT,
           "bind-mounts host path '/srv/data' through named volume 'data' "
           "(driver_opts.o rbind)");
    expect(2, 8, "volumes", "${DATA}:/data2", SL_SEVERITY_WARNING,
           "volumes source '${DATA}' is interpolated and cannot be checked");
    expect(3, 9, "volumes", "<unspecified>", SL_SEVERITY_DEFAULT,
           "bind-mounts host path '<unspecified>' (long syntax, type bind)");
    expect(4, 12, "volumes", "./y", SL_SEVERITY_WARNING,
           "volumes type '${TYPE}' is interpolated and cannot be checked");
    expect(5, 15, "volumes", "~/.ssh", SL_SEVERITY_DEFAULT,
           "bind-mounts host path '~/.ssh' (long syntax without type, read as bind), "
           "a host system directory");
    expect(6, 17, "volumes", "<sequence>", SL_SEVERITY_WARNING,
           "volumes entry is a sequence and cannot be checked");
    expect(7, 22, "volumes_from", "container:builder:ro", SL_SEVERITY_DEFAULT,
           "volumes_from 'container:builder:ro' imports the mounts of a container "
           "outside this Compose file");
    expect(8, 24, "volumes_from", "${FROM}", SL_SEVERITY_WARNING,
           "volumes_from entry '${FROM}' is interpolated and cannot be checked");
}

/* ------------------------------------------------------------------ */
/* the host mounts service, as an in-house rule sees it                */
/* ------------------------------------------------------------------ */

static char facts[32][1024];
static size_t fact_count;

static const char *text(const char *value, size_t length, char *buffer, size_t size)
{
    if (value == NULL)
        return "-";
    snprintf(buffer, size, "%.*s", (int)length, value);
    return buffer;
}

/* One line per mount: kind syntax flags line field value source target mode
 * type volume bind part interpolated. */
static int record(struct sl_context *ctx, const struct sl_mount *mount, void *data)
{
    char value[64], source[64], target[64], mode[64], type[64], volume[64], part[64];
    struct sl_span span;
    (void)ctx;
    (void)data;
    assert_true(mount->struct_size >= sizeof(struct sl_mount));
    sl_node_span(mount->node, &span);
    if (fact_count < 32)
        snprintf(facts[fact_count++], sizeof(facts[0]),
                 "%d %d %u %u %s %s %s %s %s %s %s %s %d %s", mount->kind,
                 mount->syntax, mount->flags, span.line, mount->field,
                 text(mount->value, mount->value_length, value, sizeof(value)),
                 text(mount->source, mount->source_length, source, sizeof(source)),
                 text(mount->target, mount->target_length, target, sizeof(target)),
                 text(mount->mode, mount->mode_length, mode, sizeof(mode)),
                 text(mount->type, mount->type_length, type, sizeof(type)),
                 text(mount->volume, mount->volume_length, volume, sizeof(volume)),
                 mount->bind_option != NULL ? mount->bind_option : "-", mount->part,
                 text(mount->interpolated, mount->interpolated_length, part,
                      sizeof(part)));
    return SL_OK;
}

static int walk(struct sl_context *ctx, const char *service,
                const struct sl_node *key, const struct sl_node *settings)
{
    (void)service;
    (void)key;
    return sl_host_mounts(ctx, settings, record, NULL);
}

static const struct sl_rule walk_rule = {
    SL_RULE_INIT, "MNT001", "mount-walk", "test", NULL, "walks mounts", NULL, NULL,
    NULL, NULL, NULL, 0, NULL, walk, NULL, 0, 0.0, 0, NULL, NULL, NULL,
};
static const struct sl_rule *const walk_rules[] = { &walk_rule, NULL };
static const struct sl_plugin walk_plugin = {
    SL_PLUGIN_INIT, "mount_walk", "1", NULL, walk_rules,
};

static void test_host_mounts_facts(void **state)
{
    (void)state;
    fact_count = 0;
    assert_int_equal(mock_host_check(&walk_plugin, NULL, compose), SL_OK);
    static const char *const expected[] = {
        "1 1 2 4 volumes ./src ./src /src ro - - - 0 -",
        ("1 1 9 5 volumes /var/run/docker.sock /var/run/docker.sock "
         "/var/run/docker.sock - - - - 0 -"),
        "1 1 0 6 volumes /srv/data /srv/data /data - - data rbind 0 -",
        "3 1 0 8 volumes ${DATA}:/data2 ${DATA} /data2 - - - - 2 ${DATA}",
        "1 2 2 9 volumes <unspecified> - /x - bind - - 0 -",
        "3 2 0 12 volumes ./y - /y - ${TYPE} - - 3 ${TYPE}",
        "1 2 24 15 volumes ~/.ssh ~/.ssh /root/.ssh - - - - 0 -",
        "4 1 0 17 volumes <sequence> - - - - - - 0 -",
        "2 3 2 22 volumes_from container:builder:ro builder - ro - - - 0 -",
        "3 3 0 24 volumes_from ${FROM} - - - - - - 1 ${FROM}",
    };
    size_t count = sizeof(expected) / sizeof(expected[0]);
    for (size_t i = 0; i < count && i < fact_count; i++)
        assert_string_equal(facts[i], expected[i]);
    assert_int_equal(fact_count, count);
}

static void test_host_mounts_more_cases(void **state)
{
    (void)state;
    fact_count = 0;
    assert_int_equal(mock_host_check(&walk_plugin, NULL,
        "services:\n"
        "  web:\n"
        "    volumes: ${HOME}/.aws:/root/.aws\n"           /* a scalar for the list */
        "    volumes_from: [{x: y}]\n"
        "  db:\n"
        "    volumes:\n"
        "      - ${SPEC}\n"
        "      - vol:/v\n"
        "      - type: volume\n"
        "        source: ${NAME}\n"
        "        target: /n\n"
        "volumes:\n"
        "  vol:\n"
        "    driver: ${DRIVER}\n"
        "    driver_opts: {o: bind, device: /host}\n"), SL_OK);
    static const char *const expected[] = {
        "1 1 28 3 volumes ${HOME}/.aws ${HOME}/.aws /root/.aws - - - - 0 -",
        "4 3 0 4 volumes_from <mapping> - - - - - - 0 -",
        "3 1 0 7 volumes ${SPEC} - ${SPEC} - - - - 1 ${SPEC}",
        "3 1 0 8 volumes /host /host /v - - vol - 4 ${DRIVER}",
        "3 2 0 9 volumes ${NAME} - /n - volume - - 2 ${NAME}",
    };
    size_t count = sizeof(expected) / sizeof(expected[0]);
    for (size_t i = 0; i < count && i < fact_count; i++)
        assert_string_equal(facts[i], expected[i]);
    assert_int_equal(fact_count, count);
}

/* Since 1.1 (0.2): where a host path lies, and the host paths a named
 * volume's own driver may bind-mount. */
static void test_host_mounts_places_and_drivers(void **state)
{
    (void)state;
    fact_count = 0;
    assert_int_equal(mock_host_check(&walk_plugin, NULL,
        "services:\n"
        "  web:\n"
        "    volumes:\n"
        "      - /etc:/e\n"                                 /* 4: is one */
        "      - /etc/ssl/certs:/c:ro\n"                    /* 5: under one */
        "      - /srv/../proc/1:/p\n"                       /* 6: normalised */
        "      - /home/alice/project:/w\n"                  /* 7: ordinary */
        "      - ./a/../../b:/b\n"                          /* 8: climbs out */
        "      - ./a/../b:/b2\n"                            /* 9: stays */
        "      - type: bind\n"                              /* 10 */
        "        source: ~/.kube/config\n"
        "        target: /k\n"
        "      - persist:/data\n"                           /* 13 */
        "      - local_bound:/lb\n"                         /* 14 */
        "volumes:\n"
        "  persist:\n"
        "    driver: local-persist\n"
        "    driver_opts:\n"
        "      mountpoint: /etc/persist\n"
        "      device: relative/not/absolute\n"
        "      path: /srv/data\n"
        "      path: /srv/later\n"                          /* the later wins */
        "      other: /not/a/path/option\n"
        "  local_bound:\n"
        "    driver_opts: {o: bind, device: ../up}\n"), SL_OK);
    static const char *const expected[] = {
        "1 1 24 4 volumes /etc /etc /e - - - - 0 -",
        "1 1 10 5 volumes /etc/ssl/certs /etc/ssl/certs /c ro - - - 0 -",
        "1 1 8 6 volumes /srv/../proc/1 /srv/../proc/1 /p - - - - 0 -",
        "1 1 0 7 volumes /home/alice/project /home/alice/project /w - - - - 0 -",
        "1 1 32 8 volumes ./a/../../b ./a/../../b /b - - - - 0 -",
        "1 1 0 9 volumes ./a/../b ./a/../b /b2 - - - - 0 -",
        "1 2 8 10 volumes ~/.kube/config ~/.kube/config /k - bind - - 0 -",
        "5 1 8 13 volumes /etc/persist /etc/persist /data - - persist - 0 -",
        "5 1 0 13 volumes /srv/later /srv/later /data - - persist - 0 -",
        "1 1 32 14 volumes ../up ../up /lb - - local_bound bind 0 -",
    };
    size_t count = sizeof(expected) / sizeof(expected[0]);
    for (size_t i = 0; i < count && i < fact_count; i++)
        assert_string_equal(facts[i], expected[i]);
    assert_int_equal(fact_count, count);
}

/* What SBX003 says about those places (the scores are checked through the
 * SARIF report in tests/hardening.sh). */
static void test_sbx003_places(void **state)
{
    (void)state;
    assert_int_equal(mock_host_check(plugin, "SBX003",
        "services:\n"
        "  web:\n"
        "    volumes:\n"
        "      - /etc:/e\n"
        "      - /etc/ssl:/s:ro\n"
        "      - ../up:/u\n"
        "      - vol:/v\n"
        "volumes:\n"
        "  vol:\n"
        "    driver: local-persist\n"
        "    driver_opts: {mountpoint: /root/data}\n"), SL_OK);
    assert_int_equal(mock_host_count(), 4);
    expect(0, 4, "volumes", "/etc", SL_SEVERITY_DEFAULT,
           "bind-mounts host path '/etc', a host system directory");
    expect(1, 5, "volumes", "/etc/ssl", SL_SEVERITY_DEFAULT,
           "bind-mounts host path '/etc/ssl', inside a host system directory");
    expect(2, 6, "volumes", "../up", SL_SEVERITY_DEFAULT,
           "bind-mounts host path '../up', which climbs out of the Compose file's "
           "directory");
    expect(3, 7, "volumes", "/root/data", SL_SEVERITY_WARNING,
           "named volume 'vol' uses driver 'local-persist', which may bind-mount "
           "host path '/root/data', inside a host system directory");
}

/* A visitor that stops the walk makes host_mounts fail. */
static int stop(struct sl_context *ctx, const struct sl_mount *mount, void *data)
{
    (void)mount;
    ++*(int *)data;
    sl_set_error(ctx, "stopped");
    return SL_ERROR;
}

static int walk_and_stop(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *settings)
{
    static int calls;
    (void)service;
    (void)key;
    calls = 0;
    int status = sl_host_mounts(ctx, settings, stop, &calls);
    return calls == 1 ? status : SL_OK;
}

static void test_host_mounts_stops(void **state)
{
    (void)state;
    static const struct sl_rule rule = {
        SL_RULE_INIT, "MNT002", "mount-stop", "test", NULL, "stops", NULL, NULL,
        NULL, NULL, NULL, 0, NULL, walk_and_stop, NULL, 0, 0.0, 0, NULL, NULL, NULL,
    };
    static const struct sl_rule *const rules[] = { &rule, NULL };
    static const struct sl_plugin stopper = { SL_PLUGIN_INIT, "stop", "1", NULL, rules };
    assert_int_equal(mock_host_check(&stopper, NULL,
                                     "services:\n  web:\n    volumes: [./a:/a, ./b:/b]\n"),
                     SL_ERROR);
    assert_string_equal(mock_host_error(), "stopped");
}

/* The size handshake: a caller's struct smaller than 1.1's is refused; a
 * larger one (a later version's) gets zeros past what the host fills. */
struct future_mount {
    struct sl_mount base;
    const char *added_later;
};

static int future_visit(struct sl_context *ctx, const struct sl_mount *mount, void *data)
{
    (void)ctx;
    const struct future_mount *future = (const struct future_mount *)mount;
    *(int *)data = future->added_later == NULL && mount->kind == SL_MOUNT_HOST_PATH;
    return SL_OK;
}

static int sized_walk(struct sl_context *ctx, const char *service,
                      const struct sl_node *key, const struct sl_node *settings)
{
    int zero = 0;
    (void)service;
    (void)key;
    if (sandlint_host->host_mounts(ctx, settings, sizeof(size_t), future_visit,
                                   &zero) != SL_ERROR)
        return SL_OK;
    if (sandlint_host->host_mounts(ctx, settings, sizeof(struct future_mount),
                                   future_visit, &zero) != SL_OK || !zero)
        return SL_OK;
    return sl_reportf(ctx, key, "sized", NULL, 0, 0, "size handshake works");
}

static void test_host_mounts_size_handshake(void **state)
{
    (void)state;
    static const struct sl_rule rule = {
        SL_RULE_INIT, "MNT003", "mount-sized", "test", NULL, "sizes", NULL, NULL,
        NULL, NULL, NULL, 0, NULL, sized_walk, NULL, 0, 0.0, 0, NULL, NULL, NULL,
    };
    static const struct sl_rule *const rules[] = { &rule, NULL };
    static const struct sl_plugin sized = { SL_PLUGIN_INIT, "sized", "1", NULL, rules };
    assert_int_equal(mock_host_check(&sized, NULL, "services:\n  web:\n    volumes: [./a:/a]\n"),
                     SL_OK);
    assert_int_equal(mock_host_count(), 1);
    assert_string_equal(mock_host_finding(0)->message, "size handshake works");
}

/* The same host path from three kinds: a Compose bind mount, an agent-env
 * service's hostPath volume and a pod's: one finding each, keyed alike
 * (service:volumes:PATH), at the scope that writes it. */
static void test_host_path_in_every_kind(void **state)
{
    static const struct {
        int kind;
        const char *yaml;
        const char *service;
        const char *message;
    } cases[] = {
        { SL_KIND_COMPOSE, "services:\n  web:\n    volumes: [/etc:/host-etc:ro]\n", "web",
          "bind-mounts host path '/etc', a host system directory" },
        { SL_KIND_AGENT_ENV,
          "services:\n  web:\n    image: x\n    volumes:\n"
          "      - {name: etc, hostPath: {path: /etc}}\n",
          "web", "bind-mounts host path '/etc' (hostPath volume), a host system directory" },
        { SL_KIND_KUBERNETES,
          "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n"
          "  containers: [{name: a}, {name: b}]\n"
          "  volumes: [{name: etc, hostPath: {path: /etc}}]\n",
          "Pod/web", "bind-mounts host path '/etc' (hostPath volume), a host system "
                     "directory" },
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        mock_host_reset();
        assert_int_equal(mock_host_check_kind(plugin, "SBX003", cases[i].kind, cases[i].yaml),
                         SL_OK);
        assert_int_equal(mock_host_count(), 1);
        const struct mock_finding *finding = mock_host_finding(0);
        assert_string_equal(finding->service, cases[i].service);
        assert_string_equal(finding->field, "volumes");
        assert_string_equal(finding->value, "/etc");
        assert_int_equal(finding->severity, SL_SEVERITY_DEFAULT);
        assert_string_equal(finding->message, cases[i].message);
    }
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_sbx003_reports),
        T(test_host_mounts_facts),
        T(test_host_mounts_more_cases),
        T(test_host_mounts_places_and_drivers),
        T(test_sbx003_places),
        T(test_host_mounts_stops),
        T(test_host_mounts_size_handshake),
        T(test_host_path_in_every_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
