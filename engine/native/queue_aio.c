/* Linux native AIO (libaio's io_setup / io_submit / io_getevents, called directly): where io_uring is
 * refused (kernel.io_uring_disabled, a seccomp filter, a kernel before 5.1), as fio's libaio engine. */
#if defined(__linux__)
#include "ssdprof_io.h"

#include <errno.h>
#include <linux/aio_abi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct aio {
    aio_context_t context;
    int fd;
    struct iocb *iocbs;
    struct io_event *events;
    int depth;
};

static void aio_close(void *queue) {
    struct aio *q = queue;
    if (!q) return;
    if (q->context) syscall(__NR_io_destroy, q->context);
    free(q->iocbs);
    free(q->events);
    free(q);
}

static int aio_open(void **queue, struct target_file *file, int depth, char *why, size_t why_len) {
    struct aio *q = calloc(1, sizeof *q);
    q->fd = (int)file->handle;
    q->depth = depth;
    if (syscall(__NR_io_setup, (unsigned)depth, &q->context) < 0) {
        int rc = errno;
        snprintf(why, why_len, "%s (io_setup%s)", strerror(rc), rc == EAGAIN ? ": fs.aio-max-nr reached" : "");
        q->context = 0;
        aio_close(q);
        return rc;
    }
    q->iocbs = calloc((size_t)depth, sizeof(struct iocb));
    q->events = calloc((size_t)depth, sizeof(struct io_event));
    *queue = q;
    return 0;
}

static int aio_issue(void *queue, int slot, const struct io_request *io, uint32_t length) {
    struct aio *q = queue;
    struct iocb *cb = &q->iocbs[slot];
    memset(cb, 0, sizeof *cb);
    cb->aio_data = (uint64_t)slot;
    cb->aio_lio_opcode = io->dir == DIR_READ ? IOCB_CMD_PREAD : IOCB_CMD_PWRITE;
    cb->aio_fildes = (uint32_t)q->fd;
    cb->aio_buf = (uint64_t)(uintptr_t)io->buffer;
    cb->aio_nbytes = length;
    cb->aio_offset = (int64_t)io->offset;
    struct iocb *list[1] = {cb};
    long n;
    while ((n = syscall(__NR_io_submit, q->context, 1, list)) < 0 && errno == EINTR) {}
    if (n == 1) return 0;
    int error = n < 0 ? errno : EAGAIN;
    return error == EAGAIN ? 1 : -error;
}

static int aio_reap(void *queue, int min, struct completion *out, int max) {
    struct aio *q = queue;
    long n;
    if (max > q->depth) max = q->depth;
    while ((n = syscall(__NR_io_getevents, q->context, (long)min, (long)max, q->events, NULL)) < 0 && errno == EINTR) {}
    if (n < 0) return -errno;
    for (long i = 0; i < n; i++) out[i] = (struct completion){(int)q->events[i].data, q->events[i].res};
    return (int)n;
}

const struct queue_ops aio_queue = {"libaio", aio_open, NULL, aio_issue, aio_reap, aio_close};
#endif
