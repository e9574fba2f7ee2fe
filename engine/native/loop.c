/* The measurement loops.
 *
 * Asynchronous (one thread per job, its own queue): fio's do_io with its defaults, so the device
 * sees what it sees under fio: each I/O is submitted on its own as it is queued
 * (iodepth_batch_submit=1); only when the queue is full does the thread wait, for at least one
 * completion, and it takes every completion that is there (iodepth_batch_complete_min=1, _max =
 * iodepth), reading the clock once for them all. Latency is fio's `lat`: from the clock read just
 * before the I/O is queued to the reap that saw it complete.
 *
 * Synchronous (a thread per outstanding I/O): each thread times its own call, submission to return.
 *
 * Either way, on a stop (signal, standard input closed, an error) nothing new is issued and every
 * I/O in flight is waited for before the thread ends. */
#include "ssdprof_io.h"

#include <stdio.h>
#include <stdlib.h>

#define IDLE_SLICE_NS 10000000ULL /* a paced thread with nothing in flight re-checks a stop this often */

void stop_run(int reason) {
    int expected = RUNNING;
    __atomic_compare_exchange_n(&g_run.stop, &expected, reason, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

int worker_stopping(const struct worker *w, uint64_t now) {
    (void)w;
    return __atomic_load_n(&g_run.stop, __ATOMIC_RELAXED) != RUNNING || now >= g_run.end_ns;
}

void worker_fail(struct worker *w, const char *what, const struct io_request *io, int64_t code) {
    char reason[160];
    describe_error(code, reason, sizeof reason);
    if (io) snprintf(w->error, sizeof w->error, "%s at offset %llu: %s", what, (unsigned long long)io->offset, reason);
    else snprintf(w->error, sizeof w->error, "%s: %s", what, reason);
    stop_run(STOP_ERROR);
}

/* Call with w->lock held (the progress thread reads `shown`). */
void record(struct worker *w, int dir, uint64_t submitted, uint64_t completed, uint32_t bytes) {
    uint64_t lat = completed > submitted ? completed - submitted : 0;
    latency_add(&w->shown[dir], lat, bytes, completed);
    if (completed >= g_run.cfg.ramp_ns && completed <= g_run.end_ns) latency_add(&w->total[dir], lat, bytes, completed);
}

static uint64_t since_start(void) { return now_ns() - g_run.start_ns; }

static int completed_ok(struct worker *w, const struct io_request *io, int64_t result) {
    uint32_t length = g_run.cfg.block_bytes;
    if (result < 0) {
        worker_fail(w, io->dir == DIR_READ ? "read" : "write", io, result);
        return 0;
    }
    if ((uint64_t)result != length) {
        snprintf(w->error, sizeof w->error, "short %s at offset %llu: %lld of %u bytes (the target ends there?)",
                 io->dir == DIR_READ ? "read" : "write", (unsigned long long)io->offset, (long long)result, length);
        stop_run(STOP_ERROR);
        return 0;
    }
    if (io->dir == DIR_READ && g_run.cfg.check_reads && check_read(w, io, w->error, sizeof w->error)) {
        stop_run(STOP_ERROR);
        return 0;
    }
    return 1;
}

struct async_state {
    int *free_slots, free_count, in_flight, issuing;
    uint64_t *submitted, due;
    struct io_request *ios;
    struct completion *done;
};

/* Queues I/O until the queue is full, the next arrival is not due, or the run stops issuing. */
static void fill(struct worker *w, struct async_state *s) {
    const struct queue_ops *ops = g_run.ops;
    int paced = g_run.cfg.rate_iops > 0;
    uint64_t now = since_start();
    while (s->issuing && s->free_count > 0) {
        if (worker_stopping(w, now)) { s->issuing = 0; break; }
        if (paced && s->due > now) break;
        if (!take_budget(w->job)) { s->issuing = 0; break; }
        int slot = s->free_slots[--s->free_count];
        struct io_request *io = &s->ios[slot];
        next_io(w, io, w->buffers + (size_t)slot * g_run.cfg.block_bytes);
        now = since_start();
        s->submitted[slot] = now;
        int rc = ops->issue(w->queue, slot, io, g_run.cfg.block_bytes);
        if (rc != 0) {
            s->free_slots[s->free_count++] = slot;
            if (rc > 0 && s->in_flight > 0) break; /* the queue is busy: reap, then go on */
            worker_fail(w, "submit", io, rc > 0 ? -rc : rc);
            s->issuing = 0;
            break;
        }
        s->in_flight++;
        w->issued[io->dir]++;
        if (paced) s->due = paced_due_ns(w, now);
    }
}

/* Reaps one completion, as fio does by default (iodepth_batch_complete_min = max = 1), so its slot is
 * filled again before the next is taken: the others wait in the completion queue, outstanding, and
 * their latency runs on until they are taken, as fio's lat does. Reaping a batch and refilling it
 * left the batch's slots empty while each was submitted again: at QD32 the loop held 27.3 I/Os on
 * average (Little's law) where fio holds 32, and its p50 read 15 % under fio's. */
static void reap(struct worker *w, struct async_state *s) {
    int n = g_run.ops->reap(w->queue, 1, s->done, 1);
    uint64_t completed = since_start();
    if (n < 0) {
        worker_fail(w, "waiting for completions", NULL, n);
        s->issuing = 0;
        s->in_flight = 0; /* the queue is gone: nothing more can be reaped from it */
        return;
    }
    mutex_lock(&w->lock);
    for (int i = 0; i < n; i++) {
        int slot = s->done[i].slot;
        struct io_request *io = &s->ios[slot];
        if (completed_ok(w, io, s->done[i].result)) record(w, io->dir, s->submitted[slot], completed, g_run.cfg.block_bytes);
        else s->issuing = 0;
        s->free_slots[s->free_count++] = slot;
    }
    mutex_unlock(&w->lock);
    s->in_flight -= n;
}

void run_async_worker(struct worker *w) {
    int depth = w->slots;
    struct async_state s = {
        .free_slots = calloc((size_t)depth, sizeof(int)), .free_count = depth, .issuing = 1,
        .submitted = calloc((size_t)depth, sizeof(uint64_t)), .ios = calloc((size_t)depth, sizeof(struct io_request)),
        .done = calloc((size_t)depth, sizeof(struct completion)),
    };
    for (int i = 0; i < depth; i++) s.free_slots[i] = depth - 1 - i;
    int attached = g_run.ops->attach ? g_run.ops->attach(w->queue) : 0;
    if (attached) {
        worker_fail(w, "enabling the queue in its thread", NULL, attached);
        s.issuing = 0;
    }
    if (g_run.cfg.rate_iops > 0) s.due = paced_due_ns(w, 0);
    for (;;) {
        fill(w, &s);
        if (s.in_flight > 0) {
            reap(w, &s);
            continue;
        }
        if (!s.issuing) break;
        uint64_t now = since_start(); /* paced, nothing in flight, the next arrival not yet due */
        if (s.due > now) sleep_ns(s.due - now < IDLE_SLICE_NS ? s.due - now : IDLE_SLICE_NS);
    }
    free(s.free_slots); free(s.submitted); free(s.ios); free(s.done);
}

void run_sync_worker(struct worker *w) {
    struct io_request io;
    uint32_t length = g_run.cfg.block_bytes;
    int paced = g_run.cfg.rate_iops > 0;
    for (;;) {
        uint64_t now = since_start();
        if (worker_stopping(w, now)) break;
        if (paced) {
            uint64_t due = paced_due_ns(w, now);
            while (!worker_stopping(w, now = since_start()) && due > now)
                sleep_ns(due - now < IDLE_SLICE_NS ? due - now : IDLE_SLICE_NS);
            if (worker_stopping(w, now)) break;
        }
        if (!take_budget(w->job)) break;
        next_io(w, &io, w->buffers);
        uint64_t submitted = since_start();
        int64_t result = sync_transfer(w->file, io.dir, io.buffer, length, io.offset);
        uint64_t completed = since_start();
        w->issued[io.dir]++;
        if (!completed_ok(w, &io, result)) break;
        mutex_lock(&w->lock);
        record(w, io.dir, submitted, completed, length);
        mutex_unlock(&w->lock);
    }
}
