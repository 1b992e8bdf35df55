// SPDX-License-Identifier: GPL-2.0
/*
 * mem: what loaded programs cost in memory, for 1 to 10,000 programs of
 * three sizes (small: 64 instructions, ~300 bytes of JIT code, the size of
 * half of real programs; medium: 512, ~2 KiB; large: 4096, ~16 KiB), and
 * what stays after unloading them all. Figures are deltas from a snapshot
 * taken before the first load:
 *   vmalloc_bytes       vmalloc areas of the JIT (execmem: bpf_prog_pack
 *                       chunks and images larger than a pack)
 *   packs               2 MiB bpf_prog_pack areas among them
 *   prog_vmalloc_bytes  vmalloc areas of struct bpf_prog (the xlated program)
 *   slab_bytes, memfree_bytes  /proc/meminfo Slab, and the drop of MemFree
 *   jited_bytes         sum of the programs' JIT image sizes
 * The JIT lines of /proc/vmallocinfo at each point are kept (vmalloc-*.txt).
 * --large-max N stops the large class at N programs (10,000 of them take
 * minutes to verify under TCG).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"

static bool jit_caller(const char *caller)
{
	return !strncmp(caller, "execmem", 7) || !strncmp(caller, "bpf_jit", 7) ||
	       !strncmp(caller, "bpf_prog_pack", 13);
}

static bool prog_caller(const char *caller)
{
	return !strncmp(caller, "bpf_prog_alloc", 14) || !strncmp(caller, "bpf_prog_realloc", 16);
}

static double meminfo_kb(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	double v = -1;

	if (!f)
		fail("/proc/meminfo: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)) && line[strlen(key)] == ':') {
			v = strtod(line + strlen(key) + 1, NULL);
			break;
		}
	fclose(f);
	if (v < 0)
		fail("/proc/meminfo has no %s", key);
	return v;
}

double ipi_count(void)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[512];
	double sum = 0;

	if (!f)
		fail("/proc/interrupts: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;

		while (*p == ' ')
			p++;
		if (strncmp(p, "IPI", 3) || !(p = strchr(p, ':')))
			continue;
		for (p++;; p = end) {
			double v = strtod(p, &end);

			if (end == p)
				break;
			sum += v;
		}
	}
	fclose(f);
	return sum;
}

void mem_snapshot(struct mem_snap *s, const char *save_as)
{
	FILE *f = fopen("/proc/vmallocinfo", "r"), *out = NULL;
	char line[512];

	if (!f)
		fail("/proc/vmallocinfo: %s", strerror(errno));
	if (save_as && !(out = fopen(save_as, "w")))
		fail("%s: %s", save_as, strerror(errno));
	memset(s, 0, sizeof(*s));
	while (fgets(line, sizeof(line), f)) {
		char caller[256];
		unsigned long size;
		unsigned int pages = 0;
		char *p;

		if (sscanf(line, "%*s %lu %255s", &size, caller) != 2)
			continue;
		p = strstr(line, "pages=");
		if (p)
			pages = strtoul(p + 6, NULL, 10);
		if (jit_caller(caller)) {
			s->vmalloc_bytes += size;
			s->packs += pages == 512;
			if (out)
				fputs(line, out);
		} else if (prog_caller(caller)) {
			s->prog_vmalloc_bytes += size;
		}
	}
	fclose(f);
	if (out)
		fclose(out);
	s->slab_bytes = meminfo_kb("Slab") * 1024;
	s->memfree_bytes = meminfo_kb("MemFree") * 1024;
	s->ipis = ipi_count();
}

static void emit(const char *cas, long x, const struct mem_snap *b, const struct mem_snap *s,
		 double jited)
{
	row("mem", cas, x, "vmalloc_bytes", "bytes", 0, 0, s->vmalloc_bytes - b->vmalloc_bytes);
	row("mem", cas, x, "packs", "count", 0, 0, s->packs - b->packs);
	row("mem", cas, x, "prog_vmalloc_bytes", "bytes", 0, 0,
	    s->prog_vmalloc_bytes - b->prog_vmalloc_bytes);
	row("mem", cas, x, "slab_bytes", "bytes", 0, 0, s->slab_bytes - b->slab_bytes);
	row("mem", cas, x, "memfree_bytes", "bytes", 0, 0, b->memfree_bytes - s->memfree_bytes);
	row("mem", cas, x, "jited_bytes", "bytes", 0, 0, jited);
}

/* Wait for deferred frees: until the JIT's vmalloc use stops changing. */
static void settle(struct mem_snap *s)
{
	double last = -1;
	int i;

	for (i = 0; i < 100; i++) {
		usleep(100000);
		mem_snapshot(s, NULL);
		if (s->vmalloc_bytes == last)
			return;
		last = s->vmalloc_bytes;
	}
}

static void one_class(const char *cas, int insns, const struct bench_opts *o, long limit)
{
	long max = o->counts[o->ncounts - 1];
	struct bpf_insn *p = gen_straight(insns);
	int *fds = calloc(max, sizeof(*fds));
	struct mem_snap base, s;
	double jited = 0;
	char path[128], unloaded[64];
	long n = 0;
	int i;

	if (!fds)
		fail("out of memory");
	settle(&base);
	for (i = 0; i < o->ncounts && (!limit || o->counts[i] <= limit); i++) {
		progress("mem %s: loading up to %ld programs", cas, o->counts[i]);
		for (; n < o->counts[i]; n++) {
			__u32 len, nf;

			fds[n] = load_insns(p, insns, NULL, 0);
			if (fds[n] < 0)
				fail("mem %s: load %ld of %ld: %s", cas, n + 1, max, strerror(errno));
			if (!prog_jit_info(fds[n], &len, &nf))
				jited += len;
		}
		snprintf(path, sizeof(path), "vmalloc-%s-%ld.txt", cas, n);
		mem_snapshot(&s, path);
		emit(cas, n, &base, &s, jited);
	}
	for (i = 0; i < n; i++)
		close(fds[i]);
	settle(&s);
	snprintf(unloaded, sizeof(unloaded), "%s-unloaded", cas);
	snprintf(path, sizeof(path), "vmalloc-%s.txt", unloaded);
	mem_snapshot(&s, path);
	emit(unloaded, n, &base, &s, 0);
	free(fds);
	free(p);
	fflush(stdout);
}

int bench_mem(const struct bench_opts *o)
{
	int i;

	for (i = 1; i < o->ncounts; i++)
		if (o->counts[i] <= o->counts[i - 1])
			fail("--counts must increase: %ld after %ld", o->counts[i], o->counts[i - 1]);
	one_class("small", 64, o, 0);
	one_class("medium", 512, o, 0);
	one_class("large", 4096, o, o->large_max);
	return 0;
}
