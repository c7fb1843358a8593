/* base64.c - standard base64 decoded (see base64.h). */
#include "config.h"

#include "base64.h"

/* The value of an alphabet character, or -1. */
static int sextet(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

static bool is_blank(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool base64_decode(const char *text, size_t length, unsigned char *out, size_t *decoded)
{
    const unsigned char *p = (const unsigned char *)text;
    unsigned long bits = 0;
    size_t held = 0, used = 0, padding = 0;
    for (size_t i = 0; i < length; i++) {
        if (is_blank(p[i]))
            continue;
        if (p[i] == '=') {
            padding++;
            continue;
        }
        int value = sextet(p[i]);
        if (value < 0 || padding != 0)
            return false;   /* not the alphabet, or data after padding */
        bits = (bits << 6) | (unsigned long)value;
        if (++held == 4) {
            out[used++] = (unsigned char)(bits >> 16);
            out[used++] = (unsigned char)(bits >> 8);
            out[used++] = (unsigned char)bits;
            bits = 0;
            held = 0;
        }
    }
    /* What is left: 2 characters are one byte, 3 are two; 1 is no byte.
     * Padding, when written, completes the last group exactly. */
    if (held == 1 || (padding != 0 && held + padding != 4) || padding > 2)
        return false;
    if (held == 2) {
        out[used++] = (unsigned char)(bits >> 4);
    } else if (held == 3) {
        out[used++] = (unsigned char)(bits >> 10);
        out[used++] = (unsigned char)(bits >> 2);
    }
    *decoded = used;
    return true;
}
