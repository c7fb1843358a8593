/*
 * worker_pool.h - check files in worker processes.
 *
 * The coordinator forks --jobs workers (after plugins are loaded, so they
 * share them; the first as soon as a file waits, the others as files
 * pile up), hands them files over a pipe and reads back each file's
 * results in the validated wire form of result_codec.h.  Workers give
 * parallelism and crash isolation at once: a worker that crashes, hangs
 * past the per-file time limit or sends malformed data is replaced, its
 * file gets an SL006 warning naming the plugin that was running, and the
 * run goes on.  Files are pulled from a source as workers need them and
 * delivered in the source's order, so only the files in flight are held
 * and the report is the same whatever the number of workers.
 */
#ifndef SANDLINT_WORKER_POOL_H
#define SANDLINT_WORKER_POOL_H

#include <stdbool.h>
#include <stddef.h>

#include "discover.h"
#include "file_result.h"
#include "scan.h"

/* The next file to check (owned by the pool from then on), or NULL. */
typedef struct discovered_file *(*pool_source_fn)(void *data);

/*
 * Receives a file and its results, in the source's order.  The callee may
 * take what it wants out of *result (file_result_move); the pool frees the
 * rest and the file.
 */
typedef void (*pool_deliver_fn)(void *data, const struct discovered_file *file,
                                struct file_result *result);

struct pool_settings {
    const struct scan_settings *scan;
    unsigned jobs;              /* most worker processes (>= 1) */
    bool adaptive;              /* start more than one only when a backlog
                                   of files repays it (no --jobs) */
    unsigned timeout_seconds;   /* per file; 0 = none */
    size_t max_memory;          /* address space per worker; 0 = none */
    int null_fd;                /* /dev/null, opened before confinement, for
                                   the workers' fds 0-2; -1 = leave them */
    const int *keep_fds;        /* descriptors workers keep besides their
                                   pipes (borrowed; e.g. directories they
                                   open files under) */
    size_t keep_count;
    /* Called in each new worker, after its descriptors are arranged and
     * before it reads anything (may be NULL), with the descriptor it
     * writes results to; returns 0, or -1 when the worker must not run (it
     * then exits). */
    int (*worker_setup)(void *data, int result_fd);
    void *worker_setup_data;
};

struct pool;

/*
 * Prepares a pool of at most settings->jobs workers; none is started yet.
 * settings (and what it points to) is borrowed until pool_close.  Ignores
 * SIGPIPE until pool_close.  Returns the pool, or NULL after printing why.
 */
struct pool *pool_open(const struct pool_settings *settings);

/*
 * Checks every file of the source in the pool's workers and delivers each
 * file's results in order.  Workers start as files wait for them and stay
 * for the next run (the files that include and extends name come in
 * rounds: a round costs no new process).  Returns 0, or -1 after printing
 * why when the pool itself cannot work (no pipes, no processes, workers
 * failing before any file); after -1 the pool has no workers and every
 * file it held is freed.
 */
int pool_run(struct pool *pool, pool_source_fn source, void *source_data,
             pool_deliver_fn deliver, void *deliver_data);

/* Ends the workers, restores SIGPIPE and frees the pool (accepts NULL). */
void pool_close(struct pool *pool);

/* Checks every file in this process, one after another (--no-isolation). */
void pool_run_in_process(const struct scan_settings *settings,
                         pool_source_fn source, void *source_data,
                         pool_deliver_fn deliver, void *deliver_data);

#endif
