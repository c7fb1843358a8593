/* output_sarif.c - SARIF 2.1.0 for code scanning (SPEC §9). */
#include "config.h"

#include "output.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "json_writer.h"
#include "sandlint/plugin.h"
#include "xalloc.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define INFORMATION_URI "https://github.com/sandlint/sandlint"

/* Writes a path as a quoted URI reference: prefix, then the path with
 * unreserved characters and '/' as they are and every other byte
 * percent-encoded (so any file name gives a valid URI). */
static void write_uri(FILE *out, const char *prefix, const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    fprintf(out, "\"%s", prefix);
    for (const unsigned char *p = (const unsigned char *)path; *p != '\0'; p++) {
        unsigned char c = *p;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
            c == '~' || c == '/')
            putc(c, out);
        else
            fprintf(out, "%%%c%c", hex[c >> 4], hex[c & 15]);
    }
    putc('"', out);
}

static const char *level(int severity)
{
    return severity == SL_SEVERITY_ERROR ? "error" : "warning";
}

/* Text for a rule's help: the fix and the allowlist key format. */
static char *rule_help(const struct sl_rule *rule)
{
    return xasprintf("%s%s%s%s%s",
                     rule->fix ? rule->fix : rule->summary,
                     rule->key_format ? "\n\nAllowlist key: " : "",
                     rule->key_format ? rule->key_format : "",
                     rule->example ? "\n\nExample:\n" : "",
                     rule->example ? rule->example : "");
}

static char *rule_help_markdown(const struct sl_rule *rule)
{
    return xasprintf("%s%s%s%s%s%s",
                     rule->fix ? rule->fix : rule->summary,
                     rule->key_format ? "\n\n**Allowlist key:**\n\n```\n" : "",
                     rule->key_format ? rule->key_format : "",
                     rule->key_format ? "\n```" : "",
                     rule->example ? "\n\n**Example:**\n\n```yaml\n" : "",
                     rule->example ? rule->example : "");
}

static void write_rule(FILE *out, const struct registry *registry, size_t index)
{
    const struct rule_entry *entry = &registry->rules[index];
    const struct sl_rule *rule = &entry->rule;
    fputs("{\"id\": ", out);
    json_write_cstring(out, rule->code);
    fputs(", \"name\": ", out);
    json_write_cstring(out, rule->name);
    fputs(", \"shortDescription\": {\"text\": ", out);
    json_write_cstring(out, rule->summary);
    fputs("}, \"fullDescription\": {\"text\": ", out);
    json_write_cstring(out, rule->description ? rule->description : rule->summary);
    char *help = rule_help(rule);
    char *markdown = rule_help_markdown(rule);
    if (rule->example != NULL) {
        char *closed = xasprintf("%s\n```", markdown);
        free(markdown);
        markdown = closed;
    }
    fputs("}, \"help\": {\"text\": ", out);
    json_write_cstring(out, help);
    fputs(", \"markdown\": ", out);
    json_write_cstring(out, markdown);
    free(help);
    free(markdown);
    /* This run's configuration: the severity the configuration gives the
     * rule (rule_options.h), as enabled is the selection's. */
    fprintf(out, "}, \"defaultConfiguration\": {\"level\": \"%s\", \"enabled\": %s}",
            level(rule_entry_severity(entry)), entry->enabled ? "true" : "false");
    if (rule->url != NULL) {
        /* Validated when the plugin loaded: an absolute URL (registry.c). */
        fputs(", \"helpUri\": ", out);
        json_write_cstring(out, rule->url);
    }
    fputs(", \"properties\": {\"tags\": [\"security\", ", out);
    json_write_cstring(out, rule->group);
    /* GitHub code scanning ranks alerts by this: 9.0 and up critical. */
    unsigned score = rule_score(rule);
    fprintf(out, "], \"security-severity\": \"%u.%u\", \"group\": ", score / 10,
            score % 10);
    json_write_cstring(out, rule->group);
    fputs(", \"plugin\": ", out);
    json_write_cstring(out, registry->plugins[entry->plugin].descriptor.name);
    fputs("}}", out);
}

/*
 * How many findings of the file being written had each fingerprint so far
 * (SPEC §17: same-keyed findings at other positions are other findings,
 * and code scanning must keep them apart).  Reset per file; the writer's
 * callbacks carry no state of their own, and a report is written by one
 * writer at a time.
 */
static struct {
    const struct file_result *file;     /* whose findings are counted */
    struct hash_index index;            /* fingerprint -> its slot below */
    uint64_t *fingerprints;
    size_t *counts;
    size_t count, capacity;
} occurrences = { NULL, HASH_INDEX_INIT, NULL, NULL, 0, 0 };

static void occurrences_release(void)
{
    hash_index_release(&occurrences.index);
    free(occurrences.fingerprints);
    free(occurrences.counts);
    memset(&occurrences, 0, sizeof(occurrences));
}

/* The 1-based occurrence of fingerprint among the findings of file
 * written so far, this one included. */
static size_t occurrence(const struct file_result *file, uint64_t fingerprint)
{
    if (file != occurrences.file) {
        occurrences_release();
        occurrences.file = file;
    }
    uint64_t hash = hash_pair(fingerprint, 0);
    size_t cursor = 0, item;
    while (hash_index_next(&occurrences.index, hash, &cursor, &item))
        if (occurrences.fingerprints[item] == fingerprint)
            return ++occurrences.counts[item];
    if (occurrences.count == occurrences.capacity) {
        occurrences.capacity = occurrences.capacity ? occurrences.capacity * 2 : 16;
        occurrences.fingerprints = xrealloc(occurrences.fingerprints, occurrences.capacity,
                                            sizeof(*occurrences.fingerprints));
        occurrences.counts = xrealloc(occurrences.counts, occurrences.capacity,
                                      sizeof(*occurrences.counts));
    }
    occurrences.fingerprints[occurrences.count] = fingerprint;
    occurrences.counts[occurrences.count] = 1;
    hash_index_add(&occurrences.index, hash, occurrences.count);
    return occurrences.counts[occurrences.count++];
}

/* A stable fingerprint of rule, file and key (or message when there is no
 * key), so alerts survive line moves: FNV-1a, 64 bits, as hex; from the
 * second finding of a file with the same one, ":N" for the N-th (the
 * occurrence index, as code scanning's own primaryLocationLineHash has):
 * the first keeps the fingerprint 0.2 wrote, so its alert stays the same
 * alert. */
static void write_fingerprint(FILE *out, const char *code, const struct file_result *file,
                              const struct finding *finding)
{
    uint64_t hash = 1469598103934665603ULL;
    const char *parts[3] = { code, file->display, NULL };
    size_t lengths[3] = { strlen(code), strlen(file->display), 0 };
    if (finding->key != NULL) {
        parts[2] = finding->key;
        lengths[2] = finding->key_length;
    } else {
        parts[2] = finding->message;
        lengths[2] = strlen(finding->message);
    }
    for (int p = 0; p < 3; p++) {
        for (size_t i = 0; i < lengths[p]; i++) {
            hash ^= (unsigned char)parts[p][i];
            hash *= 1099511628211ULL;
        }
        hash ^= 0xFF;   /* separator: ("ab","c") differs from ("a","bc") */
        hash *= 1099511628211ULL;
    }
    size_t nth = occurrence(file, hash);
    fprintf(out, "\"sandlintKey/v1\": \"%016llx", (unsigned long long)hash);
    if (nth > 1)
        fprintf(out, ":%zu", nth);
    fputc('"', out);
}

static void write_result(FILE *out, const struct finding_view *view)
{
    const struct finding *finding = view->finding;
    const struct rule_entry *entry = view->rule;
    fputs("{\"ruleId\": ", out);
    json_write_cstring(out, entry->rule.code);
    fprintf(out, ", \"ruleIndex\": %zu, \"level\": \"%s\", \"message\": {\"text\": ",
            finding->rule, level(view->severity));
    json_write_cstring(out, view->message);
    fputs("}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", out);
    char *path = output_portable_path(view->file->display);
    write_uri(out, "", path);
    fputs(strcmp(path, view->file->display) == 0 ? ", \"uriBaseId\": \"%SRCROOT%\"}"
                                                 : ", \"uriBaseId\": \"OUTSIDE_SRCROOT\"}", out);
    free(path);
    fputs(", \"region\": {", out);
    /* Code scanning needs a line: file-level findings point at line 1. */
    fprintf(out, "\"startLine\": %u", finding->line ? finding->line : 1);
    if (finding->line != 0 && finding->column != 0)
        fprintf(out, ", \"startColumn\": %u", finding->column);
    if (finding->end_line != 0 && finding->end_column != 0 &&
        finding->end_line >= finding->line)
        fprintf(out, ", \"endLine\": %u, \"endColumn\": %u", finding->end_line,
                finding->end_column);
    fputs("}}}], \"partialFingerprints\": {", out);
    write_fingerprint(out, entry->rule.code, view->file, finding);
    fputs("}", out);
    if (view->acceptance != ACCEPTED_NOT) {
        fprintf(out, ", \"suppressions\": [{\"kind\": \"%s\", \"status\": "
                "\"accepted\", \"justification\": ",
                view->acceptance == ACCEPTED_IN_SOURCE ? "inSource" : "external");
        json_write_cstring(out, view->justification);
        fputs("}]", out);
    }
    unsigned score = finding_score(view);
    fprintf(out, ", \"properties\": {\"tags\": [\"security\"], "
            "\"security-severity\": \"%u.%u\", \"status\": ", score / 10, score % 10);
    json_write_cstring(out, view->status);
    fputs(", \"package\": ", out);
    json_write_cstring(out, view->file->package);
    fputs(", \"service\": ", out);
    json_write_cstring(out, finding->service);
    fputs(", \"key\": ", out);
    json_write_string(out, finding->key, finding->key_length);
    fputs(", \"hint\": ", out);
    json_write_string(out, view->hint, view->hint_length);
    fputs("}}", out);
}

static void sarif_begin(FILE *out, const struct report *report)
{
    occurrences_release();
    const struct registry *registry = report->registry;
    fputs("{\"$schema\": \"" SARIF_SCHEMA "\", \"version\": \"2.1.0\", \"runs\": [{\n"
          " \"tool\": {\"driver\": {\"name\": \"sandlint\", \"version\": ", out);
    json_write_cstring(out, PACKAGE_VERSION);
    fputs(", \"semanticVersion\": ", out);
    json_write_cstring(out, PACKAGE_VERSION);
    fputs(", \"informationUri\": \"" INFORMATION_URI "\", \"rules\": [", out);
    for (size_t i = 0; i < registry->rule_count; i++) {
        fputs(i == 0 ? "\n  " : ",\n  ", out);
        write_rule(out, registry, i);
    }
    fputs("]}},\n \"columnKind\": \"unicodeCodePoints\",\n", out);
    /* Results are relative to the root, %SRCROOT%, which the consumer
     * knows (the checkout): where the scanning machine keeps it is no
     * business of the report. */
    fputs(" \"originalUriBaseIds\": {\"%SRCROOT%\": {\"description\": {\"text\": "
          "\"the repository root (sandlint --root)\"}}, \"OUTSIDE_SRCROOT\": {\"description\": "
          "{\"text\": \"a file outside the repository root, named by its last component: "
          "where the scanning machine keeps it is not reported\"}}},\n \"results\": [", out);
}

static void sarif_finding(FILE *out, const struct report *report,
                          const struct finding_view *view)
{
    fputs(report->written == 0 ? "\n  " : ",\n  ", out);
    write_result(out, view);
}

static void sarif_end(FILE *out, const struct report *report)
{
    (void)report;
    occurrences_release();
    fputs("]}]}\n", out);
}

const struct output_writer output_sarif_writer = {
    sarif_begin, sarif_finding, sarif_end, false,
};
