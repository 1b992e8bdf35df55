// SPDX-License-Identifier: GPL-2.0
/*
 * bench WORKLOAD [options]: run one workload of the benchmark suite in the
 * guest and print its samples as CSV (bench.h). benchmarks/run calls it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <bpf/libbpf.h>
#include "bench.h"

static const struct {
	const char *name;
	int (*run)(const struct bench_opts *o);
	const char *what;
} workloads[] = {
	{ "load", bench_load, "BPF_PROG_LOAD latency of synthetic and real programs" },
	{ "call", bench_call, "cost per call of each kind of BPF call" },
	{ "attach", bench_attach, "attach and detach latency of trampolines and struct_ops" },
	{ "mem", bench_mem, "JIT memory for 1 to 10,000 loaded programs" },
	{ "tlb", bench_tlb, "TLB and cache maintenance per operation (with the TCG plugin)" },
	{ "fill", bench_fill, "BPF JIT objects that fit in the region (--rounds: churns)" },
	{ "conc", bench_conc,
	  "load latency with --counts loaders at once on --cpus CPUs (--rounds: loads each)" },
};

#define NWORKLOADS (sizeof(workloads) / sizeof(workloads[0]))

void row(const char *workload, const char *cas, long x, const char *metric,
	 const char *unit, int round, bool warmup, double value)
{
	if (x >= 0)
		printf("%s,%s,%ld,%s,%s,%d,%d,%.3f\n", workload, cas, x, metric, unit,
		       round, warmup, value);
	else
		printf("%s,%s,,%s,%s,%d,%d,%.3f\n", workload, cas, metric, unit, round,
		       warmup, value);
}

double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

double wp_value(const char *key, double missing)
{
	FILE *f = fopen("/sys/kernel/debug/bpf_jit/wp", "r");
	char k[64], val[64];
	double v = missing;

	if (!f)
		return missing;
	while (fscanf(f, " %63[^:]: %63s", k, val) == 2)
		if (!strcmp(k, key))
			v = strtod(val, NULL);
	fclose(f);
	return v;
}

static void say(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void progress(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("bench: ", fmt, ap);
	va_end(ap);
}

void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("bench: error: ", fmt, ap);
	va_end(ap);
	exit(1);
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: bench WORKLOAD [--rounds N] [--warmup N] [--repeat N]\n"
		   "             [--sizes N,N,..] [--subprogs N,..] [--counts N,..]\n"
		   "             [--large-max N] [--cpus N,..] [--real DIR] [--split]\n"
		   "workloads:\n");
	for (i = 0; i < NWORKLOADS; i++)
		fprintf(f, "  %-7s %s\n", workloads[i].name, workloads[i].what);
}

static int parse_list(const char *opt, const char *s, long *v)
{
	char *end;
	int n = 0;

	while (*s) {
		if (n == MAX_POINTS)
			fail("%s: more than %d values", opt, MAX_POINTS);
		errno = 0;
		v[n] = strtol(s, &end, 10);
		if (errno || end == s || v[n] <= 0 || (*end && *end != ','))
			fail("%s: '%s' is not a list of positive numbers (like 8,64,512)", opt, s);
		n++;
		s = *end ? end + 1 : end;
	}
	if (!n)
		fail("%s: empty list", opt);
	return n;
}

static int parse_int(const char *opt, const char *s, int min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > 1000000)
		fail("%s: '%s' is not a number from %d to 1000000", opt, s, min);
	return v;
}

int main(int argc, char **argv)
{
	struct bench_opts o = {
		.rounds = 11, .warmup = 2, .repeat = 100,
		.nsizes = 4, .sizes = { 8, 512, 4096, 65536 },
		.nsubprogs = 3, .subprogs = { 1, 8, 64 },
		.ncounts = 5, .counts = { 1, 10, 100, 1000, 10000 },
		.ncpus = 1, .cpus = { 2 },
	};
	struct rlimit nofile = { 65536, 65536 };
	size_t w;
	int i;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2;
	}
	for (w = 0; w < NWORKLOADS; w++)
		if (!strcmp(argv[1], workloads[w].name))
			break;
	if (w == NWORKLOADS) {
		fprintf(stderr, "bench: error: unknown workload '%s'\n", argv[1]);
		usage(stderr);
		return 2;
	}
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--split")) {
			o.split = true;
			continue;
		}
		if (!v)
			fail("%s wants a value", a);
		i++;
		if (!strcmp(a, "--rounds"))
			o.rounds = parse_int(a, v, 1);
		else if (!strcmp(a, "--warmup"))
			o.warmup = parse_int(a, v, 0);
		else if (!strcmp(a, "--repeat"))
			o.repeat = parse_int(a, v, 1);
		else if (!strcmp(a, "--sizes"))
			o.nsizes = parse_list(a, v, o.sizes);
		else if (!strcmp(a, "--subprogs"))
			o.nsubprogs = parse_list(a, v, o.subprogs);
		else if (!strcmp(a, "--counts"))
			o.ncounts = parse_list(a, v, o.counts);
		else if (!strcmp(a, "--cpus"))
			o.ncpus = parse_list(a, v, o.cpus);
		else if (!strcmp(a, "--large-max"))
			o.large_max = parse_int(a, v, 1);
		else if (!strcmp(a, "--real"))
			o.real_dir = v;
		else
			fail("unknown option '%s' (bench --help lists them)", a);
	}
	for (i = 0; i < o.nsizes; i++)
		if (o.sizes[i] < 8 || o.sizes[i] > 1000000)
			fail("--sizes: %ld instructions is out of range (8 to 1000000)", o.sizes[i]);
	for (i = 0; i < o.nsubprogs; i++)
		if (o.subprogs[i] > 255)
			fail("--subprogs: %ld is more than the 255 a program may have", o.subprogs[i]);
	/* mem keeps up to 10,000 programs open at once. */
	if (setrlimit(RLIMIT_NOFILE, &nofile))
		fail("setrlimit(RLIMIT_NOFILE): %s", strerror(errno));
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	return workloads[w].run(&o);
}
