/*
 * front_ends.h - which front-end reads a document of each kind.
 *
 * The one place that maps a file kind (SL_KIND_*) to its front-end, for
 * the checker and for the unit tests' mock host alike.  Adding a format is
 * a front-end file and a line here.
 */
#ifndef SANDLINT_FRONT_ENDS_H
#define SANDLINT_FRONT_ENDS_H

#include "container_model.h"

/* Hands the steps of document root of a file of kind to reading->sink
 * (reading->root must be root).  A kind without a front-end reads
 * nothing. */
void front_ends_read(struct model_reading *reading, int kind, const struct sl_node *root);

#endif
