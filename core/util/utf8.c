/* utf8.c - the one UTF-8 decoder of the core (see utf8.h). */
#include "config.h"

#include "utf8.h"

size_t utf8_decode(const unsigned char *p, size_t available, uint32_t *code)
{
    unsigned char c = p[0];
    if (c < 0x80) {
        if (code != NULL)
            *code = c;
        return 1;
    }
    size_t length;
    uint32_t value;
    if (c >= 0xC2 && c <= 0xDF) {
        length = 2;
        value = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        length = 3;
        value = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        length = 4;
        value = c & 0x07;
    } else {
        return 0;   /* a continuation byte, C0/C1 or F5..FF */
    }
    if (available < length)
        return 0;
    for (size_t i = 1; i < length; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        value = (value << 6) | (p[i] & 0x3F);
    }
    /* Overlong forms, surrogates and code points past U+10FFFF. */
    if ((length == 3 && value < 0x800) || (length == 4 && value < 0x10000) ||
        (value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF)
        return 0;
    if (code != NULL)
        *code = value;
    return length;
}

size_t utf8_encode(uint32_t code, unsigned char out[4])
{
    if (code < 0x80) {
        out[0] = (unsigned char)code;
        return 1;
    }
    if (code < 0x800) {
        out[0] = (unsigned char)(0xC0 | (code >> 6));
        out[1] = (unsigned char)(0x80 | (code & 0x3F));
        return 2;
    }
    if (code >= 0xD800 && code <= 0xDFFF)
        return 0;
    if (code < 0x10000) {
        out[0] = (unsigned char)(0xE0 | (code >> 12));
        out[1] = (unsigned char)(0x80 | ((code >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (code & 0x3F));
        return 3;
    }
    if (code > 0x10FFFF)
        return 0;
    out[0] = (unsigned char)(0xF0 | (code >> 18));
    out[1] = (unsigned char)(0x80 | ((code >> 12) & 0x3F));
    out[2] = (unsigned char)(0x80 | ((code >> 6) & 0x3F));
    out[3] = (unsigned char)(0x80 | (code & 0x3F));
    return 4;
}

bool utf8_is_hidden_control(uint32_t code)
{
    return code < 0x20 || code == 0x7F || (code >= 0x80 && code <= 0x9F) ||
           code == 0x061C || code == 0x200E || code == 0x200F ||
           (code >= 0x2028 && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069) ||
           code == 0xFEFF;
}
