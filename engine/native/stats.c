/* Latencies in fio's histogram layout (plat_val_to_idx / plat_idx_to_val in fio's stat.c), with
 * the exact count, mean and spread (Welford; Chan's merge), so the engine takes percentiles from
 * bins exactly as it does for fio's json+ output, and bins from every thread add up. */
#include "ssdprof_io.h"

#include <inttypes.h>
#include <stdio.h>

static unsigned bit_length(uint64_t v) {
    unsigned n = 0;
    while (v) { n++; v >>= 1; }
    return n;
}

unsigned latency_index(uint64_t value) {
    unsigned msb = value ? bit_length(value) - 1 : 0;
    if (msb <= PLAT_BITS) return (unsigned)value;
    unsigned error_bits = msb - PLAT_BITS;
    unsigned base = (error_bits + 1) << PLAT_BITS;
    unsigned offset = (unsigned)((PLAT_VAL - 1) & (value >> error_bits));
    unsigned index = base + offset;
    return index < PLAT_NR ? index : PLAT_NR - 1;
}

uint64_t index_value(unsigned index) {
    if (index < (PLAT_VAL << 1)) return index;
    unsigned error_bits = (index >> PLAT_BITS) - 1;
    uint64_t base = 1ULL << (error_bits + PLAT_BITS);
    uint64_t k = index % PLAT_VAL;
    return base + ((2 * k + 1) << error_bits) / 2;
}

void latency_add(struct latency *l, uint64_t lat_ns, uint32_t bytes, uint64_t at_ns) {
    l->counts[latency_index(lat_ns)]++;
    l->n++;
    double delta = (double)lat_ns - l->mean;
    l->mean += delta / (double)l->n;
    l->m2 += delta * ((double)lat_ns - l->mean);
    if (l->n == 1 || lat_ns < l->min_ns) l->min_ns = lat_ns;
    if (lat_ns > l->max_ns) l->max_ns = lat_ns;
    l->bytes += bytes;
    if (at_ns > l->last_ns) l->last_ns = at_ns;
}

void latency_merge(struct latency *into, const struct latency *from) {
    if (from->n == 0) return;
    for (unsigned i = 0; i < PLAT_NR; i++) into->counts[i] += from->counts[i];
    if (into->n == 0) {
        into->mean = from->mean;
        into->m2 = from->m2;
        into->min_ns = from->min_ns;
    } else {
        double total = (double)(into->n + from->n);
        double delta = from->mean - into->mean;
        into->m2 += from->m2 + delta * delta * (double)into->n * (double)from->n / total;
        into->mean += delta * (double)from->n / total;
        if (from->min_ns < into->min_ns) into->min_ns = from->min_ns;
    }
    into->n += from->n;
    if (from->max_ns > into->max_ns) into->max_ns = from->max_ns;
    into->bytes += from->bytes;
    if (from->last_ns > into->last_ns) into->last_ns = from->last_ns;
}

/* "name":{"ios":..,"bytes":..,"mean_ns":..,"m2":..,"min_ns":..,"max_ns":..,"bins":{"midpoint_ns":count,...}} */
void print_latency(const char *name, const struct latency *l) {
    printf("\"%s\":{\"ios\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"mean_ns\":%.17g,\"m2\":%.17g,"
           "\"min_ns\":%" PRIu64 ",\"max_ns\":%" PRIu64 ",\"bins\":{",
           name, l->n, l->bytes, l->mean, l->m2, l->min_ns, l->max_ns);
    const char *separator = "";
    for (unsigned i = 0; i < PLAT_NR; i++) {
        if (!l->counts[i]) continue;
        printf("%s\"%" PRIu64 "\":%" PRIu64, separator, index_value(i), l->counts[i]);
        separator = ",";
    }
    printf("}}");
}
