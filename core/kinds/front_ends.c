/* front_ends.c - the front-end of each kind (see front_ends.h). */
#include "config.h"

#include "front_ends.h"

#include "agent_env_front.h"
#include "compose_front.h"
#include "devcontainer_front.h"
#include "kubernetes_front.h"
#include "rcds_front.h"

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
        kubernetes_front_read(reading, root);
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
