/*
 * file_kind.h - what kind of file a discovered file is (SPEC §12).
 *
 * Discovery knows a file's name and place; which kind it is (Compose,
 * agent-env values, Kubernetes objects) also depends on what it holds, so
 * the worker that parsed it decides.  Discovery hands over the kinds the
 * name and place allow (candidates); file_kind_decide() picks one from the
 * parsed documents, or none: a candidate that turns out to be none of its
 * kinds (the values.yaml of another Helm chart, a YAML file under a
 * kubernetes glob that is no object) is skipped silently - neither counted
 * as checked nor reported.
 */
#ifndef SANDLINT_FILE_KIND_H
#define SANDLINT_FILE_KIND_H

#include <stdbool.h>

#include "yaml_model.h"

/* Why a file was picked (combined in discovered_file.candidates). */
enum file_candidate {
    CANDIDATE_COMPOSE = 0x1,     /* named (docker-)?compose*.y{a,}ml, or
                                    named by include or extends.file */
    CANDIDATE_VALUES = 0x2,      /* named values.y{a,}ml, helm-values*.y{a,}ml
                                    or *-values.y{a,}ml */
    CANDIDATE_KUBERNETES = 0x4,  /* a YAML file under a kubernetes glob */
    CANDIDATE_NAMED = 0x8,       /* named on the command line (or standard
                                    input): every kind is tried, and one
                                    that is none is checked as Compose */
    CANDIDATE_CONTENT = 0x10,    /* any YAML file, when no kubernetes
                                    setting narrows the search: Kubernetes
                                    when a document is an object; alone,
                                    read only when file_kind_sniff_objects()
                                    says so, and a file it cannot read is a
                                    warning (SPEC §17) */
    /* Engine command lines and CI job containers (SPEC §15): */
    CANDIDATE_SHELL = 0x100,     /* *.sh, *.bash (or a named file, or one
                                    without an extension, with a shell's #!
                                    line) */
    CANDIDATE_MAKEFILE = 0x200,  /* Makefile, makefile, GNUmakefile, *.mk */
    CANDIDATE_GITHUB_ACTIONS = 0x400, /* *.y{a,}ml in .github/workflows */
    CANDIDATE_GITLAB_CI = 0x800, /* .gitlab-ci.y{a,}ml */
    CANDIDATE_GITLAB_RUNNER = 0x1000, /* config.toml (a GitLab Runner's when it
                                    has [[runners]]; any other is skipped) */
    CANDIDATE_DEVCONTAINER = 0x2000, /* .devcontainer.json, or devcontainer.json
                                    in .devcontainer/ or .devcontainer/NAME/
                                    (file_devcontainer_place) */
    CANDIDATE_RCDS = 0x4000,     /* challenge.y{a,}ml or challenge.json: an
                                    rCDS challenge, or a kCTF Challenge
                                    object when it has apiVersion */
    CANDIDATE_JSON = 0x8000,     /* JSON (with comments): read by the JSONC
                                    reader, not libyaml */
    CANDIDATE_MAYBE_SCRIPT = 0x10000, /* a file whose name has no extension
                                    (bin/start-sandbox): a shell script when
                                    it starts with a shell's #! line, else
                                    skipped silently, also when it cannot be
                                    read or is not text */
    CANDIDATE_GITHUB_ACTION = 0x20000, /* action.y{a,}ml anywhere: a GitHub
                                    Actions action's metadata, read as
                                    github-actions when its runs.using is
                                    composite or docker
                                    (file_kind_github_action_using), else
                                    skipped silently */
    CANDIDATE_PROJECT_ENV = 0x40000 /* with _COMPOSE: a .env stands beside
                                    it, whose COMPOSE_FILE names the files
                                    Compose reads by default (followed) */
};

/* Whether a file found only as CANDIDATE_MAYBE_SCRIPT: nothing is said
 * about it unless it turns out to be a shell script. */
bool file_candidates_only_maybe_script(unsigned candidates);

/* Whether a directory (its path, length bytes) is .github/workflows:
 * every YAML file in it is a GitHub Actions workflow. */
bool file_dir_is_workflows(const char *path, size_t length);

/* The kind of a file that is not YAML (a shell script, a Makefile, a
 * GitLab Runner config.toml), decided before any YAML is parsed, or 0.
 * text is the file's content: a named file of no known name, or one
 * without an extension, with a shell's #! line is a shell script; one
 * found only as CANDIDATE_MAYBE_SCRIPT without it is -1 (skipped). */
int file_kind_of_text(unsigned candidates, const char *text, size_t length);

/* The candidates a file name (a basename) gives: CANDIDATE_COMPOSE,
 * CANDIDATE_VALUES, the engine command lines' and CI files' candidates,
 * CANDIDATE_DEVCONTAINER, CANDIDATE_RCDS (with CANDIDATE_JSON for a .json
 * name), or 0.  A devcontainer.json is a dev
 * container only in its place: see file_devcontainer_place(). */
unsigned file_name_candidates(const char *name);

/* Whether path ('/'-separated, ending in the file's name) names a dev
 * container file by its place as the devcontainer CLI looks for them:
 * .devcontainer.json anywhere, devcontainer.json directly in a
 * .devcontainer directory or in a directory directly below one. */
bool file_devcontainer_place(const char *path);

/* Whether name ends in .yaml or .yml (a kubernetes glob picks those). */
bool file_name_is_yaml(const char *name);

/* Whether a document root has the agent-env shape: a services mapping with
 * at least one entry, every entry a mapping with a non-null scalar image. */
bool file_kind_agent_env_shape(const struct sl_node *root);

/* Whether a document root looks like agent-env values that override only
 * some of the chart's defaults (services without image, or no services):
 * every top-level key is one of the chart's (its values.schema.json
 * allows no others), and services is a mapping of mappings or one of the
 * keys is the chart's alone (allowDomains, additionalResources,
 * automountServiceAccountToken...).  Helm merges such a file over the
 * chart's own values, so it is checked as agent-env too. */
bool file_kind_agent_env_overrides(const struct sl_node *root);

/* Where a document shows that it is written for Kubernetes rather than
 * Compose: its apiVersion key (an object), a top-level key only the
 * agent-env chart has, or a service's securityContext, runtimeClassName,
 * volumeMounts, initContainers or hostPath volume; NULL for none. */
const struct sl_node *file_kind_kubernetes_sign(const struct sl_node *root);

/* Whether a document root is a Kubernetes object: a mapping with scalar,
 * non-null apiVersion and kind. */
bool file_kind_is_object(const struct sl_node *root);

/* Whether a document root is an object that describes other objects
 * (CustomResourceDefinition, admission policies, Gatekeeper templates,
 * Kyverno policies): not a workload, never read by the Kubernetes
 * front-end (SPEC §17). */
bool file_kind_is_schema_object(const struct sl_node *root);

/* The cheap test before a file found only by content is parsed: whether a
 * line starts with apiVersion (or "apiVersion", 'apiVersion') and a colon,
 * as a block mapping's top-level key does (after a UTF-8 byte order mark
 * on the first line; or indented, when every line of the document before
 * it is indented as much: a top-level mapping written indented).  A byte
 * scan, no parse; linear in the file's length. */
bool file_kind_sniff_objects(const char *data, size_t length);

/* The runs.using node of a GitHub Actions action's metadata (an
 * action.yml root) whose runs.using is composite or docker (in any case,
 * as the runner compares it): an action whose steps or container the
 * runner runs; NULL for any other document (a JavaScript action, another
 * program's action.yml). */
const struct sl_node *file_kind_github_action_using(const struct sl_node *root);

/*
 * The kind (SL_KIND_* of plugin.h) of a parsed file picked for candidates,
 * or 0 to skip it silently.  In this order: a file found by content, under
 * a kubernetes glob or named, with a document that is an object other
 * than a schema object is Kubernetes whatever its name (SPEC §13); one
 * whose only objects are schema objects is skipped (named or Compose-named:
 * Kubernetes, with nothing to read); a Compose name (or a reference) is
 * Compose; an action.yml whose first non-empty document is a composite or
 * docker action is github-actions; a values name whose first
 * non-empty document has the agent-env shape, or overrides the chart's
 * values, is agent-env, and so is a named file of that shape that also
 * shows a Kubernetes sign (file_kind_kubernetes_sign: Compose services
 * have images too); any other named file is Compose (as in 0.2: a named
 * file is checked whatever its name).
 */
int file_kind_decide(const struct yaml_model *model, unsigned candidates);

/* The kind's name for messages and --list-rules: "compose", "agent-env",
 * "kubernetes", "devcontainer", "rcds". */
const char *file_kind_name(int kind);

#endif
