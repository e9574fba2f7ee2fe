/* Linux and macOS: clock, threads, signals, buffers, and the target opened with the cache bypassed
 * (O_DIRECT on Linux, refused on a RAM filesystem; F_NOCACHE on macOS). */
#if !defined(_WIN32)
#include "ssdprof_io.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/vfs.h>
#endif

_Static_assert(sizeof(pthread_mutex_t) <= sizeof(struct platform_mutex), "mutex storage too small");

uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

void sleep_ns(uint64_t ns) {
    struct timespec t = {(time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL)};
    while (nanosleep(&t, &t) == -1 && errno == EINTR) {}
}

void mutex_init(struct platform_mutex *m) { pthread_mutex_init((pthread_mutex_t *)m->opaque, NULL); }
void mutex_lock(struct platform_mutex *m) { pthread_mutex_lock((pthread_mutex_t *)m->opaque); }
void mutex_unlock(struct platform_mutex *m) { pthread_mutex_unlock((pthread_mutex_t *)m->opaque); }

struct thread_call { void (*fn)(void *); void *arg; pthread_t id; };

static void *thread_entry(void *p) {
    struct thread_call *call = p;
    call->fn(call->arg);
    return NULL;
}

void *thread_start(void (*fn)(void *), void *arg) {
    struct thread_call *call = calloc(1, sizeof *call);
    call->fn = fn;
    call->arg = arg;
    if (pthread_create(&call->id, NULL, thread_entry, call)) refuse("queue_depth", 3, "could not start a thread: %s", strerror(errno));
    return call;
}

void thread_join(void *thread) {
    struct thread_call *call = thread;
    pthread_join(call->id, NULL);
    free(call);
}

/* Page-aligned, in ordinary pages, as fio's malloc'd buffers are (README: on a virtio disk, buffers in
 * huge pages let more large I/Os into its ring than fio's do, and the two engines' figures part). */
void *alloc_buffers(size_t bytes) {
    void *p = NULL;
    if (posix_memalign(&p, 4096, bytes)) return NULL;
    memset(p, 0, bytes);
    return p;
}

void free_buffers(void *p, size_t bytes) { (void)bytes; free(p); }

void cpu_times_ns(uint64_t *user_ns, uint64_t *system_ns) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    *user_ns = (uint64_t)u.ru_utime.tv_sec * 1000000000ULL + (uint64_t)u.ru_utime.tv_usec * 1000ULL;
    *system_ns = (uint64_t)u.ru_stime.tv_sec * 1000000000ULL + (uint64_t)u.ru_stime.tv_usec * 1000ULL;
}

static void on_signal(int number) { (void)number; stop_run(STOP_SIGNAL); }

void install_stop_handlers(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    signal(SIGPIPE, SIG_IGN);
}

static void stdin_entry(void *unused) {
    (void)unused;
    char byte[64];
    ssize_t n;
    while ((n = read(0, byte, sizeof byte)) > 0 || (n < 0 && errno == EINTR)) {}
    stop_run(STOP_STDIN);
}

void watch_stdin(void) { thread_start(stdin_entry, NULL); /* never joined: it ends with the process */ }

static void refuse_memory_filesystem(int fd, const char *path) {
#if defined(__linux__)
    struct stat node;
    struct statfs fs;
    /* a block device's node sits on devtmpfs: the device itself is what is measured, not the node's filesystem */
    if (fstat(fd, &node) || !S_ISREG(node.st_mode) || fstatfs(fd, &fs)) return;
    const char *kind = fs.f_type == 0x01021994 ? "tmpfs" : fs.f_type == (long)0x858458f6 ? "ramfs" : NULL;
    if (kind)
        refuse("target", 3, "%s is on %s, which lives in RAM: no device would be measured (%s takes O_DIRECT and "
               "still answers from memory); choose a folder on the SSD", path, kind, kind);
#else
    (void)fd; (void)path;
#endif
}

struct target_file *open_target(const struct config *c) {
    int flags = (c->read_pct < 100 ? O_RDWR : O_RDONLY) | O_CLOEXEC;
#if defined(__linux__)
    if (c->direct) flags |= O_DIRECT;
#endif
    int fd = open(c->target, flags);
    if (fd < 0 && c->direct && errno == EINVAL)
        refuse("direct", 3, "the filesystem holding %s refuses direct I/O (O_DIRECT): %s", c->target, strerror(errno));
    if (fd < 0) fail_os("target", errno, "cannot open %s: %s", c->target, strerror(errno));
    if (c->direct) refuse_memory_filesystem(fd, c->target);
#if defined(__APPLE__)
    if (c->direct && fcntl(fd, F_NOCACHE, 1) == -1)
        refuse("direct", 3, "the filesystem holding %s refuses to bypass the cache (F_NOCACHE): %s", c->target, strerror(errno));
#endif
    struct stat info;
    int sized = fstat(fd, &info) == 0 && S_ISREG(info.st_mode); /* Linux's block devices seek to their end too */
#if defined(__linux__)
    sized = 1;
#endif
    off_t end = sized ? lseek(fd, 0, SEEK_END) : -1;
    if (end >= 0 && (uint64_t)end < c->offset_bytes + c->size_bytes)
        refuse("size_bytes", 3, "the region (offset %llu, %llu bytes) ends beyond %s (%lld bytes)",
               (unsigned long long)c->offset_bytes, (unsigned long long)c->size_bytes, c->target, (long long)end);
    struct target_file *file = calloc(1, sizeof *file);
    file->handle = fd;
    return file;
}

void close_target(struct target_file *file) {
    if (!file) return;
    close((int)file->handle);
    free(file);
}

int64_t sync_transfer(struct target_file *file, int dir, unsigned char *buffer, uint32_t length, uint64_t offset) {
    ssize_t n = dir == DIR_READ ? pread((int)file->handle, buffer, length, (off_t)offset)
                                : pwrite((int)file->handle, buffer, length, (off_t)offset);
    return n < 0 ? -(int64_t)errno : (int64_t)n;
}

void describe_error(int64_t code, char *out, size_t len) { snprintf(out, len, "%s", strerror((int)(code < 0 ? -code : code))); }

const char *platform_cache_bypass(void) {
#if defined(__APPLE__)
    return "F_NOCACHE";
#else
    return "O_DIRECT";
#endif
}

#if defined(__linux__)
extern const struct queue_ops uring_queue, aio_queue;
static const struct queue_ops *const queues[] = {&uring_queue, &aio_queue, NULL};
#else
static const struct queue_ops *const queues[] = {NULL};
#endif

const struct queue_ops *const *platform_queues(void) { return queues; }

int main(int argc, char **argv) { return ssdprof_io_main(argc, argv); }
#endif
