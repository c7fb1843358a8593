/* compose_syntax.c - limits, engine booleans, users, ports (see compose_syntax.h). */
#include "config.h"

#include "compose_syntax.h"

#include <string.h>

#include "sandlint/plugin.h"

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool text_equals(const char *text, size_t length, const char *word)
{
    return strlen(word) == length && memcmp(text, word, length) == 0;
}

int compose_limit(const char *text, size_t length, enum compose_number_form form,
                  double *amount)
{
    size_t i = 0;
    int negative = 0, nonzero = 0, digits = 0;
    double value = 0, scale = 1;
    *amount = 0;
    if (text == NULL)
        return SL_LIMIT_INVALID;
    if (i < length && (text[i] == '-' || text[i] == '+'))
        negative = text[i++] == '-';
    for (; i < length && is_digit(text[i]); i++, digits++) {
        nonzero |= text[i] != '0';
        value = value * 10 + (text[i] - '0');
    }
    if (form != COMPOSE_INTEGER && i < length && text[i] == '.') {
        for (i++; i < length && is_digit(text[i]); i++, digits++) {
            nonzero |= text[i] != '0';
            scale /= 10;
            value += (text[i] - '0') * scale;
        }
    }
    if (digits == 0)
        return SL_LIMIT_INVALID;
    if (form == COMPOSE_BYTES) {
        static const char units[] = "bkmgtp";
        if (i < length && text[i] == ' ')
            i++;
        if (i < length) {
            char unit = text[i] >= 'A' && text[i] <= 'Z' ? (char)(text[i] - 'A' + 'a')
                                                         : text[i];
            const char *at = memchr(units, unit, sizeof(units) - 1);
            if (at != NULL) {
                bool byte = unit == 'b';
                for (long power = at - units; power > 0; power--)
                    value *= 1024;
                i++;
                if (!byte && i < length && (text[i] == 'i' || text[i] == 'I'))
                    i++;
                if (!byte && i < length && (text[i] == 'b' || text[i] == 'B'))
                    i++;
            }
        }
    }
    if (i != length)
        return SL_LIMIT_INVALID;
    if (negative || !nonzero)
        return SL_LIMIT_NONE;
    *amount = value;
    return SL_LIMIT_SET;
}

int compose_parse_bool(const char *text, size_t length)
{
    static const char *const yes[] = { "1", "t", "T", "true", "TRUE", "True", NULL };
    static const char *const no[] = { "0", "f", "F", "false", "FALSE", "False", NULL };
    for (size_t i = 0; yes[i] != NULL; i++)
        if (text_equals(text, length, yes[i]))
            return 1;
    for (size_t i = 0; no[i] != NULL; i++)
        if (text_equals(text, length, no[i]))
            return 0;
    return -1;
}

bool compose_user_is_root(const char *text, size_t length)
{
    const char *colon = memchr(text, ':', length);
    size_t user = colon != NULL ? (size_t)(colon - text) : length;
    if (text_equals(text, user, "root"))
        return true;
    if (user == 0)
        return false;
    for (size_t i = 0; i < user; i++)
        if (text[i] != '0')
            return false;
    return true;
}

void compose_port_split(const char *text, size_t length, struct compose_port *port)
{
    size_t last = length, before_last = length;   /* positions of colons */
    int depth = 0;
    for (size_t i = 0; i < length; i++) {
        if (text[i] == '$' && i + 1 < length && text[i + 1] == '{') {
            depth++;
            i++;
        } else if (text[i] == '}' && depth > 0) {
            depth--;
        } else if (text[i] == ':' && depth == 0) {
            before_last = last;
            last = i;
        }
    }
    memset(port, 0, sizeof(*port));
    if (last == length) {
        port->container = text;
        port->container_length = length;
        return;
    }
    port->container = text + last + 1;
    port->container_length = length - last - 1;
    if (before_last == length) {
        port->host = text;
        port->host_length = last;
        return;
    }
    port->ip = text;
    port->ip_length = before_last;
    port->host = text + before_last + 1;
    port->host_length = last - before_last - 1;
}

bool compose_every_interface(const char *ip, size_t length)
{
    if (length >= 2 && ip[0] == '[' && ip[length - 1] == ']') {
        ip++;
        length -= 2;
    }
    for (size_t i = 0; i < length; i++)
        if (ip[i] != '0' && ip[i] != '.' && ip[i] != ':')
            return false;
    return true;
}

long compose_port_number(const char *text, size_t length)
{
    long port = 0;
    for (size_t i = 0; text != NULL && i < length && is_digit(text[i]); i++) {
        port = port * 10 + (text[i] - '0');
        if (port > 999999)
            return 0;
    }
    return port;
}
