/* worker_pool.c - check files in worker processes (see worker_pool.h).
 *
 * Round trips between processes cost more than checking a small Compose
 * file, so work moves in batches: the coordinator hands a worker up to
 * BATCH file indices at a time, and the worker sends results back when its
 * local queue runs dry (or its buffer fills).  What a worker is doing right
 * now - which file, since when, in which rule - lives in a page of memory
 * shared with the coordinator: that names the file and plugin when a
 * worker crashes or hangs, and which files must be checked again by its
 * replacement.
 */
#include "config.h"

#include "worker_pool.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "xalloc.h"

#define NO_RULE UINT32_MAX
#define NO_FILE UINT32_MAX
/* Files outstanding per worker; refilled when half are done. */
#define BATCH 64
/* Results buffered in a worker before it writes them anyway. */
#define FLUSH_BYTES (256 * 1024)
/* Workers that die before taking a file, in a row, before we give up. */
#define MAX_IDLE_DEATHS 3

/* Written by the worker, read by the coordinator. */
struct worker_status {
    volatile uint32_t file;         /* file being checked, or NO_FILE */
    volatile uint32_t rule;         /* rule whose callback runs, or NO_RULE */
    volatile int64_t started_ms;    /* CLOCK_MONOTONIC, when file started */
};

struct worker {
    pid_t pid;
    int task_fd;                /* coordinator -> worker: file indices */
    int result_fd;              /* worker -> coordinator: frames */
    size_t *outstanding;        /* assigned, no result yet, in order */
    size_t outstanding_count;
    struct byte_buffer inbox;   /* bytes of frames being received */
};

struct pool {
    const struct pool_settings *settings;
    const struct discovery *discovery;
    struct file_result *results;    /* held until delivered */
    bool *ready;                    /* results[i] is complete */
    size_t delivered;               /* files 0..delivered-1 are delivered */
    pool_deliver_fn deliver;
    void *deliver_data;
    struct worker *workers;
    struct worker_status *status;   /* shared, one per worker slot */
    struct pollfd *fds;             /* one per worker slot */
    unsigned count;
    size_t next, done;
    size_t *requeued;               /* files to hand out again */
    size_t requeued_count;
    unsigned idle_deaths;
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

/* Reads at least one index (blocking), and whatever else is there. */
static size_t read_indices(int fd, uint32_t *indices, size_t capacity)
{
    size_t bytes = 0;
    for (;;) {
        ssize_t got = read(fd, (unsigned char *)indices + bytes,
                           capacity * sizeof(*indices) - bytes);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return 0;
        bytes += (size_t)got;
        if (bytes % sizeof(*indices) == 0)
            return bytes / sizeof(*indices);
    }
}

static _Noreturn void worker_main(const struct pool *pool, unsigned slot,
                                  int task_fd, int result_fd)
{
    const struct pool_settings *settings = pool->settings;
    struct worker_status *status = &pool->status[slot];
    if (settings->worker_setup != NULL &&
        settings->worker_setup(settings->worker_setup_data) != 0)
        _exit(3);
    check_set_rule_slot(&status->rule);
    struct byte_buffer results = { NULL, 0, 0 };
    uint32_t queue[BATCH];
    for (;;) {
        /* Nothing queued: send what we have, then wait for more. */
        if (results.length > 0 && !write_all(result_fd, results.data, results.length))
            _exit(5);
        results.length = 0;
        size_t count = read_indices(task_fd, queue, BATCH);
        if (count == 0)
            _exit(0);   /* the coordinator has no more files */
        for (size_t i = 0; i < count; i++) {
            uint32_t index = queue[i];
            if (index >= pool->discovery->count)
                _exit(4);
            status->started_ms = now_ms();
            status->file = index;
            struct file_check check;
            scan_file(settings->scan, &pool->discovery->files[index], &check);
            size_t start = results.length;
            uint32_t header[2] = { index, 0 };
            byte_buffer_append(&results, header, sizeof(header));
            codec_encode(&check, &results);
            uint32_t payload = (uint32_t)(results.length - start - sizeof(header));
            memcpy(results.data + start + sizeof(uint32_t), &payload, sizeof(payload));
            file_check_release(&check);
            status->file = NO_FILE;
            if (results.length >= FLUSH_BYTES) {
                if (!write_all(result_fd, results.data, results.length))
                    _exit(5);
                results.length = 0;
            }
        }
    }
}

/* ------------------------------------------------------------------ */
/* the coordinator side                                                */
/* ------------------------------------------------------------------ */

static int spawn(struct pool *pool, unsigned slot)
{
    int tasks[2], results[2];
    if (pipe2(tasks, O_CLOEXEC) != 0)
        return -1;
    if (pipe2(results, O_CLOEXEC) != 0) {
        close(tasks[0]);
        close(tasks[1]);
        return -1;
    }
    pool->status[slot].rule = NO_RULE;
    pool->status[slot].file = NO_FILE;
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
            if (i != slot && pool->workers[i].pid > 0) {
                close(pool->workers[i].task_fd);
                close(pool->workers[i].result_fd);
            }
        }
        close(tasks[1]);
        close(results[0]);
        signal(SIGPIPE, SIG_DFL);
        worker_main(pool, slot, tasks[0], results[1]);
    }
    close(tasks[0]);
    close(results[1]);
    struct worker *worker = &pool->workers[slot];
    worker->pid = pid;
    worker->task_fd = tasks[1];
    worker->result_fd = results[0];
    worker->outstanding_count = 0;
    worker->inbox.length = 0;
    return 0;
}

static const char *rule_plugin(const struct pool *pool, uint32_t rule)
{
    const struct registry *registry = pool->settings->scan->registry;
    if (rule == NO_RULE || rule >= registry->rule_count)
        return NULL;
    return registry->plugins[registry->rules[rule].plugin].descriptor.name;
}

/* Hands over every complete result that all earlier files precede. */
static void deliver_ready(struct pool *pool)
{
    while (pool->delivered < pool->discovery->count && pool->ready[pool->delivered]) {
        size_t index = pool->delivered++;
        pool->deliver(pool->deliver_data, index, &pool->results[index]);
        file_result_release(&pool->results[index]);
    }
}

/* Records that file index's results are in. */
static void complete(struct pool *pool, size_t index)
{
    pool->ready[index] = true;
    pool->done++;
    deliver_ready(pool);
}

/* Gives file index an SL006 warning saying why it was not (completely)
 * checked. */
static void fail_file(struct pool *pool, size_t index, uint32_t rule,
                      const char *what)
{
    const struct discovered_file *file = &pool->discovery->files[index];
    struct file_result *result = &pool->results[index];
    file_result_release(result);
    const char *plugin = rule_plugin(pool, rule);
    char *message = plugin != NULL
        ? xasprintf("plugin %s %s on %s; the file was not completely checked",
                    plugin, what, file->display)
        : xasprintf("sandlint %s while checking %s; the file was not "
                    "completely checked", what, file->display);
    struct finding *finding = finding_list_add(&result->findings);
    finding->rule = CORE_RULE_PLUGIN;
    finding->severity = SL_SEVERITY_WARNING;
    finding->status = STATUS_WARN;
    finding->file = xstrdup(file->display);
    finding->package = file->package ? xstrdup(file->package) : NULL;
    finding->message = message;
    finding->hint = xstrdup("report the problem to the plugin's authors; "
                            "--no-isolation runs checks in one process for "
                            "debugging");
    result->plugin_failed = true;
    result->incomplete = true;
    complete(pool, index);
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
    size_t culprit = blamed ? worker->outstanding[0] : 0;
    uint32_t rule = NO_RULE;
    for (size_t i = 0; i < worker->outstanding_count; i++) {
        if (worker->outstanding[i] == status->file) {
            culprit = status->file;
            rule = status->rule;
        }
    }
    for (size_t i = 0; i < worker->outstanding_count; i++) {
        size_t index = worker->outstanding[i];
        if (index == culprit)
            fail_file(pool, index, rule, what);
        else    /* not started, or done but its results died with it */
            pool->requeued[pool->requeued_count++] = index;
    }
    worker->outstanding_count = 0;
    if (blamed) {
        pool->idle_deaths = 0;
    } else if (++pool->idle_deaths > MAX_IDLE_DEATHS) {
        fprintf(stderr, "sandlint: worker processes keep failing before "
                        "checking anything (%s)\n", what);
        return -1;
    }
    if (pool->done < pool->discovery->count &&
        spawn(pool, (unsigned)(worker - pool->workers)) != 0) {
        fprintf(stderr, "sandlint: cannot start a worker process: %s\n",
                strerror(errno));
        return -1;
    }
    return 0;
}

static int give_work(struct pool *pool, struct worker *worker)
{
    if (worker->pid <= 0 || worker->outstanding_count > BATCH / 2)
        return 0;
    /* Keep some files for the others while files are few. */
    size_t remaining = pool->discovery->count - pool->next + pool->requeued_count;
    size_t share = remaining / pool->count + 1;
    uint32_t batch[BATCH];
    unsigned count = 0;
    while (worker->outstanding_count < BATCH && count < share) {
        size_t index;
        if (pool->requeued_count > 0)
            index = pool->requeued[--pool->requeued_count];
        else if (pool->next < pool->discovery->count)
            index = pool->next++;
        else
            break;
        worker->outstanding[worker->outstanding_count++] = index;
        batch[count++] = (uint32_t)index;
    }
    if (count == 0)
        return 0;
    if (!write_all(worker->task_fd, batch, count * sizeof(*batch)))
        return replace(pool, worker, NULL);
    return 0;
}

/* Takes every complete frame out of the worker's inbox. */
static int receive(struct pool *pool, struct worker *worker)
{
    if (worker->inbox.capacity - worker->inbox.length < 65536) {
        worker->inbox.capacity = worker->inbox.capacity ? worker->inbox.capacity * 2 : 131072;
        worker->inbox.data = xrealloc(worker->inbox.data, worker->inbox.capacity, 1);
    }
    ssize_t got = read(worker->result_fd, worker->inbox.data + worker->inbox.length,
                       worker->inbox.capacity - worker->inbox.length);
    if (got < 0 && (errno == EINTR || errno == EAGAIN))
        return 0;
    if (got <= 0)
        return replace(pool, worker, NULL);
    worker->inbox.length += (size_t)got;
    size_t consumed = 0;
    while (worker->inbox.length - consumed >= 2 * sizeof(uint32_t)) {
        const unsigned char *frame = worker->inbox.data + consumed;
        uint32_t header[2];
        memcpy(header, frame, sizeof(header));
        if (worker->outstanding_count == 0 || header[0] != worker->outstanding[0] ||
            header[1] > CODEC_MAX_PAYLOAD)
            return replace(pool, worker, "sent malformed results");
        size_t size = sizeof(header) + header[1];
        if (worker->inbox.length - consumed < size)
            break;
        size_t index = worker->outstanding[0];
        const struct discovered_file *file = &pool->discovery->files[index];
        const char *reason = NULL;
        struct file_result *result = &pool->results[index];
        file_result_release(result);
        if (codec_decode(frame + sizeof(header), header[1],
                         pool->settings->scan->registry->rule_count, file->display,
                         file->package, result, &reason) != 0) {
            char what[160];
            snprintf(what, sizeof(what), "sent malformed results (%s)", reason);
            return replace(pool, worker, what);
        }
        consumed += size;
        memmove(worker->outstanding, worker->outstanding + 1,
                (worker->outstanding_count - 1) * sizeof(*worker->outstanding));
        worker->outstanding_count--;
        pool->idle_deaths = 0;
        complete(pool, index);
    }
    memmove(worker->inbox.data, worker->inbox.data + consumed,
            worker->inbox.length - consumed);
    worker->inbox.length -= consumed;
    return 0;
}

/* Milliseconds the worker has spent on its current file, or -1. */
static int64_t busy_ms(const struct pool *pool, unsigned slot)
{
    const struct worker_status *status = &pool->status[slot];
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
        fprintf(stderr, "sandlint: poll: %s\n", strerror(errno));
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

int pool_run(const struct pool_settings *settings,
             const struct discovery *discovery, pool_deliver_fn deliver,
             void *data)
{
    if (discovery->count == 0)
        return 0;
    struct pool pool;
    memset(&pool, 0, sizeof(pool));
    pool.settings = settings;
    pool.discovery = discovery;
    pool.deliver = deliver;
    pool.deliver_data = data;
    pool.results = xcalloc(discovery->count, sizeof(*pool.results));
    pool.ready = xcalloc(discovery->count, sizeof(*pool.ready));
    for (size_t i = 0; i < discovery->count; i++)
        file_result_init(&pool.results[i]);
    pool.count = settings->jobs ? settings->jobs : 1;
    if (pool.count > discovery->count)
        pool.count = (unsigned)discovery->count;
    pool.status = mmap(NULL, pool.count * sizeof(*pool.status),
                       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (pool.status == MAP_FAILED) {
        fprintf(stderr, "sandlint: cannot share memory with workers: %s\n",
                strerror(errno));
        free(pool.results);
        free(pool.ready);
        return -1;
    }
    pool.workers = xcalloc(pool.count, sizeof(*pool.workers));
    pool.fds = xcalloc(pool.count, sizeof(*pool.fds));
    pool.requeued = xcalloc(pool.count * BATCH + 1, sizeof(*pool.requeued));
    for (unsigned i = 0; i < pool.count; i++) {
        pool.workers[i].pid = -1;
        pool.workers[i].outstanding = xcalloc(BATCH, sizeof(size_t));
    }
    /* A worker that dies must not kill the coordinator with SIGPIPE. */
    struct sigaction ignore, previous;
    memset(&ignore, 0, sizeof(ignore));
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &previous);

    int status = 0;
    for (unsigned i = 0; i < pool.count && status == 0; i++) {
        if (spawn(&pool, i) != 0) {
            fprintf(stderr, "sandlint: cannot start a worker process: %s\n",
                    strerror(errno));
            status = -1;
        }
    }
    while (status == 0 && pool.done < discovery->count) {
        for (unsigned i = 0; status == 0 && i < pool.count; i++)
            status = give_work(&pool, &pool.workers[i]);
        if (status == 0)
            status = wait_and_collect(&pool);
    }
    shut_down(&pool);
    sigaction(SIGPIPE, &previous, NULL);
    for (unsigned i = 0; i < pool.count; i++) {
        byte_buffer_release(&pool.workers[i].inbox);
        free(pool.workers[i].outstanding);
    }
    munmap(pool.status, pool.count * sizeof(*pool.status));
    for (size_t i = 0; i < discovery->count; i++)
        file_result_release(&pool.results[i]);
    free(pool.results);
    free(pool.ready);
    free(pool.workers);
    free(pool.fds);
    free(pool.requeued);
    return status;
}

void pool_run_in_process(const struct scan_settings *settings,
                         const struct discovery *discovery,
                         pool_deliver_fn deliver, void *data)
{
    for (size_t i = 0; i < discovery->count; i++) {
        struct file_check check;
        struct file_result result;
        scan_file(settings, &discovery->files[i], &check);
        file_result_take(&result, &check);
        file_check_release(&check);
        deliver(data, i, &result);
        file_result_release(&result);
    }
}
