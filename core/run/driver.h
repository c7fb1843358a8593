/*
 * driver.h - the sandlint program: options, plugins, discovery, checks,
 * report, exit status.
 */
#ifndef SANDLINT_DRIVER_H
#define SANDLINT_DRIVER_H

/* Exit statuses (SPEC §2). */
#define EXIT_CLEAN 0
#define EXIT_FINDINGS 1
#define EXIT_TROUBLE 2

/* Runs sandlint; returns the exit status. */
int sandlint_main(int argc, char **argv);

#endif
