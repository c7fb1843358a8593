/* An entry point that returns no descriptor: refused. */
#include "sandlint/plugin.h"

SL_EXPORT const struct sl_plugin *sandlint_plugin_entry(const struct sl_host *host);
SL_EXPORT const struct sl_plugin *sandlint_plugin_entry(const struct sl_host *host)
{
    (void)host;
    return NULL;
}
