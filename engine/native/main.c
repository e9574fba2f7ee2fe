/* The run: choose the queue, open the target per thread, fill the buffers, start every thread at
 * one instant, print progress each second and the result at the end (the lines in README.md). */
#include "ssdprof_io.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUFFER_STRIDE_ALIGN 4096u
#define WAIT_SLICE_NS 20000000ULL

struct run g_run;

static size_t buffer_stride(void) {
    return ((size_t)g_run.cfg.block_bytes + BUFFER_STRIDE_ALIGN - 1) / BUFFER_STRIDE_ALIGN * BUFFER_STRIDE_ALIGN;
}

/* The first queue this machine lets us open (io_uring, then libaio; IOCP on Windows), each refusal kept. */
static const struct queue_ops *choose_queue(struct run *run, struct target_file *file) {
    const char *asked = run->cfg.engine;
    if (!strcmp(asked, "sync")) return NULL;
    size_t used = 0;
    for (const struct queue_ops *const *ops = platform_queues(); *ops; ops++) {
        if (strcmp(asked, "auto") && strcmp(asked, (*ops)->name)) continue;
        char why[200] = "";
        void *probe = NULL;
        if ((*ops)->open(&probe, file, 1, why, sizeof why) == 0) {
            (*ops)->close(probe);
            return *ops;
        }
        used += (size_t)snprintf(run->refusals + used, sizeof run->refusals - used, "%s%s refused: %s",
                                 used ? "; " : "", (*ops)->name, why);
        if (used >= sizeof run->refusals) used = sizeof run->refusals - 1;
    }
    if (strcmp(asked, "auto")) {
        if (run->refusals[0]) refuse("engine", 3, "%s", run->refusals);
        refuse("engine", 2, "--engine %s: not an I/O interface of this build on this OS", asked);
    }
    return NULL; /* synchronous threads: macOS, or Linux where both asynchronous interfaces are refused */
}

static void fill_random(unsigned char *p, size_t bytes, uint64_t rng[4]) {
    for (size_t at = 0; at + 8 <= bytes; at += 8) {
        uint64_t v = rng_next(rng);
        memcpy(p + at, &v, 8);
    }
}

static void set_up_worker(struct run *run, struct job *job, struct worker *w, int index, int slots) {
    w->job = job;
    w->index = index;
    w->slots = slots;
    rng_seed(w->rng, run->cfg.seed ^ ((uint64_t)job->index << 32) ^ (uint64_t)index);
    mutex_init(&w->lock);
    w->file = open_target(&run->cfg);
    size_t bytes = buffer_stride() * (size_t)slots;
    w->buffers = alloc_buffers(bytes);
    if (!w->buffers) refuse("queue_depth", 3, "could not allocate %zu bytes of I/O buffers", bytes);
    fill_random(w->buffers, bytes, w->rng);
    for (int s = 0; s < slots; s++) {
        uintptr_t address = (uintptr_t)(w->buffers + (size_t)s * buffer_stride());
        uintptr_t low = address & (~address + 1); /* the lowest set bit */
        if (low && low < run->alignment) run->alignment = (uint32_t)low;
    }
    if (run->ops) {
        char why[200] = "";
        int rc = run->ops->open(&w->queue, w->file, slots, why, sizeof why);
        if (rc) refuse("queue_depth", 3, "%s with %d entries: %s", run->ops->name, slots, why);
    }
}

static void set_up(struct run *run) {
    const struct config *c = &run->cfg;
    run->jobs = calloc((size_t)c->jobs, sizeof(struct job));
    plan_jobs(run);
    struct target_file *probe = open_target(c);
    run->ops = choose_queue(run, probe);
    close_target(probe);
    run->alignment = 1u << 31;
    for (int j = 0; j < c->jobs; j++) {
        struct job *job = &run->jobs[j];
        job->worker_count = run->ops ? 1 : c->depth;
        job->workers = calloc((size_t)job->worker_count, sizeof(struct worker));
        for (int i = 0; i < job->worker_count; i++) set_up_worker(run, job, &job->workers[i], i, run->ops ? c->depth : 1);
    }
    if (c->rate_iops > 0)
        for (int j = 0; j < c->jobs; j++) run->jobs[j].next_due_ns = 0;
}

static void worker_main(void *arg) {
    struct worker *w = arg;
    if (g_run.cfg.trace) run_trace_lane(w);
    else if (g_run.ops) run_async_worker(w);
    else run_sync_worker(w);
    __atomic_fetch_add(&g_run.workers_done, 1, __ATOMIC_SEQ_CST);
}

static int thread_count(void) { return g_run.cfg.jobs * g_run.jobs[0].worker_count; }

/* One progress line: what completed since the last one, every thread merged. */
static void print_progress(uint64_t elapsed_ns, uint64_t interval_ns) {
    static struct latency merged[2], taken;
    memset(merged, 0, sizeof merged);
    for (int j = 0; j < g_run.cfg.jobs; j++)
        for (int i = 0; i < g_run.jobs[j].worker_count; i++) {
            struct worker *w = &g_run.jobs[j].workers[i];
            for (int d = 0; d < 2; d++) {
                mutex_lock(&w->lock);
                taken = w->shown[d];
                memset(&w->shown[d], 0, sizeof w->shown[d]);
                mutex_unlock(&w->lock);
                latency_merge(&merged[d], &taken);
            }
        }
    printf("{\"type\":\"progress\",\"elapsed_ns\":%" PRIu64 ",\"interval_ns\":%" PRIu64 ",", elapsed_ns, interval_ns);
    print_latency("read", &merged[0]);
    printf(",");
    print_latency("write", &merged[1]);
    printf("}\n");
    fflush(stdout);
}

static void print_start(void) {
    printf("{\"type\":\"start\",\"version\":\"%s\",\"engine\":\"%s\",\"cache_bypass\":\"%s\",\"refusals\":\"%s\","
           "\"jobs\":%d,\"threads\":%d,\"buffer_alignment\":%u}\n",
           SSDPROF_IO_VERSION, g_run.ops ? g_run.ops->name : "sync", g_run.cfg.direct ? platform_cache_bypass() : "buffered",
           g_run.refusals, g_run.cfg.jobs, thread_count(), g_run.alignment);
    fflush(stdout);
}

static void print_errors(void) {
    const char *separator = "";
    printf("\"errors\":[");
    for (int j = 0; j < g_run.cfg.jobs; j++)
        for (int i = 0; i < g_run.jobs[j].worker_count; i++) {
            const char *e = g_run.jobs[j].workers[i].error;
            if (!e[0]) continue;
            printf("%s\"", separator);
            for (const char *p = e; *p; p++) printf(*p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
            printf("\"");
            separator = ",";
        }
    printf("]");
}

static void print_result(uint64_t wall_ns, uint64_t user_ns, uint64_t system_ns) {
    static const char *stops[] = {"done", "done", "signal", "stdin", "error"};
    struct latency *totals = calloc(2, sizeof(struct latency));
    uint64_t issued[2] = {0, 0};
    for (int j = 0; j < g_run.cfg.jobs; j++)
        for (int i = 0; i < g_run.jobs[j].worker_count; i++)
            for (int d = 0; d < 2; d++) {
                latency_merge(&totals[d], &g_run.jobs[j].workers[i].total[d]);
                issued[d] += g_run.jobs[j].workers[i].issued[d];
            }
    /* A time-based run that reached its end measured for its runtime, as fio's does; one that ended
     * early (its bytes done, a stop) for as long as its last counted I/O took to complete. */
    uint64_t last = totals[0].last_ns > totals[1].last_ns ? totals[0].last_ns : totals[1].last_ns;
    uint64_t runtime = last > g_run.cfg.ramp_ns ? last - g_run.cfg.ramp_ns : 0;
    if (!g_run.cfg.io_bytes && !g_run.cfg.trace && g_run.stop == RUNNING && runtime) runtime = g_run.cfg.runtime_ns;
    printf("{\"type\":\"result\",\"engine\":\"%s\",\"stopped\":\"%s\",\"elapsed_ns\":%" PRIu64 ",\"runtime_ns\":%" PRIu64
           ",\"cpu_user_ns\":%" PRIu64 ",\"cpu_system_ns\":%" PRIu64 ",\"issued_read_ios\":%" PRIu64
           ",\"issued_write_ios\":%" PRIu64 ",\"buffer_alignment\":%u,",
           g_run.ops ? g_run.ops->name : "sync", stops[g_run.stop], wall_ns, runtime, user_ns, system_ns, issued[0],
           issued[1], g_run.alignment);
    print_errors();
    printf(",");
    print_latency("read", &totals[0]);
    printf(",");
    print_latency("write", &totals[1]);
    printf("}\n");
    fflush(stdout);
    free(totals);
}

/* Progress every interval from the common start until every thread has ended. */
static uint64_t follow(void) {
    uint64_t tick = g_run.cfg.progress_ns, last = 0, elapsed = 0;
    while (__atomic_load_n(&g_run.workers_done, __ATOMIC_SEQ_CST) < thread_count()) {
        elapsed = now_ns() - g_run.start_ns;
        if (elapsed >= last + tick) {
            print_progress(last + tick, tick);
            last += tick;
            continue;
        }
        uint64_t wait = last + tick - elapsed;
        sleep_ns(wait < WAIT_SLICE_NS ? wait : WAIT_SLICE_NS);
    }
    elapsed = now_ns() - g_run.start_ns;
    if (elapsed > last) print_progress(elapsed, elapsed - last);
    return elapsed;
}

int ssdprof_io_main(int argc, char **argv) {
    struct config *c = &g_run.cfg;
    parse_args(argc, argv, c);
    install_stop_handlers();
    set_up(&g_run);
    print_start();
    if (c->watch_stdin) watch_stdin();
    uint64_t cap = c->runtime_ns ? c->runtime_ns : UINT64_MAX / 4;
    g_run.end_ns = c->ramp_ns + cap;
    uint64_t user0, system0, user1, system1;
    cpu_times_ns(&user0, &system0);
    int threads = thread_count();
    void **handles = calloc((size_t)threads, sizeof(void *));
    g_run.start_ns = now_ns();
    for (int j = 0, t = 0; j < c->jobs; j++)
        for (int i = 0; i < g_run.jobs[j].worker_count; i++) handles[t++] = thread_start(worker_main, &g_run.jobs[j].workers[i]);
    uint64_t wall = follow();
    for (int t = 0; t < threads; t++) thread_join(handles[t]);
    cpu_times_ns(&user1, &system1);
    print_result(wall, user1 - user0, system1 - system0);
    stop_run(STOP_DONE);
    for (int j = 0; j < c->jobs; j++)
        for (int i = 0; i < g_run.jobs[j].worker_count; i++) {
            struct worker *w = &g_run.jobs[j].workers[i];
            if (w->queue) g_run.ops->close(w->queue);
            close_target(w->file);
            free_buffers(w->buffers, buffer_stride() * (size_t)w->slots);
        }
    return g_run.stop == STOP_ERROR ? 1 : 0;
}
