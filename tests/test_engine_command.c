/*
 * Unit tests for an engine command line as a container of the model
 * (core/kinds/engine_command.c): what each flag fills, in both views, the
 * way the engine reads repeated flags, and the problems that must not
 * pass in silence.
 */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "container_model.h"
#include "engine_command.h"

#define MAX_WORDS 32

static struct model_group group;
static struct model_scope *scope;
static const struct engine_command *command;

/* The container of words (a NULL-terminated list; a word holding '$' is
 * interpolated from there), word i written at line 1, column 10 * i + 1. */
static void make_command(const char *const *list)
{
    struct engine_word words[MAX_WORDS];
    struct sl_span spans[MAX_WORDS];
    size_t count = 0;
    for (; *list != NULL && count < MAX_WORDS; list++, count++) {
        memset(&words[count], 0, sizeof(words[count]));
        words[count].text = *list;
        words[count].length = strlen(*list);
        const char *dollar = strchr(*list, '$');
        words[count].literal_length = dollar ? (size_t)(dollar - *list) : words[count].length;
        words[count].flags = dollar ? ENGINE_WORD_INTERPOLATED : 0;
        spans[count] = (struct sl_span){ 1, (unsigned)(10 * count + 1), 1,
                                         (unsigned)(10 * count + 1 + strlen(*list)) };
    }
    model_group_init(&group);
    command = engine_command_new(&group, words, spans, count);
    struct sl_span at = { 1, 1, 1, 7 };
    scope = engine_command_scope(&group, command, "run1", 4,
                                 model_node_scalar(&group.arena, "docker", 6, SL_STYLE_PLAIN, &at),
                                 SL_KIND_SHELL);
}

static int teardown(void **state)
{
    (void)state;
    model_group_release(&group);
    return 0;
}

static const struct model_setting *setting(int view, int id)
{
    return model_scope_setting(scope, view, id);
}

static void test_privileged_last_wins(void **state)
{
    (void)state;
    make_command((const char *const[]){ "--privileged", "--privileged=false", "alpine", NULL });
    const struct model_setting *privileged = setting(SL_VIEW_EFFECTIVE, SL_SETTING_PRIVILEGED);
    assert_int_equal(privileged->setting.state, SL_SETTING_SET);
    assert_int_equal(privileged->setting.count, 1);
    assert_int_equal(privileged->values[0].meaning, 0);
    assert_string_equal(privileged->setting.field, "--privileged");
    assert_int_equal(privileged->values[0].key->column, 11);
}

static void test_capabilities_split_at_commas(void **state)
{
    (void)state;
    make_command((const char *const[]){ "--cap-add=NET_ADMIN,,cap_sys_admin,", "--cap-drop", "ALL",
                                        "alpine", NULL });
    const struct model_setting *add = setting(SL_VIEW_WRITTEN, SL_SETTING_CAP_ADD);
    assert_int_equal(add->setting.count, 2);
    assert_string_equal(add->values[0].parsed, "NET_ADMIN");
    assert_string_equal(add->values[1].parsed, "SYS_ADMIN");
    const struct model_setting *drop = setting(SL_VIEW_EFFECTIVE, SL_SETTING_CAP_DROP);
    assert_int_equal(drop->setting.count, 1);
    assert_string_equal(drop->values[0].parsed, "ALL");
}

static void test_security_options(void **state)
{
    (void)state;
    make_command((const char *const[]){ "--security-opt", "seccomp=unconfined",
                                        "--security-opt", "seccomp=/p.json",
                                        "--security-opt", "no-new-privileges:false",
                                        "--security-opt", "no-new-privileges", "alpine", NULL });
    /* Written: both seccomp options; effective: the later one. */
    assert_int_equal(setting(SL_VIEW_WRITTEN, SL_SETTING_SECCOMP)->setting.count, 2);
    const struct model_setting *seccomp = setting(SL_VIEW_EFFECTIVE, SL_SETTING_SECCOMP);
    assert_int_equal(seccomp->setting.count, 1);
    assert_int_equal(seccomp->values[0].meaning, SL_CONFINEMENT_CUSTOM);
    const struct model_setting *nnp = setting(SL_VIEW_EFFECTIVE, SL_SETTING_NO_NEW_PRIVILEGES);
    assert_int_equal(nnp->setting.count, 1);
    assert_int_equal(nnp->values[0].meaning, 1);
    assert_string_equal(nnp->setting.hint, "add '--security-opt no-new-privileges'");
}

static void test_limits_user_ports(void **state)
{
    (void)state;
    make_command((const char *const[]){ "--pids-limit", "-1", "-m", "2g", "--cpus", "1.5", "-u",
                                        "0:0", "-p", "8080:80", "-p", "127.0.0.1:9090:90",
                                        "alpine", NULL });
    assert_int_equal(setting(SL_VIEW_EFFECTIVE, SL_SETTING_PIDS_LIMIT)->values[0].meaning,
                     SL_LIMIT_NONE);
    const struct model_setting *memory = setting(SL_VIEW_EFFECTIVE, SL_SETTING_MEMORY_LIMIT);
    assert_int_equal(memory->values[0].meaning, SL_LIMIT_SET);
    assert_true(memory->values[0].number == 2.0 * 1024 * 1024 * 1024);
    assert_true(setting(SL_VIEW_EFFECTIVE, SL_SETTING_CPU_LIMIT)->values[0].number == 1.5);
    assert_int_equal(setting(SL_VIEW_EFFECTIVE, SL_SETTING_USER)->values[0].meaning,
                     SL_USER_ROOT);
    const struct model_setting *ports = setting(SL_VIEW_WRITTEN, SL_SETTING_PORTS);
    assert_int_equal(ports->setting.count, 2);
    assert_int_equal(ports->values[0].meaning, SL_PORT_EVERY_INTERFACE);
    assert_int_equal(ports->values[1].meaning, SL_PORT_ONE_ADDRESS);
}

static void test_absent_and_unsupported(void **state)
{
    (void)state;
    make_command((const char *const[]){ "alpine", "--privileged", NULL });
    /* After the image: the container's own arguments, never flags. */
    assert_int_equal(setting(SL_VIEW_EFFECTIVE, SL_SETTING_PRIVILEGED)->setting.state,
                     SL_SETTING_ABSENT);
    const struct model_setting *drop = setting(SL_VIEW_EFFECTIVE, SL_SETTING_CAP_DROP);
    assert_int_equal(drop->setting.state, SL_SETTING_ABSENT);
    assert_string_equal(drop->setting.hint,
                        "add '--cap-drop ALL' and --cap-add only what the sandbox needs");
    assert_int_equal(setting(SL_VIEW_EFFECTIVE, SL_SETTING_RUN_AS_NON_ROOT)->setting.state,
                     SL_SETTING_UNSUPPORTED);
    assert_int_equal(setting(SL_VIEW_EFFECTIVE, SL_SETTING_SERVICE_ACCOUNT_TOKEN)->setting.state,
                     SL_SETTING_UNSUPPORTED);
}

static void test_interpolated_values_and_flags(void **state)
{
    (void)state;
    make_command((const char *const[]){ "--network", "$NET", "$OPTS", "--frobnicate", "x",
                                        "--name", "$NAME", "alpine", NULL });
    const struct model_setting *network = setting(SL_VIEW_EFFECTIVE, SL_SETTING_NETWORK_NAMESPACE);
    assert_int_equal(network->values[0].state, SL_VALUE_TEMPLATED);
    assert_int_equal(network->values[0].template_syntax, SL_TEMPLATE_INTERPOLATION);
    /* $OPTS may hold flags, --frobnicate is no engine's: both said. */
    assert_int_equal(engine_command_problem_count(command), 2);
    const struct sl_node *node;
    assert_non_null(strstr(engine_command_problem(command, 0, &node), "'$OPTS' may hold"));
    assert_non_null(strstr(engine_command_problem(command, 1, &node), "--frobnicate"));
    size_t length;
    assert_null(engine_command_name(command, &length));
}

static int count_mount(struct sl_context *ctx, const struct sl_mount *mount, void *data)
{
    (void)ctx;
    size_t *seen = data;
    if (seen[0] == 0)
        assert_string_equal(mount->field, "--volume");
    if (mount->kind == SL_MOUNT_HOST_PATH)
        seen[1]++;
    if (mount->kind == SL_MOUNT_INTERPOLATED)
        seen[2]++;
    seen[0]++;
    return SL_OK;
}

static void test_mounts(void **state)
{
    (void)state;
    make_command((const char *const[]){ "-v", "/etc:/e", "--mount",
                                        "type=bind,src=/var/run/docker.sock,dst=/s,readonly",
                                        "-v", "$(pwd):/src", "-v", "named:/data",
                                        "--volumes-from", "other", "alpine", NULL });
    size_t seen[3] = { 0, 0, 0 };
    const char *problem;
    assert_int_equal(engine_command_mounts(command, NULL, sizeof(struct sl_mount), count_mount,
                                           seen, &problem),
                     SL_OK);
    assert_int_equal(seen[1], 2);   /* /etc, the socket */
    assert_int_equal(seen[2], 1);   /* $(pwd): a shell expansion Compose does not know */
    assert_true(seen[0] >= 4);      /* and the container of --volumes-from */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_privileged_last_wins, teardown),
        cmocka_unit_test_teardown(test_capabilities_split_at_commas, teardown),
        cmocka_unit_test_teardown(test_security_options, teardown),
        cmocka_unit_test_teardown(test_limits_user_ports, teardown),
        cmocka_unit_test_teardown(test_absent_and_unsupported, teardown),
        cmocka_unit_test_teardown(test_interpolated_values_and_flags, teardown),
        cmocka_unit_test_teardown(test_mounts, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
