/* toml_write.c - writing TOML keys and strings (see toml_write.h). */
#include "config.h"

#include "toml_write.h"

#include <stdint.h>
#include <stdio.h>

#include "utf8.h"

/* Code points written as escapes: those that would hide or reorder text
 * for a reviewer (the INI writer refuses the same ones). */
static bool needs_escape(uint32_t code)
{
    return utf8_is_hidden_control(code);
}

bool toml_write_string(struct text_buffer *out, const char *bytes, size_t length)
{
    text_buffer_add_string(out, "\"");
    for (size_t at = 0; at < length;) {
        uint32_t code;
        size_t step = utf8_decode((const unsigned char *)bytes + at, length - at, &code);
        if (step == 0)
            return false;
        char escape[16];
        if (code == '"' || code == '\\') {
            snprintf(escape, sizeof(escape), "\\%c", (char)code);
            text_buffer_add_string(out, escape);
        } else if (code == '\t' || code == '\n' || code == '\r') {
            text_buffer_add_string(out, code == '\t' ? "\\t" : code == '\n' ? "\\n" : "\\r");
        } else if (needs_escape(code)) {
            snprintf(escape, sizeof(escape), "\\u%04X", (unsigned)code);
            text_buffer_add_string(out, escape);
        } else {
            text_buffer_add(out, bytes + at, step);
        }
        at += step;
    }
    text_buffer_add_string(out, "\"");
    return true;
}

bool toml_write_key(struct text_buffer *out, const char *bytes, size_t length)
{
    bool bare = length > 0;
    for (size_t i = 0; i < length && bare; i++) {
        char c = bytes[i];
        bare = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-';
    }
    if (bare) {
        text_buffer_add(out, bytes, length);
        return true;
    }
    return toml_write_string(out, bytes, length);
}

