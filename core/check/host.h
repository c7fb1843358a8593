/*
 * host.h - the host services table handed to every plugin.
 */
#ifndef SANDLINT_HOST_H
#define SANDLINT_HOST_H

#include "sandlint/plugin.h"

/* The process-wide host table (static, const, valid until exit). */
const struct sl_host *host_services(void);

#endif
