/* compose_syntax.c - limits, engine booleans, users, ports (see compose_syntax.h). */
#include "config.h"

#include "compose_syntax.h"

#include <string.h>

#include "compose_interpolation.h"
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

/* A port number: 1 to 5 digits, at most 65535. */
static bool is_port_number(const char *text, size_t length)
{
    if (length == 0 || length > 5)
        return false;
    long value = 0;
    for (size_t i = 0; i < length; i++) {
        if (!is_digit(text[i]))
            return false;
        value = value * 10 + (text[i] - '0');
    }
    return value <= 65535;
}

/* A port or a range START-END. */
static bool is_port_or_range(const char *text, size_t length)
{
    const char *dash = memchr(text, '-', length);
    if (dash == NULL)
        return is_port_number(text, length);
    size_t first = (size_t)(dash - text);
    return is_port_number(text, first) &&
           is_port_number(dash + 1, length - first - 1);
}

/* An IPv4 address: four decimal parts of at most 255. */
static bool is_ipv4(const char *text, size_t length)
{
    size_t parts = 0, i = 0;
    while (i <= length) {
        size_t start = i;
        long value = 0;
        while (i < length && is_digit(text[i]) && i - start < 3)
            value = value * 10 + (text[i++] - '0');
        if (i == start || value > 255)
            return false;
        parts++;
        if (i == length)
            break;
        if (text[i] != '.')
            return false;
        i++;
    }
    return parts == 4;
}

/* An IPv6 address, loosely: hex digits, ':' (at least two) and '.' (an
 * embedded IPv4 tail); brackets are taken off first. */
static bool is_ipv6(const char *text, size_t length)
{
    size_t colons = 0;
    for (size_t i = 0; i < length; i++) {
        char c = text[i];
        if (c == ':')
            colons++;
        else if (!is_digit(c) && c != '.' && !((c >= 'a' && c <= 'f') ||
                                              (c >= 'A' && c <= 'F')))
            return false;
    }
    return colons >= 2 && length <= 45;
}

static bool is_address(const char *text, size_t length)
{
    if (length >= 2 && text[0] == '[' && text[length - 1] == ']') {
        text++;
        length -= 2;
    }
    return is_ipv4(text, length) || is_ipv6(text, length);
}

const char *compose_port_problem(const char *text, size_t length)
{
    struct compose_port port;
    compose_port_split(text, length, &port);
    const char *container = port.container;
    size_t container_length = port.container_length;
    const char *slash = compose_has_interpolation(container, container_length)
                            ? NULL : memchr(container, '/', container_length);
    if (slash != NULL) {
        size_t protocol_start = (size_t)(slash - container) + 1;
        const char *protocol = container + protocol_start;
        size_t protocol_length = container_length - protocol_start;
        if (!text_equals(protocol, protocol_length, "tcp") &&
            !text_equals(protocol, protocol_length, "udp") &&
            !text_equals(protocol, protocol_length, "sctp"))
            return "its protocol is not tcp, udp or sctp";
        container_length = protocol_start - 1;
    }
    if (!compose_has_interpolation(container, container_length) &&
        !is_port_or_range(container, container_length))
        return "its container port is not a port or a range";
    if (port.host != NULL && port.host_length != 0 &&
        !compose_has_interpolation(port.host, port.host_length) &&
        !is_port_or_range(port.host, port.host_length))
        return "its host port is not a port or a range";
    if (port.ip != NULL && port.ip_length != 0 &&
        !compose_has_interpolation(port.ip, port.ip_length) &&
        !is_address(port.ip, port.ip_length))
        return "its host address is not an IP address";
    return NULL;
}

bool compose_published_valid(const char *text, size_t length)
{
    return compose_has_interpolation(text, length) || is_port_or_range(text, length);
}
