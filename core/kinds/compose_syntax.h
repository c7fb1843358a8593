/*
 * compose_syntax.h - how Compose and the Docker engine read the values of
 * settings the container model parses: limits and sizes, booleans of
 * engine options, users and published ports.  Pure functions: they read
 * their arguments and keep nothing.
 */
#ifndef SANDLINT_COMPOSE_SYNTAX_H
#define SANDLINT_COMPOSE_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>

/* The forms of number a limit takes. */
enum compose_number_form {
    COMPOSE_INTEGER = 0,        /* pids_limit, cpu_quota: -1, 0, 512 */
    COMPOSE_DECIMAL = 1,        /* cpus: 0.5, 2 */
    COMPOSE_BYTES = 2           /* mem_limit: 512m, 2g, 1.5GiB, 1073741824 */
};

/*
 * Reads text as a limit of the given form, as Compose's loader and
 * Docker's units package read it (an optional sign, digits, a decimal part,
 * and for bytes a unit b, k, m, g, t or p with an optional i and b, in any
 * case, after an optional space): SL_LIMIT_SET for a positive amount
 * (*amount receives it: bytes for BYTES), SL_LIMIT_NONE for 0 or a
 * negative one (no limit), SL_LIMIT_INVALID for text of another form.
 */
int compose_limit(const char *text, size_t length, enum compose_number_form form,
                  double *amount);

/* A boolean as Docker reads an engine option's value (Go's
 * strconv.ParseBool): 1 true, 0 false, -1 not a boolean. */
int compose_parse_bool(const char *text, size_t length);

/* Whether the user part of USER[:GROUP] is root: "root" or a UID of 0. */
bool compose_user_is_root(const char *text, size_t length);

/* A short-syntax ports item [[IP:]HOST:]CONTAINER[/PROTOCOL], split at the
 * colons outside ${...}: up to the last two colons is the host IP (an IPv6
 * address holds colons), then the host port.  Pointers into the text. */
struct compose_port {
    const char *ip;             /* NULL: no host IP written */
    size_t ip_length;
    const char *host;           /* NULL: no host port written */
    size_t host_length;
    const char *container;
    size_t container_length;
};

void compose_port_split(const char *text, size_t length, struct compose_port *port);

/* Whether a host address (brackets allowed) is the unspecified one: empty,
 * 0.0.0.0, ::, [::] and their longer spellings. */
bool compose_every_interface(const char *ip, size_t length);

/*
 * Why a short-syntax ports item is not one the engine accepts (Docker's
 * port-spec parser, which Compose uses): the host address is not an IPv4
 * or IPv6 address, the host port is not a port or a range ("8000-8010"),
 * the container port is missing or not one, the protocol is not tcp, udp or
 * sctp.  Parts holding an interpolation are not judged.  Returns NULL when
 * the item is valid, else the words of the reason.
 */
const char *compose_port_problem(const char *text, size_t length);

/* Whether a long-syntax published value (text as written) is a port or a
 * range; one holding an interpolation is not judged (true). */
bool compose_published_valid(const char *text, size_t length);

/* The number a host port ("80", "8000-8010") starts with, or 0 when it
 * starts with none; at most 999999 (a larger number is no port). */
long compose_port_number(const char *text, size_t length);

#endif
