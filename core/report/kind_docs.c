/* kind_docs.c - which files a directory search finds (see kind_docs.h). */
#include "config.h"

#include "kind_docs.h"

#include <stdlib.h>
#include <string.h>

#include "file_kind.h"
#include "sandlint/plugin.h"
#include "word_wrap.h"
#include "xalloc.h"

/* What discovery (core/discover/, core/kinds/file_kind.c) finds as each
 * kind, in the order --help and sandlint(1) list them. */
static const struct {
    int kind;
    const char *found;
} kinds[] = {
    { SL_KIND_COMPOSE,
      "(docker-)compose*.yml and .yaml, *-compose, *_compose and *.compose "
      "(.yml or .yaml), and every file a Compose file names in include or "
      "extends.file, whatever its name" },
    { SL_KIND_AGENT_ENV,
      "values.yaml, helm-values*, values-*, values.*, *-values, *_values and "
      "*.values (.yaml or .yml) holding values of inspect_k8s_sandbox's "
      "agent-env Helm chart (other charts' values are skipped)" },
    { SL_KIND_KUBERNETES,
      "every *.yaml and *.yml with a document that has top-level apiVersion "
      "and kind, whatever its name (the kubernetes setting narrows this to its "
      "globs; kubernetes = none turns it off); CustomResourceDefinitions and "
      "other schema objects are skipped, and a Helm chart's templates/ are "
      "counted, not read (render them with helm template)" },
    { SL_KIND_DEVCONTAINER,
      ".devcontainer.json, and devcontainer.json in a .devcontainer directory "
      "or a directory directly below one (JSON with comments); the Compose "
      "files its dockerComposeFile names are checked as compose" },
    { SL_KIND_RCDS,
      "challenge.yaml, challenge.yml and challenge.json of rCDS (containers, "
      "no apiVersion); one with apiVersion and kind (a kCTF Challenge) is "
      "kubernetes, other frameworks' challenge files are skipped" },
    { SL_KIND_SHELL,
      "*.sh, *.bash, and files without an extension that start with a "
      "shell's #! line: each docker, podman or nerdctl run or create" },
    { SL_KIND_MAKEFILE,
      "Makefile, makefile, GNUmakefile and *.mk: the engine commands of "
      "their recipes" },
    { SL_KIND_GITHUB_ACTIONS,
      "*.yml and *.yaml in .github/workflows: job and service containers, "
      "docker:// steps and the engine commands of run: steps; action.yml and "
      "action.yaml of composite actions (their steps, alike) and Docker "
      "container actions (other actions are skipped)" },
    { SL_KIND_GITLAB_CI,
      ".gitlab-ci.yml: the engine commands of script:, before_script: and "
      "after_script:, and the local files its include: and trigger:include: "
      "name, checked alike" },
    { SL_KIND_GITLAB_RUNNER,
      "config.toml with [[runners]]: each runner's [runners.docker] and, for "
      "the kubernetes executor, [runners.kubernetes] (other programs' "
      "config.toml are skipped)" },
};

#define NAME_COLUMN 16

void kind_docs_print(FILE *out, size_t width)
{
    for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++) {
        const char *name = file_kind_name(kinds[i].kind);
        char *first = xasprintf("  %-*s", NAME_COLUMN - 2, name);
        if (strlen(name) > NAME_COLUMN - 3) {
            /* A long name gets the line to itself. */
            fprintf(out, "  %s\n", name);
            memset(first, ' ', NAME_COLUMN);
        }
        word_wrap(out, kinds[i].found, strlen(kinds[i].found), first,
                  "                ", width);
        free(first);
    }
}
