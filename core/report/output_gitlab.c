/* output_gitlab.c - GitLab Code Quality JSON (SPEC §9).
 *
 * An array of issues, one per finding that fails or warns (accepted
 * findings only with --show-accepted, as "info"): description, check_name,
 * fingerprint, severity and location.path / location.lines.begin, which
 * GitLab's merge request widget needs.  Fingerprints are SARIF's
 * (output_sarif.c): rule, file and key survive moved lines; a finding
 * without key adds its line to the message, since GitLab drops issues
 * whose fingerprints repeat. */
#include "config.h"

#include "output.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "sandlint/plugin.h"

/* GitLab's severities: info, minor, major, critical, blocker. */
static const char *gitlab_severity(const struct finding_view *view)
{
    if (view->accepted)
        return "info";
    if (view->finding->status != STATUS_FAIL)
        return "minor";
    return finding_score(view) >= 90 ? "critical" : "major";
}

static void hash_bytes(uint64_t *hash, const char *bytes, size_t length)
{
    for (size_t i = 0; i < length; i++) {
        *hash ^= (unsigned char)bytes[i];
        *hash *= 1099511628211ULL;
    }
    *hash ^= 0xFF;   /* separator: ("ab","c") differs from ("a","bc") */
    *hash *= 1099511628211ULL;
}

static void write_fingerprint(FILE *out, const struct finding_view *view)
{
    const struct finding *finding = view->finding;
    const char *code = view->rule->rule.code;
    uint64_t hash = 1469598103934665603ULL;
    hash_bytes(&hash, code, strlen(code));
    hash_bytes(&hash, view->file->display, strlen(view->file->display));
    if (finding->key != NULL) {
        hash_bytes(&hash, finding->key, finding->key_length);
    } else {
        char line[32];
        int length = snprintf(line, sizeof(line), "%s:%u", "", finding->line);
        hash_bytes(&hash, finding->message, strlen(finding->message));
        hash_bytes(&hash, line, (size_t)length);
    }
    fprintf(out, "\"%016llx\"", (unsigned long long)hash);
}

static void gitlab_begin(FILE *out, const struct report *report)
{
    (void)report;
    fputs("[", out);
}

static void gitlab_finding(FILE *out, const struct report *report,
                           const struct finding_view *view)
{
    const struct finding *finding = view->finding;
    fputs(report->written == 0 ? "\n  " : ",\n  ", out);
    fputs("{\"description\": ", out);
    json_write_cstring(out, view->message);
    fputs(", \"check_name\": ", out);
    json_write_cstring(out, view->rule->rule.code);
    fputs(", \"fingerprint\": ", out);
    write_fingerprint(out, view);
    fprintf(out, ", \"severity\": \"%s\", \"categories\": [\"Security\"]",
            gitlab_severity(view));
    fputs(", \"location\": {\"path\": ", out);
    char *path = output_portable_path(view->file->display);
    json_write_cstring(out, path);
    free(path);
    /* GitLab needs a line: file-level findings point at line 1. */
    fprintf(out, ", \"lines\": {\"begin\": %u}}", finding->line ? finding->line : 1);
    fputs(", \"content\": {\"body\": ", out);
    json_write_string(out, view->hint, view->hint_length);
    fputs("}}", out);
}

static void gitlab_end(FILE *out, const struct report *report)
{
    (void)report;
    fputs("\n]\n", out);
}

const struct output_writer output_gitlab_writer = {
    gitlab_begin, gitlab_finding, gitlab_end, true,
};
