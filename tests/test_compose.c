/* Unit tests for the Compose helpers (core/kinds/compose.c): SPEC §7. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "compose.h"
#include "compose_syntax.h"
#include "sandlint/plugin.h"
#include "yaml_model.h"

static void test_truthy_strings(void **state)
{
    (void)state;
    static const char *const yes[] = { "true", "TRUE", "True", "y", "Y", "yes",
                                       "YES", "Yes", "on", "ON", "On", "tRuE" };
    static const char *const no[] = { "false", "no", "off", "n", "1", "0", "",
                                      "truee", "yes ", " on", "enabled" };
    for (size_t i = 0; i < sizeof(yes) / sizeof(*yes); i++)
        assert_true(compose_text_truthy(yes[i], strlen(yes[i])));
    for (size_t i = 0; i < sizeof(no) / sizeof(*no); i++)
        assert_false(compose_text_truthy(no[i], strlen(no[i])));
}

static void test_truthy_nodes(void **state)
{
    (void)state;
    struct yaml_model model;
    const char *text = "a: true\nb: \"yes\"\nc: 'ON'\nd: [true]\ne:\nf: false\n";
    assert_int_equal(model_parse(&model, text, strlen(text), NULL), MODEL_OK);
    const struct sl_node *root = model.documents[0];
    assert_true(compose_node_truthy(model_mapping_get(root, "a", 1, NULL)));
    assert_true(compose_node_truthy(model_mapping_get(root, "b", 1, NULL)));
    assert_true(compose_node_truthy(model_mapping_get(root, "c", 1, NULL)));
    assert_false(compose_node_truthy(model_mapping_get(root, "d", 1, NULL)));
    assert_false(compose_node_truthy(model_mapping_get(root, "e", 1, NULL)));
    assert_false(compose_node_truthy(model_mapping_get(root, "f", 1, NULL)));
    assert_false(compose_node_truthy(NULL));
    assert_true(compose_node_empty(model_mapping_get(root, "e", 1, NULL)));
    assert_true(compose_node_empty(NULL));
    assert_false(compose_node_empty(model_mapping_get(root, "d", 1, NULL)));
    model_release(&model);
}

static int interpolated(const char *text)
{
    return compose_has_interpolation(text, strlen(text));
}

static void test_interpolation(void **state)
{
    (void)state;
    assert_true(interpolated("${CAP}"));
    assert_true(interpolated("$CAP"));
    assert_true(interpolated("$_x"));
    assert_true(interpolated("a${B:-c}d"));
    assert_true(interpolated("$$ and $X"));
    assert_true(interpolated("${unterminated"));
    assert_false(interpolated("$$"));
    assert_false(interpolated("$${NOT}"));
    assert_false(interpolated("$$NOT"));
    assert_false(interpolated("price: 5$"));
    assert_false(interpolated("$1"));
    assert_false(interpolated("plain"));
    assert_false(interpolated(""));
    assert_false(compose_has_interpolation(NULL, 0));
}

static int classify(const char *source)
{
    return compose_classify_source(source, strlen(source));
}

static void test_classify_source(void **state)
{
    (void)state;
    static const char *const host[] = {
        ".", "..", "/", "/srv/data", "./data", "../data", ".\\data",
        "..\\data", "~", "~/x", "\\\\.\\pipe\\docker_engine", "C:\\data",
        "c:/data", "${HOME}/.ssh", "$PWD/src", "data/sub", "a\\b",
        "/srv/${X}", "${A}${B}/c",
    };
    static const char *const names[] = { "data", "my-volume", "db_data",
                                         ".hidden", "C:", "vol.1" };
    static const char *const interpolated_only[] = {
        "${DATA}", "$DATA", "${HOST:-/srv}", "${A}${B}", "pre${X}", "${X:-a/b}",
    };
    for (size_t i = 0; i < sizeof(host) / sizeof(*host); i++)
        assert_int_equal(classify(host[i]), SL_SOURCE_HOST_PATH);
    for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
        assert_int_equal(classify(names[i]), SL_SOURCE_VOLUME_NAME);
    for (size_t i = 0; i < sizeof(interpolated_only) / sizeof(*interpolated_only); i++)
        assert_int_equal(classify(interpolated_only[i]), SL_SOURCE_INTERPOLATED);
    assert_int_equal(classify(""), SL_SOURCE_NONE);
}

struct volume_case {
    const char *item;
    int kind;
    const char *source;     /* NULL: none */
    const char *target;
    const char *mode;       /* NULL: none */
};

static void assert_part(const char *want, const char *got, size_t length)
{
    if (want == NULL) {
        assert_null(got);
        return;
    }
    assert_non_null(got);
    char buffer[256];
    snprintf(buffer, sizeof(buffer), "%.*s", (int)length, got);
    assert_string_equal(buffer, want);
}

static void test_parse_volume(void **state)
{
    (void)state;
    static const struct volume_case cases[] = {
        { "/data", SL_SOURCE_NONE, NULL, "/data", NULL },
        { "/cache:ro", SL_SOURCE_NONE, NULL, "/cache", "ro" },
        { "/cache:ro,z", SL_SOURCE_NONE, NULL, "/cache", "ro,z" },
        { "data:/data", SL_SOURCE_VOLUME_NAME, "data", "/data", NULL },
        { "data:/data:ro", SL_SOURCE_VOLUME_NAME, "data", "/data", "ro" },
        { "./src:/src:rw", SL_SOURCE_HOST_PATH, "./src", "/src", "rw" },
        { "/var/run/docker.sock:/var/run/docker.sock", SL_SOURCE_HOST_PATH,
          "/var/run/docker.sock", "/var/run/docker.sock", NULL },
        { "C:\\data:/data", SL_SOURCE_HOST_PATH, "C:\\data", "/data", NULL },
        { "C:/data:C:/in:ro", SL_SOURCE_HOST_PATH, "C:/data", "C:/in", "ro" },
        { "${DATA}:/data", SL_SOURCE_INTERPOLATED, "${DATA}", "/data", NULL },
        { "${HOST:-/srv}:/srv", SL_SOURCE_INTERPOLATED, "${HOST:-/srv}", "/srv", NULL },
        { "${HOME}/.ssh:/x", SL_SOURCE_HOST_PATH, "${HOME}/.ssh", "/x", NULL },
        { "data:${DIR:-/x}", SL_SOURCE_VOLUME_NAME, "data", "${DIR:-/x}", NULL },
        { "data:$DIR:ro", SL_SOURCE_VOLUME_NAME, "data", "$DIR", "ro" },
        { "~/.aws:/root/.aws:ro", SL_SOURCE_HOST_PATH, "~/.aws", "/root/.aws", "ro" },
        { ".:/app", SL_SOURCE_HOST_PATH, ".", "/app", NULL },
        { "..:/app", SL_SOURCE_HOST_PATH, "..", "/app", NULL },
        { "data:.app", SL_SOURCE_VOLUME_NAME, "data", ".app", NULL },
        { "data/sub:/x", SL_SOURCE_HOST_PATH, "data/sub", "/x", NULL },
        { "\\\\.\\pipe\\docker_engine:\\\\.\\pipe\\docker_engine",
          SL_SOURCE_HOST_PATH, "\\\\.\\pipe\\docker_engine",
          "\\\\.\\pipe\\docker_engine", NULL },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        const struct volume_case *c = &cases[i];
        struct sl_volume volume = { sizeof(volume), 0, NULL, 0, NULL, 0, NULL, 0 };
        assert_int_equal(compose_parse_volume(c->item, strlen(c->item), &volume), SL_OK);
        assert_int_equal(volume.source_kind, c->kind);
        assert_part(c->source, volume.source, volume.source_length);
        assert_part(c->target, volume.target, volume.target_length);
        assert_part(c->mode, volume.mode, volume.mode_length);
    }
}

static void test_parse_volume_refuses_small_struct(void **state)
{
    (void)state;
    struct sl_volume volume = { 4, 0, NULL, 0, NULL, 0, NULL, 0 };
    assert_int_equal(compose_parse_volume("a:/b", 4, &volume), SL_ERROR);
    assert_int_equal(compose_parse_volume("a:/b", 4, NULL), SL_ERROR);
}

static void test_parse_volume_larger_struct(void **state)
{
    (void)state;
    /* A plugin built for a newer minor ABI passes a larger struct: the host
     * fills what it knows and leaves the rest alone. */
    struct newer {
        struct sl_volume base;
        int future_field;
    } volume;
    memset(&volume, 0, sizeof(volume));
    volume.base.struct_size = sizeof(volume);
    volume.future_field = 42;
    assert_int_equal(compose_parse_volume("./a:/b", 6, &volume.base), SL_OK);
    assert_int_equal(volume.base.source_kind, SL_SOURCE_HOST_PATH);
    assert_int_equal(volume.base.struct_size, sizeof(volume));
    assert_int_equal(volume.future_field, 42);
}

static int socket(const char *source, const char *target)
{
    return compose_is_engine_socket(source, source ? strlen(source) : 0,
                                    target, target ? strlen(target) : 0);
}

static void test_engine_sockets(void **state)
{
    (void)state;
    assert_true(socket("/var/run/docker.sock", "/var/run/docker.sock"));
    assert_true(socket("/home/u/.docker/run/docker.sock", "/x"));
    assert_true(socket("./innocent", "/var/run/docker.sock"));
    assert_true(socket("\\\\.\\pipe\\docker_engine", NULL));
    assert_true(socket("/run/podman/podman.sock", "/p"));
    assert_true(socket("/run/containerd/containerd.sock", "/c"));
    assert_true(socket("/var/run/crio/crio.sock", "/c"));
    assert_true(socket("/var/run/cri-dockerd.sock", "/c"));
    assert_true(socket("/run/buildkit/buildkitd.sock", "/b"));
    assert_true(socket("/", "/host"));
    assert_true(socket("/run", "/run"));
    assert_true(socket("/run/", "/run"));
    assert_true(socket("/var", "/v"));
    assert_true(socket("/var/run/", "/v"));
    assert_true(socket("//", "/h"));
    assert_false(socket("/var/lib", "/v"));
    assert_false(socket("/running", "/r"));
    assert_false(socket("/srv/data", "/data"));
    assert_false(socket(NULL, NULL));
}

/* The directories that hold the engines' sockets (SPEC §13), not the
 * engine's data nor what merely looks like them. */
static void test_engine_socket_directories(void **state)
{
    (void)state;
    static const char *const directories[] = {
        "/var/run/docker", "/run/docker", "/run/containerd", "/var/run/containerd",
        "/run/podman", "/run/buildkit", "/run/crio", "/run/k3s/containerd",
        "/run/user", "/run/user/1000", "/run/user/0/", "/run/containerd/",
    };
    for (size_t i = 0; i < sizeof(directories) / sizeof(*directories); i++)
        assert_true(socket(directories[i], "/x"));
    assert_false(socket("/var/lib/docker", "/x"));
    assert_false(socket("/run/user/1000x", "/x"));
    assert_true(socket("/run/user/", "/x"));     /* a trailing / does not matter */
    assert_false(socket("/run/users", "/x"));
    assert_false(socket("/run/containerd/config.toml", "/x"));
    assert_false(socket("/srv/run/containerd", "/x"));
}

static const char *port_problem(const char *text)
{
    return compose_port_problem(text, strlen(text));
}

/* Ports the engine accepts, and those it rejects (SPEC §13). */
static void test_port_problem(void **state)
{
    (void)state;
    static const char *const valid[] = {
        "80", "8080:80", "127.0.0.1:8080:80", "127.0.0.1::80", "[::1]:8082:80",
        "::1:8083:80", ":::8444:443", "1000-1030:1000-1030", "6060:6060/udp",
        "22:22/tcp", "9:9/sctp", "${PORT:-8080}:80", "${IP}:8081:80", "${WEB}",
        "8085:${TARGET}", "0.0.0.0:443:443",
    };
    for (size_t i = 0; i < sizeof(valid) / sizeof(*valid); i++)
        assert_null(port_problem(valid[i]));
    assert_non_null(port_problem("abc:def:ghi:jkl"));
    assert_non_null(port_problem("localhost:8080:80"));
    assert_non_null(port_problem("300.1.1.1:8080:80"));
    assert_non_null(port_problem("8080:80/http"));
    assert_non_null(port_problem("99999:80"));
    assert_non_null(port_problem("8080:"));
    assert_non_null(port_problem(""));
    assert_true(compose_published_valid("8080", 4));
    assert_true(compose_published_valid("8080-8090", 9));
    assert_true(compose_published_valid("${P}", 4));
    assert_false(compose_published_valid("127.0.0.1:8080", 14));
    assert_false(compose_published_valid("http", 4));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truthy_strings),
        cmocka_unit_test(test_truthy_nodes),
        cmocka_unit_test(test_interpolation),
        cmocka_unit_test(test_classify_source),
        cmocka_unit_test(test_parse_volume),
        cmocka_unit_test(test_parse_volume_refuses_small_struct),
        cmocka_unit_test(test_parse_volume_larger_struct),
        cmocka_unit_test(test_engine_sockets),
        cmocka_unit_test(test_engine_socket_directories),
        cmocka_unit_test(test_port_problem),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
