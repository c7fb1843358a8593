/* fuzz_ini.c - libFuzzer target: .sandlint.ini parsing through inih. */
#include "config.h"

#include <stdint.h>

#include "config_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct config config;
    struct config_error error = { NULL, { 0, 0 } };
    config_init(&config);
    (void)config_parse_ini(&config, (const char *)data, size, &error);
    config_error_release(&error);
    config_release(&config);
    return 0;
}
