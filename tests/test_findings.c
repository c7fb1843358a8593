/* Unit tests for a finding's way: the one constructor (core/check/finding.c),
 * and the result codec and worker frames that carry findings out of a worker
 * (core/run/result_codec.c, core/run/worker_protocol.c).  The allowlist that
 * accepts findings is tests/test_allowlist.c's. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_result.h"
#include "finding.h"
#include "registry.h"
#include "result_codec.h"
#include "sandlint/plugin.h"
#include "worker_protocol.h"

static struct registry registry;

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    (void)ctx, (void)service, (void)key, (void)value;
    return SL_OK;
}

static int setup(void **state)
{
    (void)state;
    static const struct sl_rule first = {
        SL_RULE_INIT, .code = "SBX001", .name = "privileges",
        .group = "sandbox_privileges", .group_code = "IESC001",
        .summary = "test", .check_service = check_service,
    };
    static const struct sl_rule second = {
        SL_RULE_INIT, .code = "SBX003", .name = "mounts",
        .group = "sandbox_privileges", .group_code = "IESC001",
        .summary = "test", .check_service = check_service,
    };
    static const struct sl_rule *const rules[] = { &first, &second, NULL };
    static const struct sl_plugin plugin = {
        SL_PLUGIN_INIT, .name = "test", .version = "1", .rules = rules,
    };
    char *error = NULL;
    registry_init(&registry);
    assert_int_equal(registry_add_descriptor(&registry, NULL, &plugin, &error), 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    registry_release(&registry);
    return 0;
}

#define SBX001 CORE_RULE_COUNT
#define SBX003 (CORE_RULE_COUNT + 1)

/* A finding of a service setting, at line, for the set. */
static struct finding *add(struct finding_set *set, size_t rule, int severity,
                           unsigned line, const char *value, size_t value_length)
{
    struct finding_spec spec = {
        .rule = rule, .severity = severity, .line = line, .column = 5,
        .service = "web", .service_length = 3, .field = "cap_add",
        .value = value, .value_length = value_length, .message = "m",
    };
    return finding_set_add(set, &spec);
}

/* ------------------------------------------------------------------ */
/* the constructor                                                     */
/* ------------------------------------------------------------------ */

static void test_key_bytes(void **state)
{
    (void)state;
    struct finding_set set;
    finding_set_init(&set);
    static const char value[] = "a:b\0c";
    const struct finding *finding = add(&set, SBX001, SL_SEVERITY_ERROR, 1,
                                        value, sizeof(value) - 1);
    assert_non_null(finding);
    assert_int_equal(finding->key_length, 17);
    assert_memory_equal(finding->key, "web:cap_add:a:b\0c", 17);
    assert_int_equal(finding->status, STATUS_FAIL);
    assert_int_equal(finding->comment, FINDING_NONE);
    assert_int_equal(finding->allowlist_entry, FINDING_NONE);
    /* No value: "service:field"; an empty value keeps its colon. */
    finding = add(&set, SBX003, SL_SEVERITY_WARNING, 2, NULL, 0);
    assert_string_equal(finding->key, "web:cap_add");
    assert_int_equal(finding->status, STATUS_WARN);
    finding = add(&set, SBX001, SL_SEVERITY_ERROR, 3, "", 0);
    assert_string_equal(finding->key, "web:cap_add:");
    assert_int_equal(set.count, 3);
    finding_set_release(&set);
}

/* SPEC §17: one finding only when rule, key, line and column are the
 * same (the file is the set's). */
static void test_dedupe_keeps_first_but_error_beats_warning(void **state)
{
    (void)state;
    struct finding_set set;
    finding_set_init(&set);
    assert_non_null(add(&set, SBX001, SL_SEVERITY_ERROR, 1, "X", 1));
    assert_null(add(&set, SBX001, SL_SEVERITY_ERROR, 1, "X", 1));
    assert_null(add(&set, SBX001, SL_SEVERITY_WARNING, 1, "X", 1));
    /* Another rule with the same key is another finding. */
    assert_non_null(add(&set, SBX003, SL_SEVERITY_WARNING, 4, "X", 1));
    /* A later error at the same place replaces an earlier warning. */
    const struct finding *kept = add(&set, SBX003, SL_SEVERITY_ERROR, 4, "X", 1);
    assert_non_null(kept);
    assert_int_equal(set.count, 2);
    assert_int_equal(kept->severity, SL_SEVERITY_ERROR);
    assert_int_equal(set.items[0].line, 1);
    finding_set_release(&set);
}

/* The same key at another line or column is another finding
 * (cap_add: [SYS_ADMIN, SYS_ADMIN] is two: conformance case 070). */
static void test_same_key_elsewhere_is_another_finding(void **state)
{
    (void)state;
    struct finding_set set;
    finding_set_init(&set);
    assert_non_null(add(&set, SBX001, SL_SEVERITY_ERROR, 1, "X", 1));
    assert_non_null(add(&set, SBX001, SL_SEVERITY_ERROR, 2, "X", 1));
    struct finding_spec spec = {
        .rule = SBX001, .severity = SL_SEVERITY_ERROR, .line = 1, .column = 9,
        .service = "web", .service_length = 3, .field = "cap_add",
        .value = "X", .value_length = 1, .message = "m",
    };
    assert_non_null(finding_set_add(&set, &spec));
    assert_null(finding_set_add(&set, &spec));
    /* A warning elsewhere is kept beside the error, not replaced by it. */
    assert_non_null(add(&set, SBX001, SL_SEVERITY_WARNING, 3, "X", 1));
    assert_int_equal(set.count, 4);
    assert_int_equal(set.items[3].severity, SL_SEVERITY_WARNING);
    /* Many of one key stay cheap to add (the index spans the position). */
    for (unsigned line = 10; line < 5000; line++)
        assert_non_null(add(&set, SBX001, SL_SEVERITY_ERROR, line, "X", 1));
    assert_int_equal(set.count, 4 + 4990);
    finding_set_release(&set);
}

static void test_file_level_findings_are_all_kept(void **state)
{
    (void)state;
    struct finding_set set;
    finding_set_init(&set);
    for (unsigned i = 0; i < 3; i++) {
        struct finding_spec spec = {
            .rule = CORE_RULE_STALE, .severity = SL_SEVERITY_WARNING,
            .line = i + 1, .key = "web:privileged", .key_length = 14,
            .message = "stale",
        };
        assert_non_null(finding_set_add(&set, &spec));
    }
    assert_int_equal(set.count, 3);
    assert_null(set.items[0].service);
    assert_string_equal(set.items[2].key, "web:privileged");
    finding_set_release(&set);
}

static void test_limits_end_in_one_error(void **state)
{
    (void)state;
    struct finding_set set;
    finding_set_init(&set);
    char value[16];
    for (unsigned i = 0; i < FINDING_SET_MAX_COUNT + 50; i++) {
        int length = snprintf(value, sizeof(value), "%u", i);
        add(&set, SBX001, SL_SEVERITY_ERROR, i + 1, value, (size_t)length);
    }
    assert_int_equal(set.count, FINDING_SET_MAX_COUNT + 1);
    const struct finding *last = &set.items[set.count - 1];
    assert_int_equal(last->rule, CORE_RULE_YAML);
    assert_int_equal(last->severity, SL_SEVERITY_ERROR);
    assert_non_null(strstr(last->message, "the rest were not reported"));
    finding_set_release(&set);

    /* Bytes: a few huge values reach the text limit first (each counts
     * twice: as the value and inside the key). */
    finding_set_init(&set);
    size_t huge = FINDING_SET_MAX_BYTES / 7;
    char *text = malloc(huge);
    memset(text, 'a', huge);
    for (unsigned i = 0; i < 5; i++) {
        text[0] = (char)('a' + i);
        add(&set, SBX001, SL_SEVERITY_ERROR, i + 1, text, huge);
    }
    free(text);
    assert_int_equal(set.count, 3 + 1);
    assert_int_equal(set.items[3].rule, CORE_RULE_YAML);
    finding_set_release(&set);
}

static void test_sort_order(void **state)
{
    (void)state;
    struct finding_set set;
    finding_set_init(&set);
    add(&set, SBX003, SL_SEVERITY_ERROR, 2, "b", 1);
    add(&set, SBX001, SL_SEVERITY_ERROR, 2, "z", 1);
    add(&set, SBX001, SL_SEVERITY_ERROR, 2, "a", 1);
    add(&set, SBX001, SL_SEVERITY_ERROR, 1, "q", 1);
    finding_set_sort(&set, &registry);
    assert_int_equal(set.items[0].line, 1);
    assert_string_equal(set.items[1].value, "a");
    assert_string_equal(set.items[2].value, "z");
    assert_int_equal(set.items[3].rule, SBX003);
    finding_set_release(&set);
}
/* A finding about a whole document (ABI 1.1): no service, a field, and the
 * key field:value given as it is. */
static struct finding *add_document(struct finding_set *set, int severity,
                                    unsigned line)
{
    struct finding_spec spec = {
        .rule = SBX001, .severity = severity, .line = line, .column = 3,
        .field = "networks", .value = "hostnet", .value_length = 7,
        .key = "networks:hostnet", .key_length = 16, .message = "m",
    };
    return finding_set_add(set, &spec);
}

static void test_document_level_findings(void **state)
{
    (void)state;
    struct finding_set set;
    finding_set_init(&set);
    const struct finding *finding = add_document(&set, SL_SEVERITY_WARNING, 4);
    assert_non_null(finding);
    assert_null(finding->service);
    assert_string_equal(finding->field, "networks");
    assert_string_equal(finding->value, "hostnet");
    assert_string_equal(finding->key, "networks:hostnet");
    /* One per rule, key and position, as for service settings. */
    assert_null(add_document(&set, SL_SEVERITY_WARNING, 4));
    assert_non_null(add_document(&set, SL_SEVERITY_ERROR, 4));
    assert_int_equal(set.count, 1);
    assert_int_equal(set.items[0].severity, SL_SEVERITY_ERROR);
    assert_non_null(add_document(&set, SL_SEVERITY_WARNING, 9));
    assert_int_equal(set.count, 2);

    /* And it crosses from a worker as it is. */
    struct file_result result, decoded;
    file_result_init(&result, "a/compose.yaml", "pkg");
    add_document(&result.findings, SL_SEVERITY_ERROR, 2);
    struct byte_buffer buffer = BYTE_BUFFER_INIT;
    protocol_put_result(&buffer, 1, &result);
    size_t at = 0;
    struct frame frame;
    const char *reason = NULL;
    file_result_init(&decoded, "a/compose.yaml", "pkg");
    assert_int_equal(protocol_next_frame(&buffer, &at, &frame, &reason), 1);
    assert_int_equal(codec_decode_findings(frame.payload, frame.length,
                                           registry.rule_count, &decoded, &reason), 0);
    assert_int_equal(decoded.findings.count, 1);
    assert_null(decoded.findings.items[0].service);
    assert_string_equal(decoded.findings.items[0].field, "networks");
    assert_string_equal(decoded.findings.items[0].key, "networks:hostnet");
    file_result_release(&decoded);
    file_result_release(&result);
    byte_buffer_release(&buffer);
    finding_set_release(&set);
}


/* ------------------------------------------------------------------ */
/* the codec and the frames                                            */
/* ------------------------------------------------------------------ */

/* A result with two findings, one suppressed by a comment. */
static void sample_result(struct file_result *result)
{
    file_result_init(result, "a/compose.yaml", "pkg");
    add(&result->findings, SBX001, SL_SEVERITY_ERROR, 3, "SYS_ADMIN", 9);
    struct finding *suppressed = add(&result->findings, SBX003,
                                     SL_SEVERITY_WARNING, 4, "${X}", 4);
    suppressed->status = STATUS_SUPPRESSED;
    suppressed->comment = file_result_add_comment(result, 4, 20, "reviewed");
    result->services = 2;
}

/* Feeds the frames in buffer to a fresh result, as the coordinator does.
 * Returns 0, or -1 with *reason. */
static int receive_all(const struct byte_buffer *buffer, struct file_result *out,
                       const char **reason)
{
    file_result_init(out, "a/compose.yaml", "pkg");
    size_t at = 0;
    struct frame frame;
    int taken;
    while ((taken = protocol_next_frame(buffer, &at, &frame, reason)) > 0) {
        int status = frame.kind == FRAME_FINDINGS
            ? codec_decode_findings(frame.payload, frame.length,
                                    registry.rule_count, out, reason)
            : codec_decode_end(frame.payload, frame.length, out, reason);
        if (status != 0)
            return -1;
    }
    return taken < 0 || at != buffer->length ? -1 : 0;
}

static void test_codec_round_trip(void **state)
{
    (void)state;
    struct file_result result, decoded;
    sample_result(&result);
    struct byte_buffer buffer = BYTE_BUFFER_INIT;
    protocol_put_result(&buffer, 7, &result);
    const char *reason = NULL;
    assert_int_equal(receive_all(&buffer, &decoded, &reason), 0);
    assert_int_equal(decoded.findings.count, 2);
    assert_int_equal(decoded.services, 2);
    assert_string_equal(decoded.findings.items[0].key, "web:cap_add:SYS_ADMIN");
    assert_int_equal(decoded.findings.items[1].status, STATUS_SUPPRESSED);
    assert_int_equal(decoded.findings.items[1].comment, 0);
    assert_string_equal(decoded.comments[0].reason, "reviewed");
    /* The name and package never cross: the coordinator's own are kept. */
    assert_string_equal(decoded.display, "a/compose.yaml");
    file_result_release(&decoded);
    file_result_release(&result);
    byte_buffer_release(&buffer);
}

static void test_codec_chunks_many_findings(void **state)
{
    (void)state;
    struct file_result result, decoded;
    file_result_init(&result, "x", NULL);
    char value[4096];
    memset(value, 'v', sizeof(value));
    for (unsigned i = 0; i < 500; i++) {
        int length = snprintf(value, 16, "%u", i);
        value[length] = 'v';
        add(&result.findings, SBX001, SL_SEVERITY_ERROR, i + 1, value, sizeof(value));
    }
    struct byte_buffer buffer = BYTE_BUFFER_INIT;
    protocol_put_result(&buffer, 1, &result);
    /* 2 MB of findings travel in several frames, none much over a chunk. */
    size_t at = 0, frames = 0;
    struct frame frame;
    const char *reason = NULL;
    while (protocol_next_frame(&buffer, &at, &frame, &reason) > 0) {
        frames++;
        assert_true(frame.length < CODEC_CHUNK_BYTES + sizeof(value) + 256);
    }
    assert_true(frames > 5);
    assert_int_equal(receive_all(&buffer, &decoded, &reason), 0);
    assert_int_equal(decoded.findings.count, 500);
    file_result_release(&decoded);
    file_result_release(&result);
    byte_buffer_release(&buffer);
}

/* Encodes the sample, lets corrupt() change its bytes, and expects the
 * decoder to refuse it with a reason containing expected. */
static void expect_refused(void (*corrupt)(struct byte_buffer *),
                           const char *expected)
{
    struct file_result result, decoded;
    sample_result(&result);
    struct byte_buffer buffer = BYTE_BUFFER_INIT;
    protocol_put_result(&buffer, 7, &result);
    corrupt(&buffer);
    const char *reason = NULL;
    assert_int_equal(receive_all(&buffer, &decoded, &reason), -1);
    if (expected != NULL) {
        assert_non_null(reason);
        if (strstr(reason, expected) == NULL)
            fail_msg("'%s' not in '%s'", expected, reason);
    }
    file_result_release(&decoded);
    file_result_release(&result);
    byte_buffer_release(&buffer);
}

/* Offsets in the first frame: header (12 bytes), magic, count, then the
 * first finding's rule, severity, status, comment index, score, line,
 * column, end line, end column, reported severity. */
#define FIRST_FINDING (12 + 8)

static void set_u32(struct byte_buffer *buffer, size_t at, uint32_t value)
{
    memcpy(buffer->data + at, &value, sizeof(value));
}

static void truncate_last_byte(struct byte_buffer *buffer) { buffer->length--; }
static void bad_rule(struct byte_buffer *buffer) { set_u32(buffer, FIRST_FINDING, 99); }
static void bad_severity(struct byte_buffer *buffer) { set_u32(buffer, FIRST_FINDING + 4, 7); }
static void bad_status(struct byte_buffer *buffer) { set_u32(buffer, FIRST_FINDING + 8, 3); }
static void mismatched_status(struct byte_buffer *buffer)
{
    set_u32(buffer, FIRST_FINDING + 8, STATUS_WARN);    /* an error that warns */
}
static void bad_comment(struct byte_buffer *buffer)
{
    set_u32(buffer, FIRST_FINDING + 8, STATUS_SUPPRESSED);
    set_u32(buffer, FIRST_FINDING + 12, 5);             /* no such comment */
}
static void bad_score(struct byte_buffer *buffer) { set_u32(buffer, FIRST_FINDING + 16, 101); }
static void bad_reported_severity(struct byte_buffer *buffer)
{
    set_u32(buffer, FIRST_FINDING + 36, 0);
}
static void bad_magic(struct byte_buffer *buffer) { set_u32(buffer, 12, 0x12345678); }
static void huge_count(struct byte_buffer *buffer) { set_u32(buffer, 16, 0xFFFFFFF0u); }
static void bad_kind(struct byte_buffer *buffer) { set_u32(buffer, 4, 9); }
static void huge_frame(struct byte_buffer *buffer) { set_u32(buffer, 8, 0xFFFFFFF0u); }
static void trailing_byte(struct byte_buffer *buffer)
{
    /* One more byte inside the first frame's payload. */
    uint32_t length;
    memcpy(&length, buffer->data + 8, sizeof(length));
    byte_buffer_reserve(buffer, 1);
    memmove(buffer->data + 12 + length + 1, buffer->data + 12 + length,
            buffer->length - 12 - length);
    buffer->data[12 + length] = 0;
    buffer->length++;
    set_u32(buffer, 8, length + 1);
}

static void test_codec_refuses_malformed_results(void **state)
{
    (void)state;
    expect_refused(truncate_last_byte, NULL);
    expect_refused(bad_rule, "unknown rule index");
    expect_refused(bad_severity, "bad severity");
    expect_refused(bad_status, "bad status");
    expect_refused(mismatched_status, "status does not match severity");
    expect_refused(bad_comment, "suppression comment");
    expect_refused(bad_score, "bad security severity");
    expect_refused(bad_reported_severity, "bad reported severity");
    expect_refused(bad_magic, "bad magic");
    expect_refused(huge_count, "exceeds the data");
    expect_refused(bad_kind, "unknown frame kind");
    expect_refused(huge_frame, "frame too large");
    expect_refused(trailing_byte, "trailing bytes");
}

/* A configured severity is applied when a finding is made: to a plugin's
 * finding at its rule's default and to every finding of a core code, never
 * to a plugin's explicit "cannot be checked" warning. */
static void test_configured_severity_made_once(void **state)
{
    (void)state;
    struct finding_set set;
    finding_set_init(&set);
    registry.rules[SBX001].severity = SL_SEVERITY_WARNING;
    registry.rules[CORE_RULE_STALE].severity = SL_SEVERITY_ERROR;
    struct finding_spec at_default = {
        .rule = SBX001, .severity = SL_SEVERITY_ERROR, .line = 1, .service = "web",
        .service_length = 3, .field = "privileged", .message = "m",
        .at_rule_default = true,
    };
    struct finding_spec interpolated = at_default;
    interpolated.severity = SL_SEVERITY_WARNING;
    interpolated.at_rule_default = false;
    interpolated.field = "cap_add";
    struct finding_spec stale = {
        .rule = CORE_RULE_STALE, .severity = SL_SEVERITY_WARNING, .line = 2,
        .message = "stale",
    };
    /* Before the driver hands over the registry, nothing is configured. */
    struct finding *made = finding_set_add(&set, &at_default);
    assert_int_equal(made->severity, SL_SEVERITY_ERROR);
    finding_set_release(&set);

    finding_use_configured_severities(&registry);
    made = finding_set_add(&set, &at_default);
    assert_int_equal(made->severity, SL_SEVERITY_WARNING);
    assert_int_equal(made->status, STATUS_WARN);
    assert_int_equal(made->reported_severity, SL_SEVERITY_ERROR);
    made = finding_set_add(&set, &interpolated);
    assert_int_equal(made->severity, SL_SEVERITY_WARNING);
    assert_int_equal(made->reported_severity, SL_SEVERITY_WARNING);
    made = finding_set_add(&set, &stale);
    assert_int_equal(made->severity, SL_SEVERITY_ERROR);
    assert_int_equal(made->status, STATUS_FAIL);
    /* A raised warning stays a warning when the plugin named it. */
    registry.rules[SBX001].severity = SL_SEVERITY_ERROR;
    interpolated.field = "devices";
    made = finding_set_add(&set, &interpolated);
    assert_int_equal(made->severity, SL_SEVERITY_WARNING);
    finding_use_configured_severities(NULL);
    registry.rules[SBX001].severity = SL_SEVERITY_DEFAULT;
    registry.rules[CORE_RULE_STALE].severity = SL_SEVERITY_DEFAULT;
    finding_set_release(&set);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_key_bytes),
        T(test_dedupe_keeps_first_but_error_beats_warning),
        T(test_same_key_elsewhere_is_another_finding),
        T(test_file_level_findings_are_all_kept),
        T(test_document_level_findings),
        T(test_limits_end_in_one_error),
        T(test_sort_order),
        T(test_codec_round_trip),
        T(test_codec_chunks_many_findings),
        T(test_codec_refuses_malformed_results),
        T(test_configured_severity_made_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
