/* front_ends.c - the front-end of each kind (see front_ends.h). */
#include "config.h"

#include "front_ends.h"

#include "agent_env_front.h"
#include "compose_front.h"
#include "devcontainer_front.h"
#include "file_kind.h"
#include "github_actions_front.h"
#include "gitlab_ci_front.h"
#include "gitlab_runner_front.h"
#include "kubernetes_front.h"
#include "rcds_front.h"
#include "shell_front.h"
#include "toml/toml.h"

void front_ends_read(struct model_reading *reading, int kind, const struct sl_node *root)
{
    switch (kind) {
    case SL_KIND_COMPOSE:
        compose_front_read(reading, root);
        break;
    case SL_KIND_AGENT_ENV:
        agent_env_front_read(reading, root);
        break;
    case SL_KIND_KUBERNETES:
        if (!file_kind_is_schema_object(root))  /* not a workload (SPEC §17) */
            kubernetes_front_read(reading, root);
        break;
    case SL_KIND_GITHUB_ACTIONS:
        github_actions_front_read(reading, root);
        break;
    case SL_KIND_GITLAB_CI:
        gitlab_ci_front_read(reading, root);
        break;
    case SL_KIND_DEVCONTAINER:
        devcontainer_front_read(reading, root);
        break;
    case SL_KIND_RCDS:
        rcds_front_read(reading, root);
        break;
    default:
        break;
    }
}

bool front_ends_read_text(struct model_reading *reading, int kind, const char *text,
                          size_t length, struct comment_list *comments)
{
    switch (kind) {
    case SL_KIND_SHELL:
        shell_front_read_file(reading, text, length, SHELL_DIALECT_SCRIPT, kind, comments);
        return true;
    case SL_KIND_MAKEFILE:
        shell_front_read_file(reading, text, length, SHELL_DIALECT_MAKEFILE, kind, comments);
        return true;
    case SL_KIND_GITLAB_RUNNER:
        toml_comments(text, length, comments);
        return gitlab_runner_front_read(reading, text, length);
    default:
        return false;
    }
}
