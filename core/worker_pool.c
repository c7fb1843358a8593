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
#define NO_STRING UINT32_MAX
/* Files outstanding per worker; refilled when half are done. */
#define BATCH 64
/* Results buffered in a worker before it writes them anyway. */
#define FLUSH_BYTES (256 * 1024)
/* Workers that die before taking a file, in a row, before we give up. */
#define MAX_IDLE_DEATHS 3
/* Longest path accepted in a task (both sides check it): discovery stops
 * at 1000 directory levels of at most 255 bytes. */
#define MAX_TASK_PATH (1024 * 1024)

/* Written by the worker, read by the coordinator. */
struct worker_status {
    volatile uint32_t file;         /* number of the file being checked */
    volatile uint32_t rule;         /* rule whose callback runs, or NO_RULE */
    volatile int64_t started_ms;    /* CLOCK_MONOTONIC, when file started */
};

/* A task: its header, then relative, display and package bytes.  The
 * file is opened as relative from base_fd, a descriptor of the walk that
 * the worker inherited when it was forked (discover.h). */
struct task_header {
    uint32_t number;
    int32_t base_fd;
    uint32_t relative_length;
    uint32_t display_length;
    uint32_t package_length;        /* NO_STRING: no package */
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

/* Takes one complete task out of inbox (from *at) into *file; returns
 * 1, 0 when more bytes are needed, or -1 when the task is malformed. */
static int take_task(const struct byte_buffer *inbox, size_t *at, uint32_t *number,
                     struct discovered_file *file)
{
    struct task_header header;
    if (inbox->length - *at < sizeof(header))
        return 0;
    memcpy(&header, inbox->data + *at, sizeof(header));
    if (header.relative_length > MAX_TASK_PATH || header.display_length > MAX_TASK_PATH ||
        (header.package_length > MAX_TASK_PATH && header.package_length != NO_STRING))
        return -1;
    size_t package = header.package_length == NO_STRING ? 0 : header.package_length;
    size_t size = sizeof(header) + header.relative_length + header.display_length + package;
    if (inbox->length - *at < size)
        return 0;
    const char *bytes = (const char *)inbox->data + *at + sizeof(header);
    memset(file, 0, sizeof(*file));
    file->base_fd = header.base_fd;
    file->relative = xmemdup(bytes, header.relative_length);
    file->display = xmemdup(bytes + header.relative_length, header.display_length);
    if (header.package_length != NO_STRING)
        file->package = xmemdup(bytes + header.relative_length + header.display_length,
                                package);
    *number = header.number;
    *at += size;
    return 1;
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
    struct byte_buffer inbox = { NULL, 0, 0 };
    size_t at = 0;
    for (;;) {
        uint32_t number;
        struct discovered_file file;
        int taken = take_task(&inbox, &at, &number, &file);
        if (taken < 0)
            _exit(4);
        if (taken == 0) {
            /* Nothing complete queued: send what we have, then wait. */
            if (results.length > 0 && !write_all(result_fd, results.data, results.length))
                _exit(5);
            results.length = 0;
            if (at > 0) {
                memmove(inbox.data, inbox.data + at, inbox.length - at);
                inbox.length -= at;
                at = 0;
            }
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
        size_t start = results.length;
        uint32_t header[2] = { number, 0 };
        byte_buffer_append(&results, header, sizeof(header));
        codec_encode(&check, &results);
        uint32_t payload = (uint32_t)(results.length - start - sizeof(header));
        memcpy(results.data + start + sizeof(uint32_t), &payload, sizeof(payload));
        file_check_release(&check);
        status->file = NO_FILE;
        discovered_file_release(&file);
        if (results.length >= FLUSH_BYTES) {
            if (!write_all(result_fd, results.data, results.length))
                _exit(5);
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
    file_result_take(&slot->result, &check);
    file_check_release(&check);
    complete(pool, number);
}

/* Pulls files from the source while the window has room. */
static void pull(struct pool *pool)
{
    while (!pool->source_done && pool->pulled - pool->delivered < pool->window) {
        struct discovered_file *file = pool->source(pool->source_data);
        if (file == NULL) {
            pool->source_done = true;
            return;
        }
        uint32_t number = pool->pulled++;
        struct slot *slot = slot_of(pool, number);
        slot->file = file;
        file_result_init(&slot->result);
        slot->ready = false;
        if (file->problem != NULL)
            complete_problem(pool, number);
        else
            pool->fresh[(pool->fresh_head + pool->fresh_count++) % pool->window] = number;
    }
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

static const char *rule_plugin(const struct pool *pool, uint32_t rule)
{
    const struct registry *registry = pool->settings->scan->registry;
    if (rule == NO_RULE || rule >= registry->rule_count)
        return NULL;
    return registry->plugins[registry->rules[rule].plugin].descriptor.name;
}

/* Gives a file an SL006 warning saying why it was not (completely)
 * checked. */
static void fail_file(struct pool *pool, uint32_t number, uint32_t rule,
                      const char *what)
{
    struct slot *slot = slot_of(pool, number);
    const struct discovered_file *file = slot->file;
    struct file_result *result = &slot->result;
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
        fprintf(stderr, "sandlint: worker processes keep failing before "
                        "checking anything (%s)\n", what);
        return -1;
    }
    if (!finished(pool) && spawn(pool, (unsigned)(worker - pool->workers)) != 0) {
        fprintf(stderr, "sandlint: cannot start a worker process: %s\n",
                strerror(errno));
        return -1;
    }
    return 0;
}

static void append_task(struct byte_buffer *tasks, uint32_t number,
                        const struct discovered_file *file)
{
    size_t relative = strlen(file->relative), display = strlen(file->display);
    size_t package = file->package ? strlen(file->package) : 0;
    if (relative > MAX_TASK_PATH)
        relative = 0;           /* never a shortened path: the open fails */
    if (display > MAX_TASK_PATH)
        display = MAX_TASK_PATH;
    if (package > MAX_TASK_PATH)
        package = MAX_TASK_PATH;
    struct task_header header = {
        number, file->base_fd, (uint32_t)relative, (uint32_t)display,
        file->package ? (uint32_t)package : NO_STRING,
    };
    byte_buffer_append(tasks, &header, sizeof(header));
    byte_buffer_append(tasks, file->relative, relative);
    byte_buffer_append(tasks, file->display, display);
    if (file->package != NULL)
        byte_buffer_append(tasks, file->package, package);
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
        append_task(&tasks, number, slot_of(pool, number)->file);
        count++;
    }
    int result = 0;
    if (count > 0 && !write_all(worker->task_fd, tasks.data, tasks.length))
        result = replace(pool, worker, NULL);
    byte_buffer_release(&tasks);
    return result;
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
        uint32_t number = worker->outstanding[0];
        struct slot *slot = slot_of(pool, number);
        const char *reason = NULL;
        file_result_release(&slot->result);
        if (codec_decode(frame + sizeof(header), header[1],
                         pool->settings->scan->registry->rule_count,
                         slot->file->display, slot->file->package, &slot->result,
                         &reason) != 0) {
            char what[160];
            snprintf(what, sizeof(what), "sent malformed results (%s)", reason);
            return replace(pool, worker, what);
        }
        consumed += size;
        memmove(worker->outstanding, worker->outstanding + 1,
                (worker->outstanding_count - 1) * sizeof(*worker->outstanding));
        worker->outstanding_count--;
        pool->idle_deaths = 0;
        complete(pool, number);
    }
    memmove(worker->inbox.data, worker->inbox.data + consumed,
            worker->inbox.length - consumed);
    worker->inbox.length -= consumed;
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

int pool_run(const struct pool_settings *settings, pool_source_fn source,
             void *source_data, pool_deliver_fn deliver, void *deliver_data)
{
    struct pool pool;
    memset(&pool, 0, sizeof(pool));
    pool.settings = settings;
    pool.source = source;
    pool.source_data = source_data;
    pool.deliver = deliver;
    pool.deliver_data = deliver_data;
    pool.count = settings->jobs ? settings->jobs : 1;
    /* Room for every worker's batch twice over, so none waits for the
     * slowest file to be delivered. */
    pool.window = (size_t)pool.count * BATCH * 2;
    pool.slots = xcalloc(pool.window, sizeof(*pool.slots));
    pool.requeued = xcalloc(pool.window, sizeof(*pool.requeued));
    pool.fresh = xcalloc(pool.window, sizeof(*pool.fresh));
    pool.status = mmap(NULL, pool.count * sizeof(*pool.status),
                       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (pool.status == MAP_FAILED) {
        fprintf(stderr, "sandlint: cannot share memory with workers: %s\n",
                strerror(errno));
        free(pool.slots);
        free(pool.requeued);
        free(pool.fresh);
        return -1;
    }
    pool.workers = xcalloc(pool.count, sizeof(*pool.workers));
    pool.fds = xcalloc(pool.count, sizeof(*pool.fds));
    for (unsigned i = 0; i < pool.count; i++) {
        pool.workers[i].pid = -1;
        pool.workers[i].outstanding = xcalloc(BATCH, sizeof(uint32_t));
    }
    /* A worker that dies must not kill the coordinator with SIGPIPE. */
    struct sigaction ignore, previous;
    memset(&ignore, 0, sizeof(ignore));
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &previous);

    int status = 0;
    pull(&pool);
    for (unsigned i = 0; i < pool.count && status == 0 && !finished(&pool); i++) {
        if (spawn(&pool, i) != 0) {
            fprintf(stderr, "sandlint: cannot start a worker process: %s\n",
                    strerror(errno));
            status = -1;
        }
    }
    while (status == 0 && !finished(&pool)) {
        for (unsigned i = 0; status == 0 && i < pool.count; i++)
            status = give_work(&pool, &pool.workers[i]);
        if (status == 0 && !finished(&pool))
            status = wait_and_collect(&pool);
    }
    shut_down(&pool);
    sigaction(SIGPIPE, &previous, NULL);
    for (unsigned i = 0; i < pool.count; i++) {
        byte_buffer_release(&pool.workers[i].inbox);
        free(pool.workers[i].outstanding);
    }
    for (size_t i = 0; i < pool.window; i++) {
        file_result_release(&pool.slots[i].result);
        discovered_file_free(pool.slots[i].file);
    }
    munmap(pool.status, pool.count * sizeof(*pool.status));
    free(pool.slots);
    free(pool.requeued);
    free(pool.fresh);
    free(pool.workers);
    free(pool.fds);
    return status;
}

void pool_run_in_process(const struct scan_settings *settings,
                         pool_source_fn source, void *source_data,
                         pool_deliver_fn deliver, void *deliver_data)
{
    struct discovered_file *file;
    while ((file = source(source_data)) != NULL) {
        struct file_check check;
        struct file_result result;
        scan_file(settings, file, &check);
        file_result_take(&result, &check);
        file_check_release(&check);
        deliver(deliver_data, file, &result);
        file_result_release(&result);
        discovered_file_free(file);
    }
}
