/* worker_pool.c - check files in worker processes (see worker_pool.h).
 *
 * Round trips between processes cost more than checking a small Compose
 * file, so work moves in batches: the coordinator hands a worker up to
 * BATCH files at a time, and the worker sends results back when its queue
 * runs dry (or its buffer fills).  What a worker is doing right now - which
 * file, since when, in which rule - lives in a page of memory shared with
 * the coordinator: that names the file and plugin when a worker crashes or
 * hangs, and which files its replacement must check again.
 *
 * Files are numbered in the source's order; a window of WINDOW numbers is
 * in flight at most, and results are delivered in number order.
 */
#include "config.h"

#include "worker_pool.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "result_codec.h"
#include "terminal.h"
#include "worker_protocol.h"
#include "xalloc.h"

#define NO_RULE UINT32_MAX
#define NO_FILE UINT32_MAX
/* Files outstanding per worker; refilled when half are done. */
#define BATCH 64
/* Results buffered in a worker before it writes them anyway. */
#define FLUSH_BYTES (256 * 1024)
/* AddressSanitizer reserves terabytes of address space: no limit then. */
#if defined(__SANITIZE_ADDRESS__)
#define ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ADDRESS_SANITIZER 1
#endif
#endif
#ifndef ADDRESS_SANITIZER
#define ADDRESS_SANITIZER 0
#endif

/* Exit statuses of a worker that gives up by itself. */
#define WORKER_EXIT_SETUP 3             /* could not prepare or confine */
#define WORKER_EXIT_PROTOCOL 4          /* a malformed task, a broken pipe */
#define WORKER_EXIT_OUT_OF_MEMORY 86    /* an allocation failed */
/* Without --jobs, files waiting before another worker is worth starting. */
#define GROW_BACKLOG (2 * BATCH)
/* Workers that die before taking a file, in a row, before we give up. */
#define MAX_IDLE_DEATHS 3

/* Written by the worker, read by the coordinator. */
struct worker_status {
    volatile uint32_t file;         /* number of the file being checked */
    volatile uint32_t rule;         /* rule whose callback runs, or NO_RULE */
    volatile int64_t started_ms;    /* CLOCK_MONOTONIC, when file started */
};

struct worker {
    pid_t pid;
    int task_fd;                /* coordinator -> worker: tasks */
    int result_fd;              /* worker -> coordinator: result frames */
    uint32_t *outstanding;      /* numbers assigned, no result yet, in order */
    size_t outstanding_count;
    struct byte_buffer inbox;   /* bytes of frames being received */
};

/* A file in flight. */
struct slot {
    struct discovered_file *file;   /* NULL: slot free */
    struct file_result result;
    bool ready;
};

struct pool {
    const struct pool_settings *settings;
    pool_source_fn source;
    void *source_data;
    pool_deliver_fn deliver;
    void *deliver_data;
    bool source_done;
    struct slot *slots;             /* window, indexed by number % window */
    size_t window;
    uint32_t pulled;                /* numbers 0..pulled-1 came from source */
    uint32_t delivered;             /* numbers 0..delivered-1 delivered */
    uint32_t *requeued;             /* numbers to hand out again */
    size_t requeued_count;
    uint32_t *fresh;                /* ring of pulled numbers not yet assigned, */
    size_t fresh_head, fresh_count; /* handed out in order */
    struct worker *workers;
    struct worker_status *status;   /* shared, one per worker */
    struct pollfd *fds;
    unsigned count;
    unsigned idle_deaths;
    pid_t coordinator;              /* this process */
    struct sigaction previous_sigpipe;  /* restored by pool_close */
};

static int64_t now_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static bool write_all(int fd, const void *data, size_t length)
{
    const unsigned char *bytes = data;
    while (length > 0) {
        ssize_t wrote = write(fd, bytes, length);
        if (wrote < 0 && errno == EINTR)
            continue;
        if (wrote <= 0)
            return false;
        bytes += wrote;
        length -= (size_t)wrote;
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* the worker side                                                     */
/* ------------------------------------------------------------------ */

/* Closes the descriptors first..last (last UINT_MAX: all from first). */
static void close_from_to(unsigned first, unsigned last)
{
    if (first > last)
        return;
#ifdef SYS_close_range
    if (syscall(SYS_close_range, first, last, 0) == 0)
        return;
#endif
    /* Without close_range: up to the descriptor limit. */
    struct rlimit limit;
    unsigned highest = getrlimit(RLIMIT_NOFILE, &limit) == 0 &&
                       limit.rlim_cur < (1u << 20) ? (unsigned)limit.rlim_cur : 1u << 20;
    for (unsigned fd = first; fd <= last && fd < highest; fd++)
        close((int)fd);
}

static int compare_fds(const void *a, const void *b)
{
    int left = *(const int *)a, right = *(const int *)b;
    return (left > right) - (left < right);
}

/* Closes every descriptor above stderr but this worker's pipes and the
 * ones the caller keeps: the report, other workers' pipes, anything a
 * plugin's constructor opened. */
static void close_others(const struct pool_settings *settings, int task_fd,
                         int result_fd)
{
    size_t count = settings->keep_count + 2;
    int *keep = xcalloc(count, sizeof(*keep));
    keep[0] = task_fd;
    keep[1] = result_fd;
    for (size_t i = 0; i < settings->keep_count; i++)
        keep[i + 2] = settings->keep_fds[i];
    qsort(keep, count, sizeof(*keep), compare_fds);
    unsigned next = 3;
    for (size_t i = 0; i < count; i++) {
        if (keep[i] < (int)next)
            continue;
        close_from_to(next, (unsigned)keep[i] - 1);
        next = (unsigned)keep[i] + 1;
    }
    free(keep);
    close_from_to(next, UINT_MAX);
}

/* Everything a new worker does before it reads a task: it dies with the
 * coordinator, keeps only its pipes (and the descriptors the caller
 * names), has /dev/null as standard input, output and error, an address
 * space limit, and the caller's confinement. */
static void worker_prepare(const struct pool *pool, int task_fd, int result_fd)
{
    const struct pool_settings *settings = pool->settings;
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != pool->coordinator)
        _exit(WORKER_EXIT_SETUP);   /* the coordinator is already gone */
    if (settings->null_fd >= 0) {
        for (int fd = 0; fd <= 2; fd++)
            if (dup2(settings->null_fd, fd) < 0)
                _exit(WORKER_EXIT_SETUP);
    }
    close_others(settings, task_fd, result_fd);
    if (settings->max_memory != 0 && !ADDRESS_SANITIZER) {
        struct rlimit limit = { settings->max_memory, settings->max_memory };
        if (setrlimit(RLIMIT_AS, &limit) != 0)
            _exit(WORKER_EXIT_SETUP);
    }
    xalloc_set_exit_status(WORKER_EXIT_OUT_OF_MEMORY);
    if (settings->worker_setup != NULL &&
        settings->worker_setup(settings->worker_setup_data, result_fd) != 0)
        _exit(WORKER_EXIT_SETUP);
}

static _Noreturn void worker_main(const struct pool *pool, unsigned slot,
                                  int task_fd, int result_fd)
{
    const struct pool_settings *settings = pool->settings;
    struct worker_status *status = &pool->status[slot];
    worker_prepare(pool, task_fd, result_fd);
    check_set_rule_slot(&status->rule);
    struct byte_buffer results = BYTE_BUFFER_INIT;
    struct byte_buffer inbox = BYTE_BUFFER_INIT;
    size_t at = 0;
    for (;;) {
        uint32_t number;
        struct discovered_file file;
        int taken = protocol_take_task(&inbox, &at, &number, &file);
        if (taken < 0)
            _exit(WORKER_EXIT_PROTOCOL);
        if (taken == 0) {
            /* Nothing complete queued: send what we have, then wait. */
            if (results.length > 0 && !write_all(result_fd, results.data, results.length))
                _exit(WORKER_EXIT_PROTOCOL);
            results.length = 0;
            byte_buffer_consume(&inbox, at);
            at = 0;
            unsigned char chunk[16384];
            ssize_t got;
            do
                got = read(task_fd, chunk, sizeof(chunk));
            while (got < 0 && errno == EINTR);
            if (got <= 0)
                _exit(0);   /* the coordinator has no more files */
            byte_buffer_append(&inbox, chunk, (size_t)got);
            continue;
        }
        status->started_ms = now_ms();
        status->file = number;
        struct file_check check;
        scan_file(settings->scan, &file, &check);
        protocol_put_result(&results, number, &check.result);
        file_check_release(&check);
        status->file = NO_FILE;
        discovered_file_release(&file);
        if (results.length >= FLUSH_BYTES) {
            if (!write_all(result_fd, results.data, results.length))
                _exit(WORKER_EXIT_PROTOCOL);
            results.length = 0;
        }
    }
}

/* ------------------------------------------------------------------ */
/* the coordinator side: files in flight                               */
/* ------------------------------------------------------------------ */

static struct slot *slot_of(struct pool *pool, uint32_t number)
{
    return &pool->slots[number % pool->window];
}

/* Hands over every complete result that all earlier files precede. */
static void deliver_ready(struct pool *pool)
{
    for (;;) {
        struct slot *slot = slot_of(pool, pool->delivered);
        if (pool->delivered == pool->pulled || !slot->ready)
            return;
        pool->deliver(pool->deliver_data, slot->file, &slot->result);
        file_result_release(&slot->result);
        discovered_file_free(slot->file);
        memset(slot, 0, sizeof(*slot));
        pool->delivered++;
    }
}

static void complete(struct pool *pool, uint32_t number)
{
    slot_of(pool, number)->ready = true;
    deliver_ready(pool);
}

/* A file discovery could not read: its warning needs no worker. */
static void complete_problem(struct pool *pool, uint32_t number)
{
    struct slot *slot = slot_of(pool, number);
    struct file_check check;
    scan_file(pool->settings->scan, slot->file, &check);
    file_result_move(&slot->result, &check.result);
    file_check_release(&check);
    complete(pool, number);
}

/* Takes the source's next file into the window.  Returns false when the
 * source has no more. */
static bool pull_one(struct pool *pool)
{
    struct discovered_file *file = pool->source(pool->source_data);
    if (file == NULL) {
        pool->source_done = true;
        return false;
    }
    uint32_t number = pool->pulled++;
    struct slot *slot = slot_of(pool, number);
    slot->file = file;
    file_result_init(&slot->result, file->display, file->package);
    slot->ready = false;
    if (file->problem != NULL)
        complete_problem(pool, number);
    else
        pool->fresh[(pool->fresh_head + pool->fresh_count++) % pool->window] = number;
    return true;
}

/* Pulls files from the source while the window has room. */
static void pull(struct pool *pool)
{
    while (!pool->source_done && pool->pulled - pool->delivered < pool->window)
        if (!pull_one(pool))
            return;
}

/* Pulls files only until one waits for a worker (or the source is done):
 * the first worker then starts at once, and forks and confines itself
 * while the coordinator goes on finding files. */
static void pull_first(struct pool *pool)
{
    while (!pool->source_done && pool->fresh_count == 0 &&
           pool->pulled - pool->delivered < pool->window)
        if (!pull_one(pool))
            return;
}

static bool finished(const struct pool *pool)
{
    return pool->source_done && pool->delivered == pool->pulled;
}

/* ------------------------------------------------------------------ */
/* the coordinator side: workers                                       */
/* ------------------------------------------------------------------ */

static int spawn(struct pool *pool, unsigned index)
{
    int tasks[2], results[2];
    if (pipe2(tasks, O_CLOEXEC) != 0)
        return -1;
    if (pipe2(results, O_CLOEXEC) != 0) {
        close(tasks[0]);
        close(tasks[1]);
        return -1;
    }
    pool->status[index].rule = NO_RULE;
    pool->status[index].file = NO_FILE;
    fflush(NULL);   /* nothing buffered may be written twice */
    pid_t pid = fork();
    if (pid < 0) {
        close(tasks[0]);
        close(tasks[1]);
        close(results[0]);
        close(results[1]);
        return -1;
    }
    if (pid == 0) {
        /* Other workers' pipes must not keep them alive. */
        for (unsigned i = 0; i < pool->count; i++) {
            if (i != index && pool->workers[i].pid > 0) {
                close(pool->workers[i].task_fd);
                close(pool->workers[i].result_fd);
            }
        }
        close(tasks[1]);
        close(results[0]);
        signal(SIGPIPE, SIG_DFL);
        worker_main(pool, index, tasks[0], results[1]);
    }
    close(tasks[0]);
    close(results[1]);
    struct worker *worker = &pool->workers[index];
    worker->pid = pid;
    worker->task_fd = tasks[1];
    worker->result_fd = results[0];
    worker->outstanding_count = 0;
    worker->inbox.length = 0;
    return 0;
}

/* Gives a file the SL006 error saying why it was not (completely)
 * checked, in place of whatever its worker sent before it failed. */
static void fail_file(struct pool *pool, uint32_t number, uint32_t rule,
                      const char *what)
{
    struct slot *slot = slot_of(pool, number);
    struct file_result *result = &slot->result;
    file_result_release(result);
    file_result_init(result, slot->file->display, slot->file->package);
    file_result_add_failure(result, pool->settings->scan->registry,
                            rule == NO_RULE ? SIZE_MAX : rule, what);
    complete(pool, number);
}

/* Reaps a worker that is gone or must go, blames the file it was on, hands
 * its other files out again, and starts a fresh worker. */
static int replace(struct pool *pool, struct worker *worker, const char *what)
{
    struct worker_status *status = &pool->status[worker - pool->workers];
    kill(worker->pid, SIGKILL);
    int wait_status = 0;
    while (waitpid(worker->pid, &wait_status, 0) < 0 && errno == EINTR)
        ;
    char reason[128];
    if (what == NULL) {
        if (WIFSIGNALED(wait_status))
            snprintf(reason, sizeof(reason), "crashed (signal %d, %s)",
                     WTERMSIG(wait_status), strsignal(WTERMSIG(wait_status)));
        else if (WIFEXITED(wait_status) &&
                 WEXITSTATUS(wait_status) == WORKER_EXIT_OUT_OF_MEMORY)
            snprintf(reason, sizeof(reason), "ran out of memory (the --max-memory "
                     "limit is %zu MiB)", pool->settings->max_memory >> 20);
        else
            snprintf(reason, sizeof(reason), "crashed (exit status %d)",
                     WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1);
        what = reason;
    }
    close(worker->task_fd);
    close(worker->result_fd);
    worker->pid = -1;
    /* The file it was on is to blame; a worker that failed between files,
     * with files queued, is blamed on the first of them, so that a file
     * which kills workers cannot loop forever. */
    bool blamed = worker->outstanding_count > 0;
    uint32_t culprit = blamed ? worker->outstanding[0] : 0;
    uint32_t rule = NO_RULE;
    for (size_t i = 0; i < worker->outstanding_count; i++) {
        if (worker->outstanding[i] == status->file) {
            culprit = status->file;
            rule = status->rule;
        }
    }
    for (size_t i = 0; i < worker->outstanding_count; i++) {
        uint32_t number = worker->outstanding[i];
        if (number == culprit)
            fail_file(pool, number, rule, what);
        else    /* not started, or done but its results died with it */
            pool->requeued[pool->requeued_count++] = number;
    }
    worker->outstanding_count = 0;
    if (blamed) {
        pool->idle_deaths = 0;
    } else if (++pool->idle_deaths > MAX_IDLE_DEATHS) {
        terminal_error("sandlint: worker processes keep failing before "
                       "checking anything (%s)\n", what);
        return -1;
    }
    /* A replacement starts in the main loop when files wait for it. */
    return 0;
}

/*
 * Starts one more worker when files wait that the running workers will not
 * take now: the first whenever a file waits; later ones whenever files
 * wait with --jobs N, and only when a backlog of GROW_BACKLOG files waits
 * otherwise (a process costs more than checking a few small files).  No
 * worker is ever started without a file for it.  Returns the index of the
 * new worker plus one, 0 when none is needed, -1 when one cannot start.
 */
static int grow(struct pool *pool)
{
    unsigned live = 0, slot = pool->count;
    for (unsigned i = 0; i < pool->count; i++) {
        if (pool->workers[i].pid > 0)
            live++;
        else if (slot == pool->count)
            slot = i;
    }
    size_t waiting = pool->requeued_count + pool->fresh_count;
    if (slot == pool->count || waiting == 0)
        return 0;
    if (live > 0 && pool->settings->adaptive && waiting < GROW_BACKLOG)
        return 0;
    if (spawn(pool, slot) != 0) {
        terminal_error("sandlint: cannot start a worker process: %s\n",
                strerror(errno));
        return -1;
    }
    return (int)slot + 1;
}

static int give_work(struct pool *pool, struct worker *worker)
{
    if (worker->pid <= 0 || worker->outstanding_count > BATCH / 2)
        return 0;
    pull(pool);
    /* While files are few, keep some for the other workers. */
    size_t available = pool->requeued_count + pool->fresh_count;
    size_t share = pool->source_done ? available / pool->count + 1 : BATCH;
    struct byte_buffer tasks = { NULL, 0, 0 };
    size_t count = 0;
    while (worker->outstanding_count < BATCH && count < share) {
        uint32_t number;
        if (pool->requeued_count > 0)
            number = pool->requeued[--pool->requeued_count];
        else if (pool->fresh_count > 0) {
            number = pool->fresh[pool->fresh_head];
            pool->fresh_head = (pool->fresh_head + 1) % pool->window;
            pool->fresh_count--;
        }
        else
            break;
        worker->outstanding[worker->outstanding_count++] = number;
        protocol_put_task(&tasks, number, slot_of(pool, number)->file);
        count++;
    }
    int result = 0;
    if (count > 0 && !write_all(worker->task_fd, tasks.data, tasks.length))
        result = replace(pool, worker, NULL);
    byte_buffer_release(&tasks);
    return result;
}

/* Takes one frame for the worker's current file: a chunk of findings, or
 * the end of the file's results.  Returns 0, or -1 with *reason set. */
static int take_frame(struct pool *pool, struct worker *worker,
                      const struct frame *frame, const char **reason)
{
    if (worker->outstanding_count == 0 || frame->number != worker->outstanding[0]) {
        *reason = "a result for a file it was not checking";
        return -1;
    }
    uint32_t number = worker->outstanding[0];
    struct slot *slot = slot_of(pool, number);
    size_t rule_count = pool->settings->scan->registry->rule_count;
    if (frame->kind == FRAME_FINDINGS)
        return codec_decode_findings(frame->payload, frame->length, rule_count,
                                     &slot->result, reason);
    if (codec_decode_end(frame->payload, frame->length, &slot->result, reason) != 0)
        return -1;
    memmove(worker->outstanding, worker->outstanding + 1,
            (worker->outstanding_count - 1) * sizeof(*worker->outstanding));
    worker->outstanding_count--;
    pool->idle_deaths = 0;
    complete(pool, number);
    return 0;
}

/* Takes every complete frame out of the worker's inbox. */
static int receive(struct pool *pool, struct worker *worker)
{
    byte_buffer_reserve(&worker->inbox, 65536);
    ssize_t got = read(worker->result_fd, worker->inbox.data + worker->inbox.length,
                       worker->inbox.capacity - worker->inbox.length);
    if (got < 0 && (errno == EINTR || errno == EAGAIN))
        return 0;
    if (got <= 0)
        return replace(pool, worker, NULL);
    worker->inbox.length += (size_t)got;
    size_t consumed = 0;
    struct frame frame;
    const char *reason = NULL;
    int taken;
    while ((taken = protocol_next_frame(&worker->inbox, &consumed, &frame, &reason)) > 0)
        if (take_frame(pool, worker, &frame, &reason) != 0)
            break;
    if (reason != NULL) {
        char what[160];
        snprintf(what, sizeof(what), "sent malformed results (%s)", reason);
        return replace(pool, worker, what);
    }
    byte_buffer_consume(&worker->inbox, consumed);
    return 0;
}

/* Milliseconds the worker has spent on its current file, or -1. */
static int64_t busy_ms(const struct pool *pool, unsigned index)
{
    const struct worker_status *status = &pool->status[index];
    if (status->file == NO_FILE)
        return -1;
    return now_ms() - status->started_ms;
}

static int wait_and_collect(struct pool *pool)
{
    int64_t limit = (int64_t)pool->settings->timeout_seconds * 1000;
    int timeout = -1;
    unsigned watched = 0;
    for (unsigned i = 0; i < pool->count; i++) {
        struct worker *worker = &pool->workers[i];
        pool->fds[i].fd = worker->pid > 0 ? worker->result_fd : -1;
        pool->fds[i].events = POLLIN;
        pool->fds[i].revents = 0;
        if (worker->pid <= 0)
            continue;
        watched++;
        if (limit > 0 && worker->outstanding_count > 0) {
            /* Check again when the current file would run out of time (or
             * soon, if the worker has not started one yet). */
            int64_t busy = busy_ms(pool, i);
            int64_t left = busy < 0 ? 100 : limit - busy;
            if (left < 0)
                left = 0;
            if (timeout < 0 || left < timeout)
                timeout = (int)left;
        }
    }
    if (watched == 0)
        return -1;
    int ready = poll(pool->fds, pool->count, timeout);
    if (ready < 0 && errno != EINTR) {
        terminal_error("sandlint: poll: %s\n", strerror(errno));
        return -1;
    }
    for (unsigned i = 0; ready > 0 && i < pool->count; i++)
        if (pool->fds[i].revents != 0 && pool->workers[i].pid > 0 &&
            receive(pool, &pool->workers[i]) != 0)
            return -1;
    for (unsigned i = 0; limit > 0 && i < pool->count; i++) {
        if (pool->workers[i].pid <= 0 || busy_ms(pool, i) < limit)
            continue;
        char what[96];
        snprintf(what, sizeof(what), "timed out after %u seconds",
                 pool->settings->timeout_seconds);
        if (replace(pool, &pool->workers[i], what) != 0)
            return -1;
    }
    return 0;
}

static void shut_down(struct pool *pool)
{
    for (unsigned i = 0; i < pool->count; i++) {
        struct worker *worker = &pool->workers[i];
        if (worker->pid <= 0)
            continue;
        close(worker->task_fd);     /* EOF: the worker exits */
        close(worker->result_fd);
        if (worker->outstanding_count > 0)
            kill(worker->pid, SIGKILL);
        while (waitpid(worker->pid, NULL, 0) < 0 && errno == EINTR)
            ;
        worker->pid = -1;
    }
}

struct pool *pool_open(const struct pool_settings *settings)
{
    struct pool *pool = xcalloc(1, sizeof(*pool));
    pool->settings = settings;
    pool->count = settings->jobs ? settings->jobs : 1;
    pool->coordinator = getpid();
    /* Room for every worker's batch twice over, so none waits for the
     * slowest file to be delivered. */
    pool->window = (size_t)pool->count * BATCH * 2;
    pool->status = mmap(NULL, pool->count * sizeof(*pool->status),
                        PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (pool->status == MAP_FAILED) {
        terminal_error("sandlint: cannot share memory with workers: %s\n",
                strerror(errno));
        free(pool);
        return NULL;
    }
    pool->slots = xcalloc(pool->window, sizeof(*pool->slots));
    pool->requeued = xcalloc(pool->window, sizeof(*pool->requeued));
    pool->fresh = xcalloc(pool->window, sizeof(*pool->fresh));
    pool->workers = xcalloc(pool->count, sizeof(*pool->workers));
    pool->fds = xcalloc(pool->count, sizeof(*pool->fds));
    for (unsigned i = 0; i < pool->count; i++) {
        pool->workers[i].pid = -1;
        pool->workers[i].outstanding = xcalloc(BATCH, sizeof(uint32_t));
    }
    /* A worker that dies must not kill the coordinator with SIGPIPE. */
    struct sigaction ignore;
    memset(&ignore, 0, sizeof(ignore));
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &pool->previous_sigpipe);
    return pool;
}

/* Frees the files in flight and their results (after a failed run, or
 * when the pool closes). */
static void release_slots(struct pool *pool)
{
    for (size_t i = 0; i < pool->window; i++) {
        file_result_release(&pool->slots[i].result);
        discovered_file_free(pool->slots[i].file);
        memset(&pool->slots[i], 0, sizeof(pool->slots[i]));
    }
}

int pool_run(struct pool *pool, pool_source_fn source, void *source_data,
             pool_deliver_fn deliver, void *deliver_data)
{
    /* Every file of the previous run was delivered: the window is empty. */
    pool->source = source;
    pool->source_data = source_data;
    pool->deliver = deliver;
    pool->deliver_data = deliver_data;
    pool->source_done = false;
    pool->pulled = pool->delivered = 0;
    pool->requeued_count = pool->fresh_head = pool->fresh_count = 0;
    pool->idle_deaths = 0;

    int status = 0;
    pull_first(pool);
    while (status == 0 && !finished(pool)) {
        for (unsigned i = 0; status == 0 && i < pool->count; i++)
            status = give_work(pool, &pool->workers[i]);
        int grown;
        while (status == 0 && (grown = grow(pool)) != 0) {
            if (grown < 0)
                status = -1;
            else
                status = give_work(pool, &pool->workers[grown - 1]);
        }
        if (status == 0 && !finished(pool))
            status = wait_and_collect(pool);
    }
    if (status != 0) {
        /* The run is over for good: no worker is left with its files. */
        shut_down(pool);
        release_slots(pool);
    }
    return status;
}

void pool_close(struct pool *pool)
{
    if (pool == NULL)
        return;
    shut_down(pool);
    sigaction(SIGPIPE, &pool->previous_sigpipe, NULL);
    for (unsigned i = 0; i < pool->count; i++) {
        byte_buffer_release(&pool->workers[i].inbox);
        free(pool->workers[i].outstanding);
    }
    release_slots(pool);
    munmap(pool->status, pool->count * sizeof(*pool->status));
    free(pool->slots);
    free(pool->requeued);
    free(pool->fresh);
    free(pool->workers);
    free(pool->fds);
    free(pool);
}

void pool_run_in_process(const struct scan_settings *settings,
                         pool_source_fn source, void *source_data,
                         pool_deliver_fn deliver, void *deliver_data)
{
    struct discovered_file *file;
    while ((file = source(source_data)) != NULL) {
        struct file_check check;
        scan_file(settings, file, &check);
        deliver(deliver_data, file, &check.result);
        file_check_release(&check);
        discovered_file_free(file);
    }
}
