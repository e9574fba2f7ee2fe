/* ssdprof-io: the portable engine's compiled I/O loop (see README.md in this folder).
 *
 * One program for Linux (io_uring, libaio, synchronous threads), macOS (synchronous threads on
 * F_NOCACHE) and Windows (overlapped I/O on a completion port). The engine starts it as it starts
 * fio, with the point as arguments, and reads JSON lines from its standard output.
 */
#ifndef SSDPROF_IO_H
#define SSDPROF_IO_H

#include <stddef.h>
#include <stdint.h>

#define SSDPROF_IO_VERSION "1"

/* fio's latency histogram layout (stat.h; engine/ssdprof/model/histogram.py). */
#define PLAT_BITS 6
#define PLAT_VAL (1 << PLAT_BITS)
#define PLAT_GROUP_NR 29
#define PLAT_NR (PLAT_GROUP_NR * PLAT_VAL)

#define SECTOR_BYTES 512
#define STAMP_MAGIC 0x5353445052464f49ULL /* "SSDPRFOI" */
#define MAX_JOBS 256
#define MAX_DEPTH 4096

enum { DIR_READ = 0, DIR_WRITE = 1 };
enum stop_reason { RUNNING = 0, STOP_DONE, STOP_SIGNAL, STOP_STDIN, STOP_ERROR };

struct config {
    const char *target;
    uint64_t offset_bytes;   /* where the region starts in the target */
    uint64_t size_bytes;     /* the region's length */
    uint32_t block_bytes;
    int random;
    int read_pct;
    int depth;               /* outstanding I/Os per job */
    int jobs;
    uint64_t runtime_ns;     /* measured time after the ramp; with io_bytes a cap */
    uint64_t ramp_ns;
    uint64_t io_bytes;       /* 0: time based; else the bytes all jobs do together (fio io_size) */
    double rate_iops;        /* 0: keep the queue full; else Poisson arrivals over all jobs */
    uint64_t seed;
    int direct;
    int check_reads;         /* tests: every read sector must carry its own offset's stamp */
    int watch_stdin;         /* stop when standard input closes (the engine went away) */
    const char *engine;      /* "auto" or a queue's name */
    uint64_t progress_ns;
    const char *trace;       /* a fio iolog v3 replayed instead of a pattern (trace.c); NULL: none */
    int trace_fastest;       /* the trace's I/Os back to back per lane, not at their recorded times */
    const char *issue_log;   /* where each replayed I/O's submission time is written; NULL: nowhere */
};

/* Latency summary of one direction: fio-layout bins plus exact count, mean, spread, extremes. */
struct latency {
    uint64_t counts[PLAT_NR];
    uint64_t n;
    double mean, m2;
    uint64_t min_ns, max_ns;
    uint64_t bytes;
    uint64_t last_ns;        /* the latest completion, ns after the start */
};

struct platform_mutex { _Alignas(16) unsigned char opaque[64]; };
struct target_file { intptr_t handle; /* a descriptor, or a Windows HANDLE */ };

struct job;

/* One thread's share of the work and what it measured. */
struct worker {
    struct job *job;
    int index;               /* within the job */
    uint64_t rng[4];
    uint64_t writes_stamped;
    struct platform_mutex lock;  /* guards `shown` between the worker and the progress thread */
    struct latency shown[2];     /* since the last progress line, ramp included */
    struct latency total[2];     /* measured: completions after the ramp, before the end */
    uint64_t issued[2];          /* I/Os issued, ramp included */
    void *queue;                 /* the asynchronous queue; NULL for a synchronous thread */
    unsigned char *buffers;      /* depth (or 1) aligned buffers of block_bytes */
    int slots;
    struct target_file *file;    /* this worker's own open of the target */
    char error[256];
};

struct job {
    int index;
    uint64_t region_start, region_blocks;
    uint64_t io_limit_bytes;     /* 0: time based */
    uint64_t seq_cursor[2];      /* sequential: next block per direction (atomic where threads share) */
    uint64_t issued_bytes;       /* atomic */
    double next_due_ns;          /* paced: the next arrival; guarded by due_lock where threads share */
    double mean_gap_ns;
    int schedule_restarted;      /* paced: the schedule began again at the ramp's end */
    struct platform_mutex due_lock;
    struct worker *workers;
    int worker_count;
};

struct run {
    struct config cfg;
    struct job *jobs;
    const struct queue_ops *ops;  /* NULL: synchronous threads */
    char refusals[512];
    uint64_t start_ns;            /* monotonic clock at the common start */
    uint64_t end_ns;              /* start + ramp + runtime (relative) */
    volatile int stop;            /* enum stop_reason, set once */
    volatile int workers_done;
    uint32_t alignment;           /* the largest power of two every buffer address is a multiple of */
};

extern struct run g_run;

/* An I/O the loop asked for and what came back. */
struct io_request { uint64_t offset; int dir; unsigned char *buffer; };
struct completion { int slot; int64_t result; /* bytes, or -(error code) */ };

/* An asynchronous queue (io_uring, libaio, IOCP): one per worker, used by that worker only. */
struct queue_ops {
    const char *name;
    /* 0, or an error code (refusal) with a reason written to `why`. */
    int (*open)(void **queue, struct target_file *file, int depth, char *why, size_t why_len);
    /* Called by the worker thread before its first I/O (NULL where nothing is needed); 0 or -(error code). */
    int (*attach)(void *queue);
    /* Submits one I/O now (fio's iodepth_batch_submit=1); 0 or an error code. */
    int (*issue)(void *queue, int slot, const struct io_request *io, uint32_t length);
    /* Waits until at least `min` completions are there (0: do not wait), takes up to `max`. */
    int (*reap)(void *queue, int min, struct completion *out, int max);
    void (*close)(void *queue);
};

/* plan.c: where each I/O goes, what a write carries, when a paced arrival is due. */
void plan_jobs(struct run *run);
void rng_seed(uint64_t state[4], uint64_t seed);
uint64_t rng_next(uint64_t state[4]);
void next_io(struct worker *w, struct io_request *io, unsigned char *buffer);
int check_read(const struct worker *w, const struct io_request *io, char *why, size_t why_len);
int take_budget(struct job *job);
uint64_t paced_due_ns(struct worker *w, uint64_t now);

/* stats.c: fio's bins, accumulation, JSON. */
unsigned latency_index(uint64_t value_ns);
uint64_t index_value(unsigned index);
void latency_add(struct latency *l, uint64_t lat_ns, uint32_t bytes, uint64_t at_ns);
void latency_merge(struct latency *into, const struct latency *from);
void print_latency(const char *name, const struct latency *l);

/* loop.c: the measurement loops. */
void run_async_worker(struct worker *w);
void run_sync_worker(struct worker *w);
void record(struct worker *w, int dir, uint64_t submitted_ns, uint64_t completed_ns, uint32_t bytes);
int worker_stopping(const struct worker *w, uint64_t now_ns);
void stop_run(int reason);
void worker_fail(struct worker *w, const char *what, const struct io_request *io, int64_t code);

/* trace.c: a recorded trace read whole and played by lanes of one I/O. */
void load_trace(struct config *cfg);
void run_trace_lane(struct worker *w);

/* args.c */
int parse_args(int argc, char **argv, struct config *cfg);
void refuse(const char *field, int exit_code, const char *format, ...);
/* The point failed at run time on an OS error (the target vanished, permission): not a refused input. Exits 4. */
void fail_os(const char *field, int error, const char *format, ...);

/* main.c */
int ssdprof_io_main(int argc, char **argv);

/* os_*.c: the platform. */
uint64_t now_ns(void);
void sleep_ns(uint64_t ns);
void mutex_init(struct platform_mutex *m);
void mutex_lock(struct platform_mutex *m);
void mutex_unlock(struct platform_mutex *m);
void *thread_start(void (*fn)(void *), void *arg);
void thread_join(void *thread);
void *alloc_buffers(size_t bytes);
void free_buffers(void *p, size_t bytes);
void cpu_times_ns(uint64_t *user_ns, uint64_t *system_ns);
void install_stop_handlers(void);
void watch_stdin(void);
/* Opens the target with the cache bypassed for this worker, or refuses the point with the reason. */
struct target_file *open_target(const struct config *cfg);
void close_target(struct target_file *file);
/* One synchronous transfer: bytes moved, or -(error code). */
int64_t sync_transfer(struct target_file *file, int dir, unsigned char *buffer, uint32_t length, uint64_t offset);
void describe_error(int64_t code, char *out, size_t len);
const struct queue_ops *const *platform_queues(void);
const char *platform_cache_bypass(void);

#endif
