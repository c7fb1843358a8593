/* fuzz_ini.c - libFuzzer target: .sandlint.ini parsing through inih, and
 * the allowlist editor on what parses. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "config_edit.h"
#include "config_file.h"
#include "fuzz_edit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct config config;
    struct config_error error = { NULL, { 0, 0 }, false };
    config_init(&config);
    if (config_parse_ini(&config, (const char *)data, size, &error) == 0)
        fuzz_edit_allowlist(CONFIG_INI, (const char *)data, size, &config);
    config_error_release(&error);
    config_release(&config);
    return 0;
}
