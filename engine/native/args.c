/* The point as arguments. A bad argument or a refused target exits non-zero with one JSON line on
 * standard output, {"type":"refused","field":...,"message":...}, naming the workload field the
 * engine shows it against, and the message on standard error for a person at a terminal. */
#include "ssdprof_io.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: ssdprof-io --target PATH --size BYTES --bs BYTES [--offset BYTES] [--pattern rand|seq]\n"
    "                  [--read-pct 0-100] [--iodepth N] [--jobs N] [--runtime S] [--ramp S] [--io-bytes BYTES]\n"
    "                  [--rate IOPS] [--seed N] [--buffered] [--engine auto|io_uring|libaio|iocp|sync]\n"
    "                  [--progress S] [--check-reads] [--watch-stdin]\n"
    "                  [--trace IOLOG [--trace-timing recorded|fastest] [--issue-log FILE]] | --version\n";

static void print_json_string(FILE *out, const char *text) {
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

/* One JSON line the engine reads ({"type":"refused"|"failed", ...}), the same words on stderr, then the exit. */
static void stop_with(const char *type, const char *field, int error, int exit_code, const char *format, va_list args) {
    char message[1024];
    vsnprintf(message, sizeof message, format, args);
    printf("{\"type\":\"%s\",\"field\":\"%s\",", type, field);
    if (error) printf("\"errno\":%d,", error);
    printf("\"message\":");
    print_json_string(stdout, message);
    printf("}\n");
    fflush(stdout);
    fprintf(stderr, "ssdprof-io: %s\n", message);
    exit(exit_code);
}

void refuse(const char *field, int exit_code, const char *format, ...) {
    va_list args;
    va_start(args, format);
    stop_with("refused", field, 0, exit_code, format, args);
}

void fail_os(const char *field, int error, const char *format, ...) {
    va_list args;
    va_start(args, format);
    stop_with("failed", field, error, 4, format, args);
}

static uint64_t whole(const char *flag, const char *field, const char *text, uint64_t low, uint64_t high) {
    char *end = NULL;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno || !end || *end || text[0] == '-' || text[0] == '\0' || value < low || value > high)
        refuse(field, 2, "%s %s: give a whole number from %llu to %llu", flag, text,
               (unsigned long long)low, (unsigned long long)high);
    return value;
}

static double seconds(const char *flag, const char *field, const char *text, double high) {
    char *end = NULL;
    double value = strtod(text, &end);
    if (!end || *end || text[0] == '\0' || !(value >= 0 && value <= high))
        refuse(field, 2, "%s %s: give seconds from 0 to %g", flag, text, high);
    return value;
}

/* The flag's field name in the engine's workload, for the refusal line. */
struct flag { const char *name, *field; };
static const struct flag flags[] = {
    {"--target", "target"}, {"--offset", "offset_bytes"}, {"--size", "size_bytes"}, {"--bs", "block_size_bytes"},
    {"--pattern", "pattern"}, {"--read-pct", "read_pct"}, {"--iodepth", "queue_depth"}, {"--jobs", "numjobs"},
    {"--runtime", "runtime_s"}, {"--ramp", "ramp_s"}, {"--io-bytes", "io_bytes_limit"}, {"--rate", "rate_iops"},
    {"--seed", "seed"}, {"--engine", "engine"}, {"--progress", "progress"},
    {"--trace", "trace"}, {"--trace-timing", "timing"}, {"--issue-log", "trace"},
};

static const char *field_of(const char *flag) {
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (!strcmp(flags[i].name, flag)) return flags[i].field;
    return NULL;
}

static void take(struct config *c, const char *flag, const char *field, const char *v) {
    if (!strcmp(flag, "--target")) c->target = v;
    else if (!strcmp(flag, "--offset")) c->offset_bytes = whole(flag, field, v, 0, UINT64_MAX / 2);
    else if (!strcmp(flag, "--size")) c->size_bytes = whole(flag, field, v, SECTOR_BYTES, UINT64_MAX / 2);
    else if (!strcmp(flag, "--bs")) c->block_bytes = (uint32_t)whole(flag, field, v, SECTOR_BYTES, 64u << 20);
    else if (!strcmp(flag, "--read-pct")) c->read_pct = (int)whole(flag, field, v, 0, 100);
    else if (!strcmp(flag, "--iodepth")) c->depth = (int)whole(flag, field, v, 1, MAX_DEPTH);
    else if (!strcmp(flag, "--jobs")) c->jobs = (int)whole(flag, field, v, 1, MAX_JOBS);
    else if (!strcmp(flag, "--runtime")) c->runtime_ns = (uint64_t)(seconds(flag, field, v, 31536000) * 1e9);
    else if (!strcmp(flag, "--ramp")) c->ramp_ns = (uint64_t)(seconds(flag, field, v, 86400) * 1e9);
    else if (!strcmp(flag, "--io-bytes")) c->io_bytes = whole(flag, field, v, SECTOR_BYTES, UINT64_MAX / 2);
    else if (!strcmp(flag, "--rate")) c->rate_iops = (double)whole(flag, field, v, 0, 100000000);
    else if (!strcmp(flag, "--seed")) c->seed = whole(flag, field, v, 0, UINT64_MAX);
    else if (!strcmp(flag, "--engine")) c->engine = v;
    else if (!strcmp(flag, "--progress")) c->progress_ns = (uint64_t)(seconds(flag, field, v, 3600) * 1e9);
    else if (!strcmp(flag, "--trace")) c->trace = v;
    else if (!strcmp(flag, "--issue-log")) c->issue_log = v;
    else if (!strcmp(flag, "--trace-timing")) {
        if (strcmp(v, "recorded") && strcmp(v, "fastest")) refuse(field, 2, "--trace-timing %s: give recorded or fastest", v);
        c->trace_fastest = !strcmp(v, "fastest");
    }
    else if (!strcmp(flag, "--pattern")) {
        if (strcmp(v, "rand") && strcmp(v, "seq")) refuse(field, 2, "--pattern %s: give rand or seq", v);
        c->random = !strcmp(v, "rand");
    }
}

static void check(const struct config *c) {
    if (!c->target) refuse("target", 2, "--target is required (a file or block device)");
    if (!c->size_bytes) refuse("size_bytes", 2, "--size is required (the region's bytes)");
    if (!c->block_bytes) refuse("block_size_bytes", 2, "--bs is required (the access size in bytes)");
    if (c->block_bytes % SECTOR_BYTES) refuse("block_size_bytes", 2, "--bs %u: give a multiple of 512 bytes", c->block_bytes);
    if (c->offset_bytes % SECTOR_BYTES)
        refuse("offset_bytes", 2, "--offset %llu: give a multiple of 512 bytes", (unsigned long long)c->offset_bytes);
    if (c->size_bytes / (uint64_t)c->jobs < c->block_bytes && !c->random && c->jobs > 1)
        refuse("size_bytes", 2, "--size %llu holds less than one %u-byte access per job (%d sequential jobs)",
               (unsigned long long)c->size_bytes, c->block_bytes, c->jobs);
    if (c->size_bytes < c->block_bytes)
        refuse("size_bytes", 2, "--size %llu is smaller than one access (--bs %u)", (unsigned long long)c->size_bytes,
               c->block_bytes);
    if ((uint64_t)c->depth * (uint64_t)c->jobs > 65536)
        refuse("queue_depth", 2, "--iodepth %d x --jobs %d: at most 65536 I/Os outstanding", c->depth, c->jobs);
    if (c->rate_iops > 0 && c->rate_iops < c->jobs)
        refuse("rate_iops", 2, "--rate %.0f: at least one I/O per second per job (%d jobs)", c->rate_iops, c->jobs);
    if (!c->runtime_ns && !c->io_bytes) refuse("runtime_s", 2, "--runtime must be above 0 unless --io-bytes bounds the run");
}

int parse_args(int argc, char **argv, struct config *c) {
    *c = (struct config){.read_pct = 100, .depth = 1, .jobs = 1, .direct = 1, .engine = "auto", .random = 1,
                         .progress_ns = 1000000000ULL, .seed = 0x55d9f00dULL};
    for (int i = 1; i < argc; i++) {
        const char *flag = argv[i];
        if (!strcmp(flag, "--version")) { printf("ssdprof-io %s\n", SSDPROF_IO_VERSION); exit(0); }
        if (!strcmp(flag, "--help")) { fputs(usage, stdout); exit(0); }
        if (!strcmp(flag, "--buffered")) { c->direct = 0; continue; }
        if (!strcmp(flag, "--check-reads")) { c->check_reads = 1; continue; }
        if (!strcmp(flag, "--watch-stdin")) { c->watch_stdin = 1; continue; }
        const char *field = field_of(flag);
        if (!field) refuse("arguments", 2, "unknown argument %s\n%s", flag, usage);
        if (i + 1 >= argc) refuse(field, 2, "%s needs a value", flag);
        take(c, flag, field, argv[++i]);
    }
    if (c->progress_ns == 0) c->progress_ns = 1000000000ULL;
    check(c);
    if (c->trace) load_trace(c);
    return 0;
}
