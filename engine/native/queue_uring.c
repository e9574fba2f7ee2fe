/* Linux io_uring through its raw system calls and mmapped rings (no liburing needed to build), set
 * up as fio's io_uring engine is by default (seen with strace on fio 3.33): a completion ring as deep
 * as the queue, COOP_TASKRUN, SINGLE_ISSUER and DEFER_TASKRUN where the kernel has them (each dropped
 * in fio's order where refused), every submission with GETEVENTS (which runs the deferred completion
 * work), no polling, no registered files or buffers, plain READ/WRITE where the kernel has them (5.6+).
 *
 * The ring is made by the main thread, disabled, and enabled by the worker thread that uses it
 * (attach): a single-issuer ring belongs to the thread that enables it. */
#if defined(__linux__)
#include "ssdprof_io.h"

#include <errno.h>
#include <linux/io_uring.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef IORING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN (1U << 8)
#endif
#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER (1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN (1U << 13)
#endif
#ifndef IORING_SETUP_R_DISABLED
#define IORING_SETUP_R_DISABLED (1U << 6)
#endif
#ifndef IORING_REGISTER_ENABLE_RINGS
#define IORING_REGISTER_ENABLE_RINGS 12
#endif

struct uring {
    int ring_fd, fd, vectored, disabled;
    unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
    struct io_uring_sqe *sqes;
    struct io_uring_cqe *cqes;
    void *sq_ring, *cq_ring;
    size_t sq_bytes, cq_bytes, sqe_bytes;
    struct iovec *iov;
};

static int enter(int fd, unsigned submit, unsigned wait, unsigned flags) {
    return (int)syscall(__NR_io_uring_enter, fd, submit, wait, flags, NULL, 0);
}

static int has_plain_read_write(int ring_fd) {
    size_t bytes = sizeof(struct io_uring_probe) + 256 * sizeof(struct io_uring_probe_op);
    struct io_uring_probe *probe = calloc(1, bytes);
    int plain = 0;
    if (syscall(__NR_io_uring_register, ring_fd, IORING_REGISTER_PROBE, probe, 256) == 0)
        plain = probe->last_op >= IORING_OP_WRITE && (probe->ops[IORING_OP_READ].flags & IO_URING_OP_SUPPORTED) &&
                (probe->ops[IORING_OP_WRITE].flags & IO_URING_OP_SUPPORTED);
    free(probe);
    return plain;
}

static void uring_close(void *queue) {
    struct uring *q = queue;
    if (!q) return;
    if (q->sqes && q->sqes != MAP_FAILED) munmap(q->sqes, q->sqe_bytes);
    if (q->cq_ring && q->cq_ring != MAP_FAILED && q->cq_ring != q->sq_ring) munmap(q->cq_ring, q->cq_bytes);
    if (q->sq_ring && q->sq_ring != MAP_FAILED) munmap(q->sq_ring, q->sq_bytes);
    if (q->ring_fd >= 0) close(q->ring_fd);
    free(q->iov);
    free(q);
}

static int map_rings(struct uring *q, const struct io_uring_params *p) {
    q->sq_bytes = p->sq_off.array + p->sq_entries * sizeof(unsigned);
    q->cq_bytes = p->cq_off.cqes + p->cq_entries * sizeof(struct io_uring_cqe);
    int single = (p->features & IORING_FEAT_SINGLE_MMAP) != 0;
    if (single && q->cq_bytes > q->sq_bytes) q->sq_bytes = q->cq_bytes;
    q->sq_ring = mmap(NULL, q->sq_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, q->ring_fd, IORING_OFF_SQ_RING);
    if (q->sq_ring == MAP_FAILED) return errno;
    q->cq_ring = single ? q->sq_ring
                        : mmap(NULL, q->cq_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, q->ring_fd, IORING_OFF_CQ_RING);
    if (q->cq_ring == MAP_FAILED) return errno;
    q->sqe_bytes = p->sq_entries * sizeof(struct io_uring_sqe);
    q->sqes = mmap(NULL, q->sqe_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, q->ring_fd, IORING_OFF_SQES);
    if (q->sqes == MAP_FAILED) return errno;
    char *sq = q->sq_ring, *cq = q->cq_ring;
    q->sq_tail = (unsigned *)(sq + p->sq_off.tail);
    q->sq_mask = (unsigned *)(sq + p->sq_off.ring_mask);
    q->sq_array = (unsigned *)(sq + p->sq_off.array);
    q->cq_head = (unsigned *)(cq + p->cq_off.head);
    q->cq_tail = (unsigned *)(cq + p->cq_off.tail);
    q->cq_mask = (unsigned *)(cq + p->cq_off.ring_mask);
    q->cqes = (struct io_uring_cqe *)(cq + p->cq_off.cqes);
    return 0;
}

/* fio's set-up, flags dropped one by one where the kernel refuses them (EINVAL). */
static int setup(unsigned depth, struct io_uring_params *p) {
    const unsigned single = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED;
    unsigned drops[] = {0, single, IORING_SETUP_COOP_TASKRUN, IORING_SETUP_CQSIZE};
    unsigned flags = IORING_SETUP_CQSIZE | IORING_SETUP_COOP_TASKRUN | single;
    int fd = -1;
    for (size_t i = 0; i < sizeof drops / sizeof drops[0]; i++) {
        flags &= ~drops[i];
        memset(p, 0, sizeof *p);
        p->flags = flags;
        p->cq_entries = depth;
        fd = (int)syscall(__NR_io_uring_setup, depth, p);
        if (fd >= 0 || errno != EINVAL) break;
    }
    return fd;
}

static int uring_open(void **queue, struct target_file *file, int depth, char *why, size_t why_len) {
    struct uring *q = calloc(1, sizeof *q);
    struct io_uring_params p;
    q->fd = (int)file->handle;
    q->ring_fd = setup((unsigned)depth, &p);
    q->disabled = q->ring_fd >= 0 && (p.flags & IORING_SETUP_R_DISABLED);
    int rc = q->ring_fd < 0 ? errno : map_rings(q, &p);
    if (rc) {
        snprintf(why, why_len, "%s (%s)", strerror(rc),
                 rc == EPERM ? "kernel.io_uring_disabled or a seccomp filter" : rc == ENOSYS ? "a kernel before 5.1" : "io_uring_setup");
        uring_close(q);
        return rc;
    }
    q->vectored = !has_plain_read_write(q->ring_fd);
    q->iov = calloc((size_t)depth, sizeof(struct iovec));
    *queue = q;
    return 0;
}

static int uring_attach(void *queue) {
    struct uring *q = queue;
    if (!q->disabled) return 0;
    q->disabled = 0;
    return syscall(__NR_io_uring_register, q->ring_fd, IORING_REGISTER_ENABLE_RINGS, NULL, 0) < 0 ? -errno : 0;
}

static int uring_issue(void *queue, int slot, const struct io_request *io, uint32_t length) {
    struct uring *q = queue;
    unsigned tail = *q->sq_tail, index = tail & *q->sq_mask;
    struct io_uring_sqe *sqe = &q->sqes[index];
    memset(sqe, 0, sizeof *sqe);
    sqe->fd = q->fd;
    sqe->off = io->offset;
    sqe->user_data = (uint64_t)slot;
    if (q->vectored) {
        q->iov[slot] = (struct iovec){io->buffer, length};
        sqe->opcode = io->dir == DIR_READ ? IORING_OP_READV : IORING_OP_WRITEV;
        sqe->addr = (uint64_t)(uintptr_t)&q->iov[slot];
        sqe->len = 1;
    } else {
        sqe->opcode = io->dir == DIR_READ ? IORING_OP_READ : IORING_OP_WRITE;
        sqe->addr = (uint64_t)(uintptr_t)io->buffer;
        sqe->len = length;
    }
    q->sq_array[index] = index;
    __atomic_store_n(q->sq_tail, tail + 1, __ATOMIC_RELEASE);
    int n;
    while ((n = enter(q->ring_fd, 1, 0, IORING_ENTER_GETEVENTS)) < 0 && errno == EINTR) {}
    if (n == 1) return 0;
    int error = n < 0 ? errno : EAGAIN;
    __atomic_store_n(q->sq_tail, tail, __ATOMIC_RELEASE); /* not consumed: take the entry back */
    return error == EAGAIN || error == EBUSY ? 1 : -error;
}

static int uring_reap(void *queue, int min, struct completion *out, int max) {
    struct uring *q = queue;
    int n = 0;
    for (;;) {
        unsigned head = *q->cq_head, tail = __atomic_load_n(q->cq_tail, __ATOMIC_ACQUIRE);
        while (head != tail && n < max) {
            struct io_uring_cqe *cqe = &q->cqes[head & *q->cq_mask];
            out[n++] = (struct completion){(int)cqe->user_data, cqe->res};
            head++;
        }
        __atomic_store_n(q->cq_head, head, __ATOMIC_RELEASE);
        if (n >= min) return n;
        if (enter(q->ring_fd, 0, (unsigned)(min - n), IORING_ENTER_GETEVENTS) < 0 && errno != EINTR) return -errno;
    }
}

const struct queue_ops uring_queue = {"io_uring", uring_open, uring_attach, uring_issue, uring_reap, uring_close};
#endif
