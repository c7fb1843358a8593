/* front_ends.c - the front-end of each kind (see front_ends.h). */
#include "config.h"

#include "front_ends.h"

#include "agent_env_front.h"
#include "compose_front.h"
#include "file_kind.h"
#include "kubernetes_front.h"

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
    default:
        break;
    }
}
