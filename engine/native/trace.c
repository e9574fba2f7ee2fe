/* A recorded trace replayed (--trace FILE): the I/Os of a fio iolog version 3 ("TIME NAME read|write OFFSET
 * LENGTH", TIME in microseconds from the replay's start; add/open/close lines carry no I/O), read whole before
 * anything runs, a bad line refused by its number.
 *
 * As the engine's fio replay (engine/ssdprof/fio/replay.py) plays it: --iodepth N lanes, lane k issuing the
 * k-th, (k+N)-th, ... I/O one at a time (at most N in flight), each a synchronous call timed from submission to
 * return (fio's psync). As recorded (--trace-timing recorded), an I/O waits for its time from the common start,
 * and one still in flight when its lane's next is due makes that one late; as fast as possible (fastest), a lane
 * issues its next as soon as its last returns. --issue-log FILE writes, once every lane has ended, each I/O's
 * submission time in ns from the start, one a line in the trace's order (-1: not issued: a stop came first).
 * A write carries its lane's own random bytes, each sector stamped with its offset (as a pattern's writes are). */
#include "ssdprof_io.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WAIT_SLICE_NS 20000000ULL /* a lane waiting for its I/O's time re-checks a stop this often */
#define LINE_BYTES 8192

struct trace_io { uint64_t at_ns, offset; uint32_t length; int dir; };

static struct {
    struct trace_io *ios;
    size_t count, capacity;
    int64_t *issued;
    int lanes_ended;
} g_trace;

static void add_io(const struct trace_io *io) {
    if (g_trace.count == g_trace.capacity) {
        g_trace.capacity = g_trace.capacity ? g_trace.capacity * 2 : 4096;
        g_trace.ios = realloc(g_trace.ios, g_trace.capacity * sizeof *g_trace.ios);
        if (!g_trace.ios) refuse("trace", 3, "out of memory reading the trace (%zu I/Os)", g_trace.count);
    }
    g_trace.ios[g_trace.count++] = *io;
}

/* One line's I/O into `io` (1), a line without one (0), or a refusal naming the line. */
static int parse_line(const struct config *c, char *line, size_t number, struct trace_io *io) {
    char name[LINE_BYTES], action[16];
    unsigned long long at_us, offset = 0, length = 0;
    int fields = sscanf(line, "%llu %8191s %15s %llu %llu", &at_us, name, action, &offset, &length);
    if (fields < 3) refuse("trace", 2, "%s line %zu: not 'TIME NAME ACTION [OFFSET LENGTH]'", c->trace, number);
    if (!strcmp(action, "add") || !strcmp(action, "open") || !strcmp(action, "close")) return 0;
    if (strcmp(action, "read") && strcmp(action, "write"))
        refuse("trace", 2, "%s line %zu: '%s' is not replayed (read and write only)", c->trace, number, action);
    if (fields != 5 || !length || length > c->block_bytes)
        refuse("trace", 2, "%s line %zu: give OFFSET and a LENGTH from 1 to --bs %u bytes", c->trace, number,
               c->block_bytes);
    if (offset + length > c->size_bytes)
        refuse("trace", 2, "%s line %zu: bytes %llu to %llu lie past the region's %llu", c->trace, number, offset,
               offset + length, (unsigned long long)c->size_bytes);
    if (c->direct && (offset % SECTOR_BYTES || length % SECTOR_BYTES))
        refuse("trace", 2, "%s line %zu: offset %llu, length %llu: direct I/O needs multiples of %d bytes", c->trace,
               number, offset, length, SECTOR_BYTES);
    *io = (struct trace_io){.at_ns = (uint64_t)at_us * 1000ULL, .offset = c->offset_bytes + offset,
                            .length = (uint32_t)length, .dir = action[0] == 'w' ? DIR_WRITE : DIR_READ};
    return 1;
}

void load_trace(struct config *c) {
    FILE *file = fopen(c->trace, "r");
    if (!file) refuse("trace", 3, "cannot open the trace %s: %s", c->trace, strerror(errno));
    static char line[LINE_BYTES];
    size_t number = 0;
    while (fgets(line, sizeof line, file)) {
        number++;
        if (!strchr(line, '\n') && !feof(file)) refuse("trace", 2, "%s line %zu: longer than %d bytes", c->trace, number, LINE_BYTES);
        if (number == 1) {
            if (strncmp(line, "fio version 3 iolog", 19)) refuse("trace", 2, "%s: not a fio iolog version 3", c->trace);
            continue;
        }
        if (line[strspn(line, " \t\r\n")] == '\0') continue;
        struct trace_io io;
        if (parse_line(c, line, number, &io)) add_io(&io);
    }
    fclose(file);
    if (!g_trace.count) refuse("trace", 2, "%s holds no read or write", c->trace);
    if (c->jobs != 1) refuse("numjobs", 2, "--jobs %d: a trace is played by --iodepth lanes of one job", c->jobs);
    for (size_t i = 1; i < g_trace.count; i++)
        if (g_trace.ios[i].at_ns < g_trace.ios[i - 1].at_ns)
            refuse("trace", 2, "%s: its I/Os are not in time order (the %zu-th is earlier than the one before)", c->trace,
                   i + 1);
    if (c->issue_log) {
        g_trace.issued = malloc(g_trace.count * sizeof *g_trace.issued);
        if (!g_trace.issued) refuse("trace", 3, "out of memory for the issue log (%zu I/Os)", g_trace.count);
        for (size_t i = 0; i < g_trace.count; i++) g_trace.issued[i] = -1;
    }
    size_t writes = 0;
    for (size_t i = 0; i < g_trace.count; i++) writes += g_trace.ios[i].dir == DIR_WRITE;
    c->read_pct = writes ? (int)(100 * (g_trace.count - writes) / g_trace.count) : 100; /* opens for writing if any */
    if (writes && c->read_pct == 100) c->read_pct = 99;
    c->engine = "sync"; /* lanes of one synchronous call each */
}

static void write_issue_log(void) {
    FILE *out = fopen(g_run.cfg.issue_log, "w");
    if (!out) {
        fprintf(stderr, "ssdprof-io: cannot write the issue log %s: %s\n", g_run.cfg.issue_log, strerror(errno));
        return;
    }
    for (size_t i = 0; i < g_trace.count; i++) fprintf(out, "%" PRId64 "\n", g_trace.issued[i]);
    fclose(out);
}

/* Waits for `at_ns` after the start; 0 when a stop came first. */
static int wait_until(const struct worker *w, uint64_t at_ns) {
    for (;;) {
        uint64_t now = now_ns() - g_run.start_ns;
        if (worker_stopping(w, now)) return 0;
        if (now >= at_ns) return 1;
        uint64_t wait = at_ns - now;
        sleep_ns(wait < WAIT_SLICE_NS ? wait : WAIT_SLICE_NS);
    }
}

/* The lane's buffer for writes, apart from the one reads fill (a write never carries what a read brought back):
 * random bytes, each sector stamped as plan.c stamps a pattern's writes (its own file offset, a number no other
 * write carries), against compression and dedupe. NULL when it cannot be allocated. */
static unsigned char *write_buffer(struct worker *w) {
    unsigned char *buffer = alloc_buffers(g_run.cfg.block_bytes);
    for (uint32_t at = 0; buffer && at + 8 <= g_run.cfg.block_bytes; at += 8) {
        uint64_t value = rng_next(w->rng);
        memcpy(buffer + at, &value, 8);
    }
    return buffer;
}

static void stamp(struct worker *w, unsigned char *buffer, const struct trace_io *io) {
    uint64_t number = ((uint64_t)w->index << 40) ^ w->writes_stamped++;
    for (uint32_t at = 0; at < io->length; at += SECTOR_BYTES) {
        uint64_t words[2] = {io->offset + at, number ^ STAMP_MAGIC};
        memcpy(buffer + at, words, sizeof words);
    }
}

/* One I/O of the lane, timed; 0 after an error (named in the worker's error). */
static int play(struct worker *w, size_t index, unsigned char *writes) {
    const struct trace_io *io = &g_trace.ios[index];
    unsigned char *buffer = io->dir == DIR_WRITE ? writes : w->buffers;
    struct io_request request = {.offset = io->offset, .dir = io->dir, .buffer = buffer};
    if (io->dir == DIR_WRITE) stamp(w, buffer, io);
    uint64_t submitted = now_ns() - g_run.start_ns;
    int64_t result = sync_transfer(w->file, io->dir, buffer, io->length, io->offset);
    uint64_t completed = now_ns() - g_run.start_ns;
    w->issued[io->dir]++;
    if (g_trace.issued) g_trace.issued[index] = (int64_t)submitted;
    if (result < 0) {
        worker_fail(w, io->dir == DIR_READ ? "read" : "write", &request, result);
        return 0;
    }
    if ((uint64_t)result != io->length) {
        snprintf(w->error, sizeof w->error, "short %s at offset %llu: %lld of %u bytes (the target ends there?)",
                 io->dir == DIR_READ ? "read" : "write", (unsigned long long)io->offset, (long long)result, io->length);
        stop_run(STOP_ERROR);
        return 0;
    }
    mutex_lock(&w->lock);
    record(w, io->dir, submitted, completed, io->length);
    mutex_unlock(&w->lock);
    return 1;
}

void run_trace_lane(struct worker *w) {
    size_t lanes = (size_t)w->job->worker_count;
    unsigned char *writes = write_buffer(w);
    if (!writes) {
        snprintf(w->error, sizeof w->error, "could not allocate a %u-byte write buffer", g_run.cfg.block_bytes);
        stop_run(STOP_ERROR);
    }
    for (size_t i = (size_t)w->index; writes && i < g_trace.count; i += lanes) {
        if (g_run.cfg.trace_fastest ? worker_stopping(w, now_ns() - g_run.start_ns) : !wait_until(w, g_trace.ios[i].at_ns))
            break;
        if (!play(w, i, writes)) break;
    }
    if (writes) free_buffers(writes, g_run.cfg.block_bytes);
    if (__atomic_add_fetch(&g_trace.lanes_ended, 1, __ATOMIC_SEQ_CST) == (int)lanes && g_trace.issued) write_issue_log();
}
