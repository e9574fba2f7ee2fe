/* Windows overlapped I/O on an I/O completion port, as diskspd does: each worker's own handle is
 * tied to its own port; every I/O is one ReadFile/WriteFile with its OVERLAPPED, and completions
 * (also those that finished at once: FILE_SKIP_COMPLETION_PORT_ON_SUCCESS is not set) are taken
 * from the port with GetQueuedCompletionStatusEx, many per call. */
#if defined(_WIN32)
#include "ssdprof_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

struct iocp {
    HANDLE port, file;
    OVERLAPPED *overlapped;  /* one per slot: its address says which slot completed */
    OVERLAPPED_ENTRY *entries;
    int depth;
};

static void iocp_close(void *queue) {
    struct iocp *q = queue;
    if (!q) return;
    if (q->port) CloseHandle(q->port);
    free(q->overlapped);
    free(q->entries);
    free(q);
}

static int iocp_open(void **queue, struct target_file *file, int depth, char *why, size_t why_len) {
    struct iocp *q = calloc(1, sizeof *q);
    q->file = (HANDLE)file->handle;
    q->depth = depth;
    q->port = CreateIoCompletionPort(q->file, NULL, 0, 1);
    if (!q->port) {
        DWORD error = GetLastError();
        describe_error(error, why, why_len);
        iocp_close(q);
        return (int)error;
    }
    q->overlapped = calloc((size_t)depth, sizeof(OVERLAPPED));
    q->entries = calloc((size_t)depth, sizeof(OVERLAPPED_ENTRY));
    *queue = q;
    return 0;
}

static int iocp_issue(void *queue, int slot, const struct io_request *io, uint32_t length) {
    struct iocp *q = queue;
    OVERLAPPED *o = &q->overlapped[slot];
    memset(o, 0, sizeof *o);
    o->Offset = (DWORD)io->offset;
    o->OffsetHigh = (DWORD)(io->offset >> 32);
    BOOL ok = io->dir == DIR_READ ? ReadFile(q->file, io->buffer, length, NULL, o)
                                  : WriteFile(q->file, io->buffer, length, NULL, o);
    if (ok) return 0;
    DWORD error = GetLastError();
    if (error == ERROR_IO_PENDING) return 0;
    if (error == ERROR_NOT_ENOUGH_QUOTA || error == ERROR_INVALID_USER_BUFFER || error == ERROR_NOT_ENOUGH_MEMORY) return 1;
    return -(int)error;
}

static int iocp_reap(void *queue, int min, struct completion *out, int max) {
    struct iocp *q = queue;
    int n = 0;
    if (max > q->depth) max = q->depth;
    for (;;) {
        ULONG removed = 0;
        if (!GetQueuedCompletionStatusEx(q->port, q->entries, (ULONG)(max - n), &removed, n < min ? INFINITE : 0, FALSE)) {
            DWORD error = GetLastError();
            return error == WAIT_TIMEOUT ? n : -(int)error;
        }
        for (ULONG i = 0; i < removed; i++) {
            OVERLAPPED *o = q->entries[i].lpOverlapped;
            DWORD bytes = 0;
            int64_t result = GetOverlappedResult(q->file, o, &bytes, FALSE) ? (int64_t)bytes : -(int64_t)GetLastError();
            out[n++] = (struct completion){(int)(o - q->overlapped), result};
        }
        if (n >= min) return n;
    }
}

const struct queue_ops iocp_queue = {"iocp", iocp_open, NULL, iocp_issue, iocp_reap, iocp_close};
#endif
