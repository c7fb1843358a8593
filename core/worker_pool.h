/*
 * worker_pool.h - check files in worker processes.
 *
 * The coordinator forks --jobs workers (after plugins are loaded, so they
 * share them), hands each an index of the sorted file list over a pipe and
 * reads back the file's results in the validated wire form of
 * result_codec.h.  Workers give parallelism and crash isolation at once: a
 * worker that crashes, hangs past the per-file time limit or sends
 * malformed data is replaced, its file gets an SL006 warning naming the
 * plugin that was running, and the run goes on.  Results are stored by
 * file index, so the report is the same whatever the number of workers.
 */
#ifndef SANDLINT_WORKER_POOL_H
#define SANDLINT_WORKER_POOL_H

#include <stdbool.h>
#include <stddef.h>

#include "discover.h"
#include "result_codec.h"
#include "scan.h"

struct pool_settings {
    const struct scan_settings *scan;
    unsigned jobs;              /* worker processes (>= 1) */
    unsigned timeout_seconds;   /* per file; 0 = none */
    /* Called in each new worker before it reads anything (may be NULL);
     * returns 0, or -1 when the worker must not run (it then exits). */
    int (*worker_setup)(void *data);
    void *worker_setup_data;
};

/*
 * Receives file index's results, in index order whatever order the workers
 * finish in.  The callee may take what it wants out of *result; the pool
 * releases the rest afterwards.
 */
typedef void (*pool_deliver_fn)(void *data, size_t index,
                                struct file_result *result);

/*
 * Checks every file of discovery in workers and delivers each file's
 * results in order as soon as they and all before them are in (only the
 * files in flight are held).  Returns 0, or -1 after printing why when the
 * pool itself cannot work (no pipes, no processes, workers failing before
 * any file).
 */
int pool_run(const struct pool_settings *settings,
             const struct discovery *discovery, pool_deliver_fn deliver,
             void *data);

/* Checks every file in this process, one after another (--no-isolation). */
void pool_run_in_process(const struct scan_settings *settings,
                         const struct discovery *discovery,
                         pool_deliver_fn deliver, void *data);

#endif
