/* Deletes the file named by $SANDLINT_TEST_UNLINK when it checks a service
 * named "delete_next": makes "a file deleted between discovery and
 * reading" deterministic in tests (run with --jobs 1).  With
 * $SANDLINT_TEST_LINK_TO set, the file becomes a symbolic link to that
 * path instead: "a file swapped for a link after discovery". */
/* symlink() is POSIX.1-2001. */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandlint/plugin.h"

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    (void)ctx;
    (void)key;
    (void)value;
    const char *victim = getenv("SANDLINT_TEST_UNLINK");
    const char *target = getenv("SANDLINT_TEST_LINK_TO");
    if (victim != NULL && strcmp(service, "delete_next") == 0) {
        unlink(victim);
        if (target != NULL && symlink(target, victim) != 0)
            return SL_ERROR;
    }
    return SL_OK;
}

static const struct sl_rule rule = {
    SL_RULE_INIT, "TST020", "unlinker", "test_group", NULL,
    "deletes a file (test plugin)", NULL, NULL, NULL, NULL, NULL,
    SL_SEVERITY_WARNING, NULL, check_service, NULL, 0, 0.0, 0, NULL, NULL, NULL,
};
static const struct sl_rule *const rules[] = { &rule, NULL };
static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT, "unlinker", "0.0.1", "deletes a file on purpose", rules,
};
SANDLINT_PLUGIN(plugin)
