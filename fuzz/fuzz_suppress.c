/*
 * fuzz_suppress.c - libFuzzer target: the suppression-comment scanner, on
 * a file_check holding one finding per line for every rule; then, as
 * --untrusted reads them, the same comments, which must suppress nothing.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "check.h"
#include "source.h"
#include "suppress.h"
#include "xalloc.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct registry registry;

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    (void)ctx; (void)service; (void)key; (void)value;
    return SL_OK;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    static const struct sl_rule first = {
        SL_RULE_INIT, .code = "SBX001", .name = "privileges",
        .group = "sandbox_privileges", .group_code = "IESC001",
        .summary = "fuzz", .check_service = check_service,
    };
    static const struct sl_rule second = {
        SL_RULE_INIT, .code = "SBX003", .name = "mounts",
        .group = "sandbox_privileges", .group_code = "IESC001",
        .summary = "fuzz", .check_service = check_service,
    };
    static const struct sl_rule *const rules[] = { &first, &second, NULL };
    static const struct sl_plugin plugin = {
        SL_PLUGIN_INIT, .name = "fuzz", .version = "1", .rules = rules,
    };
    char *error = NULL;
    registry_init(&registry);
    if (registry_add_descriptor(&registry, NULL, &plugin, &error) != 0)
        __builtin_trap();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    unsigned line, column;
    const char *problem;
    /* The scanner runs on validated UTF-8 only, as in scan.c. */
    if (source_check_encoding(text, size, &line, &column, &problem) != 0)
        return 0;
    struct file_check check;
    file_check_init(&check, &registry, "fuzz.yaml", "fuzz");
    unsigned lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += text[i] == '\n';
    if (lines > 200)
        lines = 200;
    for (unsigned l = 1; l <= lines; l++) {
        for (size_t rule = CORE_RULE_COUNT; rule < registry.rule_count; rule++) {
            struct finding_spec spec = {
                .rule = rule, .severity = SL_SEVERITY_ERROR, .line = l,
                .column = 1, .message = "fuzz",
            };
            finding_set_add(&check.result.findings, &spec);
        }
    }
    suppress_apply(text, size, &check);
    /* A suppressed finding names the comment that suppressed it. */
    for (size_t i = 0; i < check.result.findings.count; i++) {
        const struct finding *finding = &check.result.findings.items[i];
        if ((finding->status == STATUS_SUPPRESSED) !=
            (finding->comment < check.result.comment_count))
            __builtin_trap();
    }
    file_check_release(&check);

    /* --untrusted: the same comments suppress nothing, and each is
     * reported. */
    file_check_init(&check, &registry, "fuzz.yaml", "fuzz");
    for (unsigned l = 1; l <= lines; l++) {
        struct finding_spec spec = {
            .rule = CORE_RULE_COUNT, .severity = SL_SEVERITY_ERROR, .line = l,
            .column = 1, .message = "fuzz",
        };
        finding_set_add(&check.result.findings, &spec);
    }
    size_t before = check.result.findings.count;
    suppress_refuse(text, size, &check);
    for (size_t i = 0; i < check.result.findings.count; i++) {
        const struct finding *finding = &check.result.findings.items[i];
        if (finding->status == STATUS_SUPPRESSED ||
            (i >= before && finding->rule != CORE_RULE_SUPPRESSION))
            __builtin_trap();
    }
    if (check.result.comment_count != 0)
        __builtin_trap();
    file_check_release(&check);
    return 0;
}
