/* Where each I/O goes and what a write carries, by fio's rules (engine/ssdprof/fio/jobfile.py):
 * random offsets block-aligned and uniform over the job's region; several sequential jobs get
 * disjoint slices (offset_increment); a sequential job walks its slice in order with a cursor per
 * direction, wrapping at its end; a byte-bounded run gives each job ceil(bytes / jobs) rounded up to
 * an access (io_size); an offered rate is a Poisson process per job at its share of the rate.
 *
 * Every 512-byte sector a write carries starts with its own file offset and a number no other
 * write carries: no two sectors ever written are alike (against compression and dedupe), and a
 * reader can tell which offset the bytes were written for (--check-reads, the tests). */
#include "ssdprof_io.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(uint64_t state[4], uint64_t seed) {
    for (int i = 0; i < 4; i++) state[i] = splitmix(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(uint64_t s[4]) { /* xoshiro256** */
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
    return result;
}

void plan_jobs(struct run *run) {
    const struct config *c = &run->cfg;
    uint64_t blocks = c->size_bytes / c->block_bytes, per_job_bytes = 0;
    if (!c->random && c->jobs > 1) per_job_bytes = c->size_bytes / (uint64_t)c->jobs / c->block_bytes * c->block_bytes;
    for (int j = 0; j < c->jobs; j++) {
        struct job *job = &run->jobs[j];
        job->index = j;
        job->region_start = c->offset_bytes + (uint64_t)j * per_job_bytes;
        job->region_blocks = per_job_bytes ? per_job_bytes / c->block_bytes : blocks;
        if (c->io_bytes) {
            uint64_t share = (c->io_bytes + (uint64_t)c->jobs - 1) / (uint64_t)c->jobs;
            uint64_t accesses = (share + c->block_bytes - 1) / c->block_bytes;
            job->io_limit_bytes = (accesses ? accesses : 1) * c->block_bytes;
        }
        job->mean_gap_ns = c->rate_iops > 0 ? 1e9 * c->jobs / c->rate_iops : 0;
        mutex_init(&job->due_lock);
    }
}

static uint64_t next_block(struct worker *w, int dir) {
    struct job *job = w->job;
    if (g_run.cfg.random) return rng_next(w->rng) % job->region_blocks;
    uint64_t step = job->worker_count > 1 ? __atomic_fetch_add(&job->seq_cursor[dir], 1, __ATOMIC_RELAXED)
                                          : job->seq_cursor[dir]++;
    return step % job->region_blocks;
}

static void stamp(struct worker *w, const struct io_request *io) {
    uint64_t number = ((uint64_t)w->job->index << 52) ^ ((uint64_t)w->index << 40) ^ w->writes_stamped++;
    for (uint32_t at = 0; at < g_run.cfg.block_bytes; at += SECTOR_BYTES) {
        uint64_t words[2] = {io->offset + at, number ^ STAMP_MAGIC};
        memcpy(io->buffer + at, words, sizeof words);
    }
}

void next_io(struct worker *w, struct io_request *io, unsigned char *buffer) {
    const struct config *c = &g_run.cfg;
    int pct = c->read_pct;
    io->dir = pct >= 100 ? DIR_READ : pct <= 0 ? DIR_WRITE : (int)(rng_next(w->rng) % 100) < pct ? DIR_READ : DIR_WRITE;
    io->offset = w->job->region_start + next_block(w, io->dir) * c->block_bytes;
    io->buffer = buffer;
    if (io->dir == DIR_WRITE) stamp(w, io);
}

int check_read(const struct worker *w, const struct io_request *io, char *why, size_t why_len) {
    (void)w;
    for (uint32_t at = 0; at < g_run.cfg.block_bytes; at += SECTOR_BYTES) {
        uint64_t words[2];
        memcpy(words, io->buffer + at, sizeof words);
        if (words[0] != io->offset + at) {
            snprintf(why, why_len, "read at offset %" PRIu64 " returned the sector stamped for offset %" PRIu64,
                     io->offset + at, words[0]);
            return -1;
        }
    }
    return 0;
}

/* Byte-bounded runs: 1 when this job may issue one more access, 0 when its bytes are done. */
int take_budget(struct job *job) {
    if (!job->io_limit_bytes) return 1;
    uint64_t before = __atomic_fetch_add(&job->issued_bytes, g_run.cfg.block_bytes, __ATOMIC_RELAXED);
    return before < job->io_limit_bytes;
}

/* The next arrival of the job's Poisson process (ns after the start); threads of a job share it.
 * As fio does at the end of its ramp (reset_all_stats), the schedule starts again there: arrivals the
 * ramp fell behind on are not carried into the measured window as a burst. */
uint64_t paced_due_ns(struct worker *w, uint64_t now) {
    struct job *job = w->job;
    double u = ((double)(rng_next(w->rng) >> 11) + 0.5) / 9007199254740992.0; /* (0, 1) */
    double gap = -log(u) * job->mean_gap_ns;
    uint64_t ramp = g_run.cfg.ramp_ns;
    if (job->worker_count > 1) mutex_lock(&job->due_lock);
    if (ramp && !job->schedule_restarted && now >= ramp) {
        job->schedule_restarted = 1;
        job->next_due_ns = (double)ramp;
    }
    uint64_t due = (uint64_t)job->next_due_ns;
    job->next_due_ns += gap;
    if (job->worker_count > 1) mutex_unlock(&job->due_lock);
    return due;
}
