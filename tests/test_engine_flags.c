/*
 * Unit tests for the engine flag table (core/kinds/engine_flags.c), from
 * seed 003's hardened argv and its variants, and the whole way from a shell
 * script or a dev container's runArgs to the flags.
 */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_flags.h"
#include "jsonc.h"
#include "shell_program.h"
#include "shell_words.h"

#define MAX_WORDS 64

/* Words from a NULL-terminated list of plain strings; a word starting
 * with '$' (or holding "${") is interpolated from there, and split unless
 * it starts with '"' (which is dropped, as the shell would). */
struct argv {
    struct engine_word words[MAX_WORDS];
    char texts[MAX_WORDS][128];
    size_t count;
};

static void make_argv(struct argv *argv, const char *const *list)
{
    argv->count = 0;
    for (; *list != NULL; list++) {
        struct engine_word *word = &argv->words[argv->count];
        char *text = argv->texts[argv->count];
        const char *source = *list;
        bool quoted = source[0] == '"';
        snprintf(text, sizeof(argv->texts[0]), "%s", source + quoted);
        word->text = text;
        word->length = strlen(text);
        word->flags = 0;
        const char *dollar = strchr(text, '$');
        word->literal_length = dollar != NULL ? (size_t)(dollar - text) : word->length;
        if (dollar != NULL)
            word->flags = ENGINE_WORD_INTERPOLATED | (quoted ? 0 : ENGINE_WORD_SPLIT);
        argv->count++;
    }
}

static struct engine_run run;

static int teardown(void **state)
{
    (void)state;
    engine_run_release(&run);
    return 0;
}

static struct argv argv;

static void parse(const char *const *list)
{
    engine_run_release(&run);
    make_argv(&argv, list);
    engine_run_parse(argv.words, argv.count, &run);
}

#define PARSE(...) do { static const char *const list[] = { __VA_ARGS__, NULL }; \
                        parse(list); } while (0)

/* Setting i is the given meaning with the given value (NULL: none). */
static void expect_setting(size_t i, enum engine_flag_meaning meaning, const char *value)
{
    if (i >= run.count)
        fail_msg("no setting %zu (%zu settings)", i, run.count);
    const struct engine_setting *setting = &run.settings[i];
    if (setting->meaning != meaning)
        fail_msg("setting %zu is %s, expected %s", i, engine_flag_meaning_name(setting->meaning),
                 engine_flag_meaning_name(meaning));
    if (value == NULL) {
        if (setting->value_word != ENGINE_NO_WORD)
            fail_msg("setting %zu (%s) has the value '%.*s'", i,
                     engine_flag_meaning_name(meaning), (int)setting->value_length,
                     setting->value);
        return;
    }
    if (setting->value_word == ENGINE_NO_WORD)
        fail_msg("setting %zu (%s) has no value, expected '%s'", i,
                 engine_flag_meaning_name(meaning), value);
    if (setting->value_length != strlen(value) ||
        memcmp(setting->value, value, setting->value_length) != 0)
        fail_msg("setting %zu (%s): '%.*s', expected '%s'", i, engine_flag_meaning_name(meaning),
                 (int)setting->value_length, setting->value, value);
    /* The value is where the setting says it is. */
    const struct engine_word *word = &argv.words[setting->value_word];
    assert_ptr_equal(setting->value, word->text + setting->value_offset);
}

static void expect_image(const char *image)
{
    if (image == NULL) {
        assert_int_equal(run.image, ENGINE_NO_WORD);
        return;
    }
    if (run.image == ENGINE_NO_WORD)
        fail_msg("no image, expected '%s'", image);
    assert_string_equal(argv.words[run.image].text, image);
}

static size_t count_meaning(enum engine_flag_meaning meaning)
{
    size_t n = 0;
    for (size_t i = 0; i < run.count; i++)
        n += run.settings[i].meaning == meaning;
    return n;
}

static void test_tables(void **state)
{
    (void)state;
    assert_int_equal(engine_flags_check_tables(), 0);
    for (int meaning = 0; meaning < ENGINE_FLAG_MEANING_COUNT; meaning++)
        assert_non_null(engine_flag_meaning_name((enum engine_flag_meaning)meaning));
    assert_string_equal(engine_flag_meaning_name(ENGINE_FLAG_CAP_DROP), "cap-drop");
    assert_string_equal(engine_flag_meaning_name(ENGINE_FLAG_MEANING_COUNT), "unknown");
}

/* Seed 003: a sandbox built as docker run argv, every hardening flag. */
static void test_seed_003_hardened_argv(void **state)
{
    (void)state;
    PARSE("-d", "--rm", "--name", "lev-abc", "--cap-drop", "ALL", "--security-opt",
          "no-new-privileges", "--pids-limit", "512", "--memory", "2g", "--network", "none",
          "-v", "/work:/work", "-v", "/data:/data", "-w", "/work", "ubuntu:24.04", "sleep",
          "infinity");
    expect_setting(0, ENGINE_FLAG_OTHER, NULL);
    assert_string_equal(run.settings[0].name, "detach");
    expect_setting(1, ENGINE_FLAG_OTHER, NULL);
    assert_string_equal(run.settings[1].name, "rm");
    expect_setting(2, ENGINE_FLAG_NAME, "lev-abc");
    expect_setting(3, ENGINE_FLAG_CAP_DROP, "ALL");
    expect_setting(4, ENGINE_FLAG_SECURITY_OPT, "no-new-privileges");
    expect_setting(5, ENGINE_FLAG_PIDS_LIMIT, "512");
    expect_setting(6, ENGINE_FLAG_MEMORY, "2g");
    expect_setting(7, ENGINE_FLAG_NETWORK, "none");
    expect_setting(8, ENGINE_FLAG_VOLUME, "/work:/work");
    expect_setting(9, ENGINE_FLAG_VOLUME, "/data:/data");
    expect_setting(10, ENGINE_FLAG_OTHER, "/work");
    assert_string_equal(run.settings[10].name, "workdir");
    assert_int_equal(run.count, 11);
    expect_image("ubuntu:24.04");
    assert_false(run.image_unsure);
    /* Words and offsets: where a front-end puts its findings. */
    assert_int_equal(run.settings[3].flag_word, 4);
    assert_int_equal(run.settings[3].flag_length, 10);
    assert_int_equal(run.settings[3].value_word, 5);
    assert_int_equal(run.settings[3].value_offset, 0);

    /* The same with the rest of the hardening group, written every way. */
    PARSE("--cap-drop=ALL", "--security-opt=no-new-privileges:true", "--read-only",
          "--pids-limit=100", "-m2g", "--cpus", "1.5", "--user=1000:1000",
          "-p", "127.0.0.1:8080:80", "--network=none", "img");
    expect_setting(0, ENGINE_FLAG_CAP_DROP, "ALL");
    assert_int_equal(run.settings[0].flags, ENGINE_SETTING_EQUALS);
    assert_int_equal(run.settings[0].value_offset, 11);
    expect_setting(1, ENGINE_FLAG_SECURITY_OPT, "no-new-privileges:true");
    expect_setting(2, ENGINE_FLAG_READ_ONLY, NULL);
    assert_int_equal(engine_setting_is_true(&run.settings[2]), 1);
    expect_setting(3, ENGINE_FLAG_PIDS_LIMIT, "100");
    expect_setting(4, ENGINE_FLAG_MEMORY, "2g");
    assert_int_equal(run.settings[4].flags, ENGINE_SETTING_ATTACHED);
    expect_setting(5, ENGINE_FLAG_CPUS, "1.5");
    expect_setting(6, ENGINE_FLAG_USER, "1000:1000");
    expect_setting(7, ENGINE_FLAG_PUBLISH, "127.0.0.1:8080:80");
    expect_setting(8, ENGINE_FLAG_NETWORK, "none");
    expect_image("img");

    /* One flag less: the front-end sees no cap-drop at all. */
    PARSE("-d", "--rm", "--security-opt", "no-new-privileges", "--pids-limit", "512",
          "--memory", "2g", "--network", "none", "ubuntu:24.04");
    assert_int_equal(count_meaning(ENGINE_FLAG_CAP_DROP), 0);
    assert_int_equal(count_meaning(ENGINE_FLAG_SECURITY_OPT), 1);
}

static void test_privileges_and_namespaces(void **state)
{
    (void)state;
    PARSE("--privileged", "--cap-add", "SYS_ADMIN", "--cap-add=NET_ADMIN", "--device",
          "/dev/kvm", "--device-cgroup-rule=c 10:232 rwm", "--security-opt",
          "seccomp=unconfined", "--pid=host", "--net", "host", "--ipc", "host", "--uts=host",
          "--userns", "host", "--cgroupns=host", "--runtime", "runc", "--gpus", "all",
          "--group-add", "docker", "--sysctl", "kernel.x=1", "--volumes-from", "other",
          "--env-file", ".env", "-e", "TOKEN", "--use-api-socket", "--mount",
          "type=bind,src=/,dst=/host", "x");
    static const enum engine_flag_meaning expected[] = {
        ENGINE_FLAG_PRIVILEGED, ENGINE_FLAG_CAP_ADD, ENGINE_FLAG_CAP_ADD, ENGINE_FLAG_DEVICE,
        ENGINE_FLAG_DEVICE_CGROUP_RULE, ENGINE_FLAG_SECURITY_OPT, ENGINE_FLAG_PID,
        ENGINE_FLAG_NETWORK, ENGINE_FLAG_IPC, ENGINE_FLAG_UTS, ENGINE_FLAG_USERNS,
        ENGINE_FLAG_CGROUPNS, ENGINE_FLAG_RUNTIME, ENGINE_FLAG_GPUS, ENGINE_FLAG_GROUP_ADD,
        ENGINE_FLAG_SYSCTL, ENGINE_FLAG_VOLUMES_FROM, ENGINE_FLAG_ENV_FILE, ENGINE_FLAG_ENV,
        ENGINE_FLAG_USE_API_SOCKET, ENGINE_FLAG_MOUNT,
    };
    assert_int_equal(run.count, sizeof(expected) / sizeof(expected[0]));
    for (size_t i = 0; i < run.count; i++)
        assert_int_equal(run.settings[i].meaning, expected[i]);
    expect_setting(4, ENGINE_FLAG_DEVICE_CGROUP_RULE, "c 10:232 rwm");
    expect_setting(7, ENGINE_FLAG_NETWORK, "host");
    assert_string_equal(run.settings[7].name, "net");
    expect_image("x");

    /* podman's own */
    PARSE("--env-host", "--rootfs", "--pod", "p", "--uidmap", "0:1:1", "--hooks-dir", "/h",
          "--secret", "s", "/");
    expect_setting(0, ENGINE_FLAG_ENV_HOST, NULL);
    expect_setting(1, ENGINE_FLAG_ROOTFS, NULL);
    expect_setting(2, ENGINE_FLAG_POD, "p");
    expect_setting(3, ENGINE_FLAG_UIDMAP, "0:1:1");
    expect_setting(4, ENGINE_FLAG_HOOKS_DIR, "/h");
    expect_setting(5, ENGINE_FLAG_SECRET, "s");
    expect_image("/");
}

static void test_short_flags(void **state)
{
    (void)state;
    PARSE("-itv", "/x:/y", "-dit", "-v/a:/b", "-e=A=1", "-p8080:80", "-P", "-u", "0", "-t=false",
          "img");
    expect_setting(0, ENGINE_FLAG_OTHER, NULL);
    assert_string_equal(run.settings[0].name, "interactive");
    expect_setting(1, ENGINE_FLAG_OTHER, NULL);
    assert_string_equal(run.settings[1].name, "tty");
    expect_setting(2, ENGINE_FLAG_VOLUME, "/x:/y");
    assert_int_equal(run.settings[2].flag_word, 0);
    assert_int_equal(run.settings[2].flag_offset, 3);
    assert_int_equal(run.settings[2].value_word, 1);
    assert_string_equal(run.settings[5].name, "tty");
    expect_setting(6, ENGINE_FLAG_VOLUME, "/a:/b");
    assert_int_equal(run.settings[6].value_offset, 2);
    expect_setting(7, ENGINE_FLAG_ENV, "A=1");
    assert_int_equal(run.settings[7].flags, ENGINE_SETTING_EQUALS);
    expect_setting(8, ENGINE_FLAG_PUBLISH, "8080:80");
    expect_setting(9, ENGINE_FLAG_PUBLISH_ALL, NULL);
    expect_setting(10, ENGINE_FLAG_USER, "0");
    expect_setting(11, ENGINE_FLAG_OTHER, "false");
    assert_int_equal(engine_setting_is_true(&run.settings[11]), 0);
    expect_image("img");
}

static void test_booleans(void **state)
{
    (void)state;
    PARSE("--privileged=false", "--read-only=1", "--init=maybe", "--privileged", "img");
    assert_int_equal(engine_setting_is_true(&run.settings[0]), 0);
    assert_int_equal(engine_setting_is_true(&run.settings[1]), 1);
    assert_int_equal(engine_setting_is_true(&run.settings[2]), -1);
    assert_int_equal(engine_setting_is_true(&run.settings[3]), 1);
    /* A boolean never takes the next word: "false" is the image. */
    PARSE("--privileged", "false", "img");
    expect_image("false");
    assert_int_equal(run.count, 1);
}

static void test_image_and_command(void **state)
{
    (void)state;
    PARSE("--rm", "img", "--privileged", "-v", "/:/h");
    expect_image("img");
    assert_int_equal(run.count, 1);     /* the container's command is not read */
    PARSE("--rm", "--", "--privileged");
    expect_image("--privileged");
    PARSE("-", "x");
    expect_image("-");
    PARSE("--rm");
    expect_image(NULL);
    /* A value-taking flag takes the next word whatever it looks like. */
    PARSE("--oom-score-adj", "-500", "--name", "--privileged", "img");
    expect_setting(0, ENGINE_FLAG_OTHER, "-500");
    expect_setting(1, ENGINE_FLAG_NAME, "--privileged");
    expect_image("img");
    PARSE("--privileged", "--name");
    expect_setting(1, ENGINE_FLAG_NAME, NULL);
    assert_true(run.settings[1].flags & ENGINE_SETTING_MISSING_VALUE);
    expect_image(NULL);
}

/* A flag outside the table is reported, and does not hide the flags after
 * it: the next word is taken as its value unless it is a flag itself. */
static void test_unknown_flags(void **state)
{
    (void)state;
    PARSE("--frobnicate", "x", "--privileged", "img");
    expect_setting(0, ENGINE_FLAG_UNKNOWN, "x");
    assert_null(run.settings[0].name);
    assert_true(run.settings[0].flags & ENGINE_SETTING_GUESSED_VALUE);
    assert_int_equal(run.settings[0].flag_length, 12);
    expect_setting(1, ENGINE_FLAG_PRIVILEGED, NULL);
    expect_image("img");
    assert_true(run.image_unsure);
    PARSE("--frobnicate", "--privileged", "img");
    expect_setting(0, ENGINE_FLAG_UNKNOWN, NULL);
    expect_setting(1, ENGINE_FLAG_PRIVILEGED, NULL);
    PARSE("--frobnicate=1", "img");
    expect_setting(0, ENGINE_FLAG_UNKNOWN, "1");
    expect_image("img");
    PARSE("-iX", "--privileged", "img");
    expect_setting(1, ENGINE_FLAG_UNKNOWN, NULL);
    assert_int_equal(run.settings[1].flag_offset, 2);
    expect_setting(2, ENGINE_FLAG_PRIVILEGED, NULL);
    PARSE("-Xyz", "img");
    expect_setting(0, ENGINE_FLAG_UNKNOWN, "yz");
    expect_image("img");
    PARSE("-X", "val", "img");
    expect_setting(0, ENGINE_FLAG_UNKNOWN, "val");
    expect_image("img");
}

static void test_interpolated_words(void **state)
{
    (void)state;
    PARSE("$DOCKER_OPTS", "--cap-add=$CAP", "-v", "\"$PWD:/w", "-v/run/docker.sock:${T}",
          "\"${IMAGE}", "--privileged");
    expect_setting(0, ENGINE_FLAG_INTERPOLATED, NULL);
    assert_true(run.settings[0].flags & ENGINE_SETTING_SPLIT);
    expect_setting(1, ENGINE_FLAG_CAP_ADD, "$CAP");
    assert_true(run.settings[1].flags & ENGINE_SETTING_INTERPOLATED);
    expect_setting(2, ENGINE_FLAG_VOLUME, "$PWD:/w");
    assert_true(run.settings[2].flags & ENGINE_SETTING_INTERPOLATED);
    assert_false(run.settings[2].flags & ENGINE_SETTING_SPLIT);
    expect_setting(3, ENGINE_FLAG_VOLUME, "/run/docker.sock:${T}");
    assert_true(run.settings[3].flags & ENGINE_SETTING_INTERPOLATED);
    expect_image("${IMAGE}");
    assert_true(run.image_unsure);
    /* An interpolated flag name */
    PARSE("--$NAME", "-$X", "img:$TAG");
    expect_setting(0, ENGINE_FLAG_INTERPOLATED, NULL);
    expect_setting(1, ENGINE_FLAG_INTERPOLATED, NULL);
    expect_image("img:$TAG");
    /* "$@" may be anything: no image found after it is still no image. */
    PARSE("--rm", "\"$@");
    expect_setting(1, ENGINE_FLAG_INTERPOLATED, NULL);
    expect_image(NULL);
}

static void expect_call(const char *const *list, enum engine_action action, size_t arguments)
{
    make_argv(&argv, list);
    struct engine_call call;
    if (engine_call_parse(argv.words, argv.count, &call) != action ||
        (action != ENGINE_ACTION_OTHER && call.arguments != arguments))
        fail_msg("'%s...': action %d arguments %zu", list[0], call.action, call.arguments);
}

#define CALL(action, arguments, ...) do { \
        static const char *const list[] = { __VA_ARGS__, NULL }; \
        expect_call(list, action, arguments); } while (0)

static void test_subcommands(void **state)
{
    (void)state;
    CALL(ENGINE_ACTION_RUN, 1, "run", "x");
    CALL(ENGINE_ACTION_CREATE, 1, "create", "x");
    CALL(ENGINE_ACTION_RUN, 2, "container", "run", "x");
    CALL(ENGINE_ACTION_CREATE, 5, "-H", "tcp://h:2375", "--context=c", "container", "create");
    CALL(ENGINE_ACTION_RUN, 5, "--remote", "--log-level", "debug", "-D", "run", "x");
    CALL(ENGINE_ACTION_RUN, 3, "-n", "k8s.io", "run", "x");
    CALL(ENGINE_ACTION_RUN, 2, "--namespace=k8s.io", "run", "x");
    CALL(ENGINE_ACTION_RUN, 2, "-Dlinfo", "run");
    CALL(ENGINE_ACTION_OTHER, 0, "ps", "run");
    /* docker compose run starts a one-off container of a service (0.3). */
    CALL(ENGINE_ACTION_COMPOSE_RUN, 2, "compose", "run", "web");
    CALL(ENGINE_ACTION_COMPOSE_RUN, 6, "compose", "-f", "x.yml", "-p", "p", "run", "web");
    CALL(ENGINE_ACTION_COMPOSE_RUN, 5, "--context", "c", "compose", "--dry-run", "run");
    CALL(ENGINE_ACTION_OTHER, 0, "compose", "up", "-d");
    CALL(ENGINE_ACTION_OTHER, 0, "compose", "exec", "web", "run");
    CALL(ENGINE_ACTION_OTHER, 0, "exec", "--privileged", "c", "sh");
    CALL(ENGINE_ACTION_OTHER, 0, "--version");
    CALL(ENGINE_ACTION_UNKNOWN, 1, "$CMD", "--privileged", "x");
    static const char *const unknown[] = { "--frobnicate", "run", "x", NULL };
    make_argv(&argv, unknown);
    struct engine_call call;
    assert_int_equal(engine_call_parse(argv.words, argv.count, &call), ENGINE_ACTION_RUN);
    assert_int_equal(call.unknown_globals, 1);
    assert_int_equal(call.action_word, 1);
    /* docker-compose and podman-compose: Compose's options, then run. */
    static const char *const compose[] = { "--file", "a.yml", "--profile=x", "run", "web",
                                           NULL };
    make_argv(&argv, compose);
    assert_int_equal(engine_compose_call_parse(argv.words, argv.count, &call),
                     ENGINE_ACTION_COMPOSE_RUN);
    assert_int_equal(call.arguments, 4);
    static const char *const build[] = { "build", "run", NULL };
    make_argv(&argv, build);
    assert_int_equal(engine_compose_call_parse(argv.words, argv.count, &call),
                     ENGINE_ACTION_OTHER);
    /* Its run flags: -T and --service-ports are Compose's, the first other
     * word the service. */
    static const char *const flags[] = { "--rm", "-Tv", "/:/h", "--cap-add", "SYS_ADMIN",
                                         "--service-ports", "-e", "A=1", "web", "-v", NULL };
    engine_run_release(&run);
    make_argv(&argv, flags);
    engine_compose_run_parse(argv.words, argv.count, &run);
    expect_setting(0, ENGINE_FLAG_OTHER, NULL);
    expect_setting(1, ENGINE_FLAG_OTHER, NULL);
    expect_setting(2, ENGINE_FLAG_VOLUME, "/:/h");
    expect_setting(3, ENGINE_FLAG_CAP_ADD, "SYS_ADMIN");
    expect_setting(4, ENGINE_FLAG_OTHER, NULL);
    expect_setting(5, ENGINE_FLAG_ENV, "A=1");
    assert_int_equal(run.count, 6);
    expect_image("web");
}

/* ---- --mount ------------------------------------------------------------- */

static struct engine_mount mount;
static char mount_buffer[256];

static void parse_mount(const char *value)
{
    engine_mount_parse(value, strlen(value), mount_buffer, &mount);
}

static void expect_field(const struct engine_mount_field *field, const char *text)
{
    if (text == NULL) {
        assert_null(field->text);
        return;
    }
    assert_non_null(field->text);
    if (field->length != strlen(text) || memcmp(field->text, text, field->length) != 0)
        fail_msg("field '%.*s', expected '%s'", (int)field->length, field->text, text);
}

static void test_mounts(void **state)
{
    (void)state;
    parse_mount("type=bind,source=/,target=/host");
    expect_field(&mount.type, "bind");
    assert_true(mount.type_given);
    expect_field(&mount.source, "/");
    assert_int_equal(mount.source.offset, 17);
    expect_field(&mount.target, "/host");
    assert_int_equal(mount.readonly, 0);
    assert_false(mount.malformed);

    parse_mount("src=/var/run/docker.sock,dst=/s,readonly");
    expect_field(&mount.type, "volume");
    assert_false(mount.type_given);
    expect_field(&mount.source, "/var/run/docker.sock");
    expect_field(&mount.target, "/s");
    assert_int_equal(mount.readonly, 1);
    parse_mount("TYPE=bind,Source=/a,destination=/b,ro=true");
    expect_field(&mount.type, "bind");
    expect_field(&mount.source, "/a");
    expect_field(&mount.target, "/b");
    assert_int_equal(mount.readonly, 1);
    parse_mount("type=bind,src=/a,dst=/b,ro=false,bind-propagation=rshared");
    assert_int_equal(mount.readonly, 0);
    assert_true(mount.bind_propagation_shared);
    parse_mount("type=bind,src=/a,dst=/b,readonly=maybe");
    assert_int_equal(mount.readonly, -1);
    /* docker's CSV: a quoted field may hold commas and "" */
    parse_mount("\"source=/a,b\"\"c\",target=/c,type=bind");
    expect_field(&mount.source, "/a,b\"c");
    expect_field(&mount.target, "/c");
    assert_false(mount.malformed);
    parse_mount("type=bind,src=/a,dst=/b,frobnicate=1");
    assert_int_equal(mount.unknown_keys, 1);
    assert_false(mount.malformed);
    parse_mount("type=bind,src=/a,dst=/b,z,U,relabel=shared");
    assert_int_equal(mount.unknown_keys, 0);
    assert_false(mount.malformed);
    /* volume-opt=KEY=VALUE: the local driver's options, the later wins */
    parse_mount("src=x,dst=/y,volume-opt=type=none,volume-opt=o=rbind,"
                "volume-opt=device=/a,volume-opt=device=/etc,volume-driver=local");
    expect_field(&mount.volume_type, "none");
    expect_field(&mount.volume_o, "rbind");
    expect_field(&mount.volume_device, "/etc");
    assert_int_equal(mount.volume_device.offset, 92);
    expect_field(&mount.volume_driver, "local");
    assert_false(mount.malformed);
    parse_mount("src=x,dst=/y,volume-opt=nothing");
    assert_true(mount.malformed);
    assert_null(mount.volume_o.text);
    /* what docker refuses */
    static const char *const refused[] = {
        "", "type=bind,", "type=bind,,src=/a", "source=\"/a\"", "nonsense,src=/a",
        "=x,src=/a", "\"src=/a", "\"src=/a\"x",
    };
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        parse_mount(refused[i]);
        if (!mount.malformed)
            fail_msg("'%s' was not malformed", refused[i]);
    }
}

/* ---- the whole way ------------------------------------------------------ */

struct found {
    size_t engines;
    struct engine_run run;
    char texts[MAX_WORDS][128];
    struct engine_word words[MAX_WORDS];
    size_t count;
};

/* What a front-end does with every command of a script (the texts are
 * copied: the shell words live only during the callback). */
static int read_engine_command(void *data, const struct shell_command *command)
{
    struct found *found = data;
    struct shell_program program;
    if (shell_find_program(command, &program) != SHELL_PROGRAM_ENGINE)
        return 0;
    found->count = command->word_count - program.program - 1;
    assert_true(found->count <= MAX_WORDS);
    engine_words_from_shell(command->words + program.program + 1, found->count, found->words);
    for (size_t i = 0; i < found->count; i++) {
        snprintf(found->texts[i], sizeof(found->texts[0]), "%s", found->words[i].text);
        found->words[i].text = found->texts[i];
    }
    struct engine_call call;
    if (engine_call_parse(found->words, found->count, &call) != ENGINE_ACTION_RUN)
        return 0;
    found->engines++;
    engine_run_release(&found->run);
    engine_run_parse(found->words + call.arguments, found->count - call.arguments, &found->run);
    return 0;
}

static void test_from_a_script(void **state)
{
    (void)state;
    static struct found found;
    memset(&found, 0, sizeof(found));
    const char *script = "#!/bin/sh\n"
                         "set -e\n"
                         "sudo -E docker -H unix:///run/d.sock container run --rm \\\n"
                         "    -itv \"$PWD\":/w --cap-add=SYS_PTRACE \\\n"
                         "    --security-opt seccomp=unconfined \"${IMAGE}\" bash -l\n";
    struct shell_result result;
    assert_int_equal(shell_split(script, strlen(script), SHELL_DIALECT_SCRIPT, NULL,
                                 read_engine_command, &found, &result), 0);
    shell_result_release(&result);
    assert_int_equal(found.engines, 1);
    struct engine_run *found_run = &found.run;
    assert_int_equal(found_run->count, 6);
    assert_int_equal(found_run->settings[3].meaning, ENGINE_FLAG_VOLUME);
    assert_true(found_run->settings[3].flags & ENGINE_SETTING_INTERPOLATED);
    assert_int_equal(found_run->settings[4].meaning, ENGINE_FLAG_CAP_ADD);
    assert_int_equal(found_run->settings[5].meaning, ENGINE_FLAG_SECURITY_OPT);
    assert_int_not_equal(found_run->image, ENGINE_NO_WORD);
    engine_run_release(&found.run);
}

/* A dev container's runArgs: JSON strings, no image among them. */
static void test_from_run_args(void **state)
{
    (void)state;
    const char *json = "{ \"runArgs\": [\"-v\", \"/var/run/docker.sock:/var/run/docker.sock\",\n"
                       "  \"--cap-add=SYS_PTRACE\", \"--security-opt\", \"seccomp=unconfined\",\n"
                       "  \"--device=/dev/kvm\", // kvm for the emulator\n"
                       "] }";
    struct yaml_model model;
    assert_int_equal(jsonc_parse(&model, json, strlen(json), NULL, NULL), MODEL_OK);
    const struct sl_node *args = model_mapping_get(model.documents[0], "runArgs", 7, NULL);
    assert_non_null(args);
    struct engine_word words[8];
    size_t count = args->u.sequence.count;
    for (size_t i = 0; i < count; i++) {
        words[i].text = args->u.sequence.items[i]->u.scalar.text;
        words[i].length = args->u.sequence.items[i]->u.scalar.length;
        words[i].literal_length = words[i].length;
        words[i].flags = 0;
    }
    engine_run_release(&run);
    engine_run_parse(words, count, &run);
    assert_int_equal(run.count, 4);
    assert_int_equal(run.settings[0].meaning, ENGINE_FLAG_VOLUME);
    assert_int_equal(run.settings[1].meaning, ENGINE_FLAG_CAP_ADD);
    assert_int_equal(run.settings[2].meaning, ENGINE_FLAG_SECURITY_OPT);
    assert_int_equal(run.settings[3].meaning, ENGINE_FLAG_DEVICE);
    assert_int_equal(run.image, ENGINE_NO_WORD);
    /* The node of a setting's value word has the JSON's position. */
    const struct sl_node *node = args->u.sequence.items[run.settings[2].value_word];
    assert_int_equal(node->line, 2);
    assert_int_equal(node->column, 45);
    model_release(&model);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_tables, teardown),
        cmocka_unit_test_teardown(test_seed_003_hardened_argv, teardown),
        cmocka_unit_test_teardown(test_privileges_and_namespaces, teardown),
        cmocka_unit_test_teardown(test_short_flags, teardown),
        cmocka_unit_test_teardown(test_booleans, teardown),
        cmocka_unit_test_teardown(test_image_and_command, teardown),
        cmocka_unit_test_teardown(test_unknown_flags, teardown),
        cmocka_unit_test_teardown(test_interpolated_words, teardown),
        cmocka_unit_test_teardown(test_subcommands, teardown),
        cmocka_unit_test_teardown(test_mounts, teardown),
        cmocka_unit_test_teardown(test_from_a_script, teardown),
        cmocka_unit_test_teardown(test_from_run_args, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
