/* The container model as the front-ends fill it in core/kinds/:
 * what each scope of a Compose, agent-env or Kubernetes document holds,
 * in the written and the effective view. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "container_model.h"
#include "front_ends.h"
#include "jsonc.h"
#include "text_buffer.h"
#include "yaml_model.h"

/* The settings a test looks at, and how it names them. */
static const struct {
    int id;
    const char *name;
} names[] = {
    { SL_SETTING_PRIVILEGED, "privileged" }, { SL_SETTING_CAP_DROP, "cap_drop" },
    { SL_SETTING_SECCOMP, "seccomp" }, { SL_SETTING_NO_NEW_PRIVILEGES, "nnp" },
    { SL_SETTING_READ_ONLY_ROOT, "read_only" }, { SL_SETTING_USER, "user" },
    { SL_SETTING_RUN_AS_NON_ROOT, "non_root" }, { SL_SETTING_PIDS_LIMIT, "pids" },
    { SL_SETTING_MEMORY_LIMIT, "memory" }, { SL_SETTING_NETWORK_NAMESPACE, "network" },
    { SL_SETTING_RUNTIME, "runtime" }, { SL_SETTING_SERVICE_ACCOUNT_TOKEN, "token" },
    { SL_SETTING_MOUNTS, "mounts" }, { SL_SETTING_PORTS, "ports" },
    { SL_SETTING_CAP_ADD, "cap_add" }, { SL_SETTING_SELINUX, "selinux" },
    { SL_SETTING_GPUS, "gpus" }, { SL_SETTING_BUILD_ENTITLEMENTS, "entitlements" },
    { SL_SETTING_CPU_LIMIT, "cpu" },
};

static const char *const states[] = { "absent", "set", "default", "unseen", "unsupported",
                                      "unmodelled" };
static const char *const value_states[] = { "?", "", "templated ", "uncheckable " };
static const char *const origins[] = { "?", "own", "parent", "base", "default" };

/* Every step, and for each scope every setting above in both views, as
 * lines of text:
 *   scope 4 Pod/p/c1 (container)
 *     E user: set [0 meaning=1 own 8:21]
 */
static struct text_buffer seen = TEXT_BUFFER_INIT;

static void say(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *format, ...)
{
    char line[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(line, sizeof(line), format, args);
    va_end(args);
    text_buffer_add_string(&seen, line);
}

static void describe_setting(struct model_scope *scope, int view, size_t n)
{
    const struct model_setting *setting = model_scope_setting(scope, view, names[n].id);
    say("  %c %s: %s", view == SL_VIEW_WRITTEN ? 'W' : 'E',
                       names[n].name, states[setting->setting.state]);
    if (setting->setting.unseen != NULL)
        say(" (%s)", setting->setting.unseen);
    for (size_t i = 0; i < setting->setting.count; i++) {
        const struct sl_value *value = &setting->values[i];
        say(" [%s%.*s meaning=%d %s %u:%u", value_states[value->state],
                           (int)value->text_length, value->text, value->meaning,
                           origins[value->origin], value->key ? value->key->line : 0,
                           value->key ? value->key->column : 0);
        if (value->number != 0)
            say(" number=%.0f", value->number);
        say("]");
    }
    say("\n");
}

static void take(struct model_sink *sink, const struct model_step *step)
{
    (void)sink;
    static const char *const types[] = { "document", "service", "scope", "warning",
                                         "not checked" };
    say("%s", types[step->type]);
    if (step->type == MODEL_STEP_SERVICE)
        say(" %s", step->name);
    if (step->message != NULL)
        say(" %s", step->message);
    if (step->type != MODEL_STEP_SCOPE) {
        say("\n");
        return;
    }
    const struct sl_scope *scope = &step->scope->public;
    say(" %d %s (%s)%s\n", scope->level,
                       scope->service ? scope->service : "-", scope->noun,
                       scope->parent != NULL ? " with parent" : "");
    for (size_t n = 0; n < sizeof(names) / sizeof(*names); n++) {
        describe_setting(step->scope, SL_VIEW_WRITTEN, n);
        describe_setting(step->scope, SL_VIEW_EFFECTIVE, n);
    }
}

/* Reads yaml as kind into `seen`. */
static void read_as(int kind, const char *yaml)
{
    struct yaml_model model;
    struct model_sink sink = { take };
    struct model_file_state file;
    memset(&file, 0, sizeof(file));
    text_buffer_release(&seen);
    assert_int_equal(model_parse(&model, yaml, strlen(yaml), NULL), MODEL_OK);
    for (size_t d = 0; d < model.document_count; d++) {
        struct model_reading reading = { &sink, &file, model.documents[d] };
        front_ends_read(&reading, kind, model.documents[d]);
    }
    model_file_state_release(&file);
    model_release(&model);
}

/* Reads json (a dev container file, or an rCDS challenge.json) as kind. */
static void read_json_as(int kind, const char *json)
{
    struct yaml_model model;
    struct model_sink sink = { take };
    struct model_file_state file;
    memset(&file, 0, sizeof(file));
    text_buffer_release(&seen);
    assert_int_equal(jsonc_parse(&model, json, strlen(json), NULL, NULL), MODEL_OK);
    struct model_reading reading = { &sink, &file, model.documents[0] };
    front_ends_read(&reading, kind, model.documents[0]);
    model_file_state_release(&file);
    model_release(&model);
}

/* `seen` holds line (a whole line, after leading blanks). */
static void has(const char *line)
{
    const char *text = seen.bytes != NULL ? seen.bytes : "";
    size_t length = strlen(line);
    for (const char *at = text; (at = strstr(at, line)) != NULL; at++) {
        const char *start = at;
        while (start > text && start[-1] == ' ')
            start--;
        if ((start == text || start[-1] == '\n') && at[length] == '\n')
            return;
    }
    fprintf(stderr, "missing line: %s\nin:\n%s", line, text);
    fail();
}

static void test_compose_merges_as_compose_does(void **state)
{
    (void)state;
    read_as(SL_KIND_COMPOSE,
            "x-hardening: &hardening\n"                     /* 1 */
            "  cap_drop: [ALL]\n"
            "  read_only: true\n"
            "services:\n"
            "  base:\n"                                     /* 5 */
            "    user: app\n"
            "    cap_drop: [NET_RAW]\n"
            "    security_opt: [no-new-privileges:false]\n"
            "    pids_limit: 100\n"
            "  web:\n"                                      /* 10 */
            "    <<: *hardening\n"
            "    extends: base\n"
            "    read_only: !reset true\n"
            "    security_opt: [seccomp=unconfined]\n"
            "    mem_limit: 2g\n"                           /* 15 */
            "  outside:\n"
            "    extends: {file: base.yml, service: x}\n"
            "    cap_drop: !override [CAP_net_admin]\n");
    has("document");
    has("service web");
    has("scope 4 web (service)");
    /* The merge key's list is the service's own, at the anchor; the base's
     * list is merged after it. */
    has("W cap_drop: set [ALL meaning=0 own 2:14]");
    has("E cap_drop: set [ALL meaning=0 own 2:14] [NET_RAW meaning=0 base 7:16]");
    /* !reset: as written it is true; Compose removes it. */
    has("W read_only: set [true meaning=1 own 13:5]");
    has("E read_only: absent");
    /* What the base sets comes with it. */
    has("W user: absent");
    has("E user: set [app meaning=2 base 6:5]");
    has("E pids: set [100 meaning=1 base 9:5 number=100]");
    has("E memory: set [2g meaning=1 own 15:5 number=2147483648]");
    /* no-new-privileges: the web's security_opt lacks it, the base's says
     * false. */
    has("W nnp: absent");
    has("E nnp: set [no-new-privileges:false meaning=0 base 8:20]");
    has("W seccomp: set [seccomp=unconfined meaning=3 own 14:20]");
    /* A base in another file may set what the service lacks. */
    has("scope 4 outside (service)");
    has("E read_only: unseen (base.yml)");
    has("E cap_drop: set [CAP_net_admin meaning=0 own 18:26]");
    has("E runtime: unseen (base.yml)");
    has("W non_root: unsupported");
}

static void test_pod_inheritance(void **state)
{
    (void)state;
    read_as(SL_KIND_KUBERNETES,
            "apiVersion: v1\n"
            "kind: Pod\n"
            "metadata: {name: p}\n"
            "spec:\n"
            "  hostNetwork: true\n"                         /* 5 */
            "  securityContext:\n"
            "    runAsNonRoot: true\n"
            "    runAsUser: 1000\n"
            "    seccompProfile: {type: RuntimeDefault}\n"
            "  containers:\n"                               /* 10 */
            "    - name: c1\n"
            "      securityContext:\n"
            "        runAsUser: 0\n"
            "        seccompProfile: {type: Unconfined}\n"
            "    - name: c2\n"                              /* 15 */
            "      resources: {limits: {cpu: 1}}\n"
            "  volumes:\n"
            "    - name: root\n"
            "      hostPath: {path: /}\n");
    has("service Pod/p");
    has("scope 3 Pod/p (pod)");
    /* The pod's own settings, once, at the pod. */
    has("W network: set [true meaning=1 own 5:3]");
    has("W user: set [1000 meaning=2 own 8:5]");
    has("W mounts: set [/ meaning=1 own 19:24]");
    has("scope 4 Pod/p/c1 (container) with parent");
    has("scope 4 Pod/p/c2 (container) with parent");
    /* A container's own field wins; the pod's is inherited. */
    has("W user: set [0 meaning=1 own 13:9]");
    has("E user: set [1000 meaning=2 parent 8:5]");
    has("W seccomp: set [Unconfined meaning=3 own 14:26]");
    has("E seccomp: set [RuntimeDefault meaning=1 parent 9:22]");
    has("E non_root: set [true meaning=1 parent 7:5]");
    /* Pod switches: written at the pod only, effective in containers. */
    has("W network: unsupported");
    has("E network: set [true meaning=1 parent 5:3]");
    has("E memory: absent");
    has("W pids: unsupported");
}

static void test_agent_env_defaults(void **state)
{
    (void)state;
    read_as(SL_KIND_AGENT_ENV,
            "automountServiceAccountToken: true\n"
            "services:\n"
            "  default:\n"
            "    image: python:3.12\n"
            "    initContainers:\n"
            "      - name: setup\n"
            "        image: busybox\n"
            "        resources: {limits: {cpu: 1}}\n"
            "  runc:\n"
            "    image: x\n"
            "    runtimeClassName: runc\n");
    has("scope 1 - (sandbox)");
    has("W token: set [true meaning=1 own 1:1]");
    has("scope 3 default (pod) with parent");
    /* The chart's default class, and its limits for a container without
     * resources. */
    has("W runtime: absent");
    has("E runtime: default [gvisor meaning=0 default 3:3]");
    has("scope 4 default (container) with parent");
    has("E memory: default");
    has("E token: set [true meaning=1 parent 1:1]");
    has("scope 4 default/setup (container) with parent");
    has("E memory: absent");
    has("scope 3 runc (pod) with parent");
    has("E runtime: set [runc meaning=0 own 11:5]");
}

static void test_structure_steps(void **state)
{
    (void)state;
    read_as(SL_KIND_COMPOSE, "services:\n  web: [1]\n  ? [a]\n  : {}\n");
    has("warning service 'web' is not a mapping; not checked");
    has("warning a service name must be a scalar; service not checked");
    read_as(SL_KIND_KUBERNETES,
            "apiVersion: v1\nkind: List\nitems:\n  - 1\n"
            "  - {apiVersion: v1, kind: ServiceAccount, metadata: {name: ci},\n"
            "     automountServiceAccountToken: true}\n");
    has("warning List item is not a Kubernetes object (no apiVersion and kind); "
        "not checked");
    has("scope 2 ServiceAccount/ci (service account)");
    has("W token: set [true meaning=1 own 6:6]");
}

/* A scope fills each setting once per view (a service that extends a
 * privileged one: absent as written, set in effect) and hands back the
 * same setting on every later read, whatever was read in between; an id the
 * host does not know is UNMODELLED every time. */
static void check_cache(struct model_sink *sink, const struct model_step *step)
{
    (void)sink;
    if (step->type != MODEL_STEP_SCOPE || strcmp(step->scope->public.service, "web") != 0)
        return;
    struct model_scope *scope = step->scope;
    const struct model_setting *privileged =
        model_scope_setting(scope, SL_VIEW_WRITTEN, SL_SETTING_PRIVILEGED);
    const struct model_setting *effective =
        model_scope_setting(scope, SL_VIEW_EFFECTIVE, SL_SETTING_PRIVILEGED);
    const struct model_setting *last =
        model_scope_setting(scope, SL_VIEW_WRITTEN, MODEL_SETTING_LAST);
    const struct model_setting *user =
        model_scope_setting(scope, SL_VIEW_WRITTEN, SL_SETTING_USER);
    assert_ptr_not_equal(privileged, effective);
    assert_int_equal(privileged->setting.state, SL_SETTING_ABSENT);
    assert_int_equal(effective->setting.state, SL_SETTING_SET);
    assert_int_equal(last->setting.id, MODEL_SETTING_LAST);
    assert_int_equal(user->setting.state, SL_SETTING_ABSENT);
    assert_ptr_equal(model_scope_setting(scope, SL_VIEW_WRITTEN, SL_SETTING_PRIVILEGED),
                     privileged);
    assert_ptr_equal(model_scope_setting(scope, SL_VIEW_EFFECTIVE, SL_SETTING_PRIVILEGED),
                     effective);
    assert_ptr_equal(model_scope_setting(scope, SL_VIEW_WRITTEN, MODEL_SETTING_LAST), last);
    assert_int_equal(privileged->setting.id, SL_SETTING_PRIVILEGED);
    assert_int_equal(privileged->setting.count, 0);
    assert_int_equal(effective->setting.count, 1);
    assert_int_equal(effective->values[0].meaning, 1);
    assert_int_equal(effective->values[0].origin, SL_ORIGIN_BASE);
    const struct model_setting *unknown =
        model_scope_setting(scope, SL_VIEW_WRITTEN, MODEL_SETTING_LAST + 1);
    assert_int_equal(unknown->setting.state, SL_SETTING_UNMODELLED);
    assert_null(model_scope_setting(scope, 3, SL_SETTING_PRIVILEGED));
    say("checked\n");
}

static void test_settings_filled_once(void **state)
{
    (void)state;
    static const char yaml[] = "services:\n  base:\n    privileged: true\n"
                               "  web:\n    extends: base\n";
    struct yaml_model model;
    struct model_sink sink = { check_cache };
    struct model_file_state file;
    memset(&file, 0, sizeof(file));
    text_buffer_release(&seen);
    assert_int_equal(model_parse(&model, yaml, strlen(yaml), NULL), MODEL_OK);
    struct model_reading reading = { &sink, &file, model.documents[0] };
    front_ends_read(&reading, SL_KIND_COMPOSE, model.documents[0]);
    model_file_state_release(&file);
    model_release(&model);
    has("checked");
}

static void test_devcontainer(void **state)
{
    (void)state;
    read_json_as(SL_KIND_DEVCONTAINER,
                 "{\n"                                                         /* 1 */
                 "  \"containerUser\": \"root\",\n"
                 "  \"hostRequirements\": { \"gpu\": \"optional\" },\n"
                 "  \"build\": { \"options\": [\"--allow\", \"security.insecure\",\n"
                 "                          \"--allow=${localEnv:E}\", \"--pull\"] },\n" /* 5 */
                 "  \"runArgs\": [\"--pids-limit\", \"512\", \"--memory=2g\",\n"
                 "              \"--cpu-quota\", \"50000\", \"-p\", \"127.0.0.1:80:80\",\n"
                 "              \"--cap-drop\", \"ALL\", \"--read-only\", \"--network\","
                 " \"host\",\n"
                 "              \"--security-opt=no-new-privileges\"],\n"
                 "  \"features\": { \"docker-from-docker\": {} },\n"       /* 10 */
                 "  // comments and trailing commas\n"
                 "}\n");
    has("document");
    has("service devcontainer");
    has("scope 4 devcontainer (dev container)");
    /* Both views are as written: nothing is inherited. */
    has("W user: set [root meaning=1 own 2:3]");
    has("E user: set [root meaning=1 own 2:3]");
    has("W gpus: set [optional meaning=0 own 3:25]");
    has("W entitlements: set [security.insecure meaning=0 own 4:37] "
        "[templated ${localEnv:E} meaning=0 own 5:27]");
    /* runArgs through the engine-command front-end: a flag and its value
     * point at the flag, as on every engine command line. */
    has("W pids: set [512 meaning=1 own 6:15 number=512]");
    has("W memory: set [2g meaning=1 own 6:38 number=2147483648]");
    has("W cpu: set [50000 meaning=1 own 7:15 number=50000]");
    has("W ports: set [127.0.0.1:80:80 meaning=2 own 7:39 number=80]");
    has("W cap_drop: set [ALL meaning=0 own 8:15]");
    has("W read_only: set [true meaning=1 own 8:36]");
    has("W network: set [host meaning=1 own 8:51]");
    has("W nnp: set [no-new-privileges meaning=1 own 9:15]");
    /* The feature: the engine socket and label=disable. */
    has("W selinux: set [label=disable meaning=3 own 10:17]");
    has("W mounts: set [/var/run/docker.sock meaning=1 own 10:17]");
    has("W non_root: unsupported");
    has("W token: unsupported");
}

static void test_devcontainer_not_an_object(void **state)
{
    (void)state;
    read_json_as(SL_KIND_DEVCONTAINER, "[1]");
    has("not checked a dev container file holds one JSON object of settings; this one "
        "was not checked");
}

static void test_rcds(void **state)
{
    (void)state;
    read_as(SL_KIND_RCDS,
            "name: pwn\n"                                  /* 1 */
            "containers:\n"
            "  main:\n"
            "    image: pwn\n"
            "    securityContext:\n"                       /* 5 */
            "      privileged: true\n"
            "      runAsUser: 0\n"
            "    resources: {limits: {memory: 256Mi}}\n");
    has("service main");
    has("scope 4 main (container)");
    has("W privileged: set [true meaning=1 own 6:7]");
    has("E memory: set [256Mi meaning=1 own 8:26]");
    /* No pod above it: what a pod would say is not the container's. */
    has("E network: unsupported");
    has("E token: unsupported");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compose_merges_as_compose_does),
        cmocka_unit_test(test_pod_inheritance),
        cmocka_unit_test(test_agent_env_defaults),
        cmocka_unit_test(test_structure_steps),
        cmocka_unit_test(test_settings_filled_once),
        cmocka_unit_test(test_devcontainer),
        cmocka_unit_test(test_devcontainer_not_an_object),
        cmocka_unit_test(test_rcds),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    text_buffer_release(&seen);
    return failed;
}
