/* Windows: clock, threads, console control (CTRL_BREAK stops), buffers, and the target opened with
 * FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH | FILE_FLAG_OVERLAPPED, as diskspd opens it. */
#if defined(_WIN32)
#include "ssdprof_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

_Static_assert(sizeof(SRWLOCK) <= sizeof(struct platform_mutex), "mutex storage too small");

static LARGE_INTEGER frequency;

uint64_t now_ns(void) {
    LARGE_INTEGER t;
    if (!frequency.QuadPart) QueryPerformanceFrequency(&frequency);
    QueryPerformanceCounter(&t);
    uint64_t ticks = (uint64_t)t.QuadPart, f = (uint64_t)frequency.QuadPart;
    return ticks / f * 1000000000ULL + ticks % f * 1000000000ULL / f;
}

#ifndef CREATE_WAITABLE_TIMER_HIGH_RESOLUTION
#define CREATE_WAITABLE_TIMER_HIGH_RESOLUTION 0x00000002
#endif

/* A high-resolution waitable timer where Windows has one (10 1803+), else Sleep's milliseconds. */
void sleep_ns(uint64_t ns) {
    HANDLE timer = CreateWaitableTimerExW(NULL, NULL, CREATE_WAITABLE_TIMER_HIGH_RESOLUTION, TIMER_ALL_ACCESS);
    if (timer) {
        LARGE_INTEGER due;
        due.QuadPart = -(LONGLONG)(ns / 100 ? ns / 100 : 1);
        if (SetWaitableTimer(timer, &due, 0, NULL, NULL, FALSE)) WaitForSingleObject(timer, INFINITE);
        CloseHandle(timer);
        return;
    }
    Sleep((DWORD)((ns + 999999) / 1000000));
}

void mutex_init(struct platform_mutex *m) { InitializeSRWLock((SRWLOCK *)m->opaque); }
void mutex_lock(struct platform_mutex *m) { AcquireSRWLockExclusive((SRWLOCK *)m->opaque); }
void mutex_unlock(struct platform_mutex *m) { ReleaseSRWLockExclusive((SRWLOCK *)m->opaque); }

struct thread_call { void (*fn)(void *); void *arg; HANDLE handle; };

static DWORD WINAPI thread_entry(LPVOID p) {
    struct thread_call *call = p;
    call->fn(call->arg);
    return 0;
}

void *thread_start(void (*fn)(void *), void *arg) {
    struct thread_call *call = calloc(1, sizeof *call);
    call->fn = fn;
    call->arg = arg;
    call->handle = CreateThread(NULL, 0, thread_entry, call, 0, NULL);
    if (!call->handle) refuse("queue_depth", 3, "could not start a thread (error %lu)", GetLastError());
    return call;
}

void thread_join(void *thread) {
    struct thread_call *call = thread;
    WaitForSingleObject(call->handle, INFINITE);
    CloseHandle(call->handle);
    free(call);
}

/* VirtualAlloc's memory starts on a 64 KiB boundary: a multiple of every sector size. */
void *alloc_buffers(size_t bytes) { return VirtualAlloc(NULL, bytes, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE); }
void free_buffers(void *p, size_t bytes) { (void)bytes; VirtualFree(p, 0, MEM_RELEASE); }

static uint64_t filetime_ns(FILETIME t) { return (((uint64_t)t.dwHighDateTime << 32) | t.dwLowDateTime) * 100ULL; }

void cpu_times_ns(uint64_t *user_ns, uint64_t *system_ns) {
    FILETIME created, exited, kernel, user;
    GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user);
    *user_ns = filetime_ns(user);
    *system_ns = filetime_ns(kernel);
}

static BOOL WINAPI on_control(DWORD event) {
    (void)event; /* CTRL_C, CTRL_BREAK (what the engine sends), console closed */
    stop_run(STOP_SIGNAL);
    return TRUE;
}

void install_stop_handlers(void) { SetConsoleCtrlHandler(on_control, TRUE); }

static void stdin_entry(void *unused) {
    (void)unused;
    char buffer[64];
    DWORD n;
    HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
    while (ReadFile(in, buffer, sizeof buffer, &n, NULL) && n > 0) {}
    stop_run(STOP_STDIN);
}

void watch_stdin(void) { thread_start(stdin_entry, NULL); }

void describe_error(int64_t code, char *out, size_t len) {
    DWORD error = (DWORD)(code < 0 ? -code : code);
    char text[200] = "";
    DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, error, 0, text, sizeof text, NULL);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == '.')) text[--n] = '\0';
    snprintf(out, len, "%s (Windows error %lu)", n ? text : "unknown error", error);
}

static wchar_t *wide(const char *utf8) {
    int n = MultiByteToWideChar(CP_UTF8, 0, utf8, -1, NULL, 0);
    wchar_t *out = calloc((size_t)n + 1, sizeof(wchar_t));
    MultiByteToWideChar(CP_UTF8, 0, utf8, -1, out, n);
    return out;
}

struct target_file *open_target(const struct config *c) {
    DWORD access = GENERIC_READ | (c->read_pct < 100 ? GENERIC_WRITE : 0);
    DWORD flags = FILE_FLAG_OVERLAPPED | (c->direct ? FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH : 0);
    wchar_t *path = wide(c->target);
    HANDLE h = CreateFileW(path, access, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, flags, NULL);
    free(path);
    if (h == INVALID_HANDLE_VALUE) {
        DWORD error = GetLastError();
        char why[240];
        describe_error(error, why, sizeof why);
        if (c->direct && error == ERROR_INVALID_PARAMETER)
            refuse("direct", 3, "the filesystem holding %s refuses unbuffered I/O (FILE_FLAG_NO_BUFFERING): %s", c->target, why);
        refuse("target", 3, "cannot open %s: %s", c->target, why);
    }
    LARGE_INTEGER size;
    if (GetFileSizeEx(h, &size) && (uint64_t)size.QuadPart < c->offset_bytes + c->size_bytes)
        refuse("size_bytes", 3, "the region (offset %llu, %llu bytes) ends beyond %s (%lld bytes)",
               (unsigned long long)c->offset_bytes, (unsigned long long)c->size_bytes, c->target, (long long)size.QuadPart);
    struct target_file *file = calloc(1, sizeof *file);
    file->handle = (intptr_t)h;
    return file;
}

void close_target(struct target_file *file) {
    if (!file) return;
    CloseHandle((HANDLE)file->handle);
    free(file);
}

/* Not used on Windows (every depth runs on the completion port); kept so the loops link alike. */
int64_t sync_transfer(struct target_file *file, int dir, unsigned char *buffer, uint32_t length, uint64_t offset) {
    OVERLAPPED o;
    memset(&o, 0, sizeof o);
    o.Offset = (DWORD)offset;
    o.OffsetHigh = (DWORD)(offset >> 32);
    o.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
    DWORD done = 0;
    HANDLE h = (HANDLE)file->handle;
    BOOL ok = dir == DIR_READ ? ReadFile(h, buffer, length, NULL, &o) : WriteFile(h, buffer, length, NULL, &o);
    if (!ok && GetLastError() != ERROR_IO_PENDING) {
        CloseHandle(o.hEvent);
        return -(int64_t)GetLastError();
    }
    ok = GetOverlappedResult(h, &o, &done, TRUE);
    DWORD error = GetLastError();
    CloseHandle(o.hEvent);
    return ok ? (int64_t)done : -(int64_t)error;
}

const char *platform_cache_bypass(void) { return "NO_BUFFERING|WRITE_THROUGH"; }

extern const struct queue_ops iocp_queue;
static const struct queue_ops *const queues[] = {&iocp_queue, NULL};
const struct queue_ops *const *platform_queues(void) { return queues; }

/* Arguments as UTF-8 whatever the console's code page, so a path with any characters opens. */
int main(void) {
    int argc = 0;
    wchar_t **wargv = CommandLineToArgvW(GetCommandLineW(), &argc);
    char **argv = calloc((size_t)argc + 1, sizeof(char *));
    for (int i = 0; i < argc; i++) {
        int n = WideCharToMultiByte(CP_UTF8, 0, wargv[i], -1, NULL, 0, NULL, NULL);
        argv[i] = calloc((size_t)n + 1, 1);
        WideCharToMultiByte(CP_UTF8, 0, wargv[i], -1, argv[i], n, NULL, NULL);
    }
    LocalFree(wargv);
    return ssdprof_io_main(argc, argv);
}
#endif
