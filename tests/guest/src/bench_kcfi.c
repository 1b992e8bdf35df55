// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of benchmarks/kcfi-cost. Run under vm/run --icount, where one
 * guest nanosecond is one guest instruction. Prints one JSON object:
 *   loop_ns[k]:  BPF_PROG_TEST_RUN duration of bpf_loop(ITERS) minus that of
 *                bpf_loop(0), divided by ITERS: ns (= instructions) per
 *                callback iteration, one sample per round;
 *   ops_ns[k]:   wall time of one bpf_dummy_ops BPF_PROG_TEST_RUN (builds a
 *                trampoline, calls it through a kCFI checked pointer, frees it).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ktest.h"

#define ROUNDS 11
#define ITERS 1000
#define REPEAT 100

struct bench_args {
	__u64 flags;
	__u64 iters;
};

static int set_iters(struct bpf_object *obj, __u64 iters)
{
	struct bench_args a = { .flags = 0, .iters = iters };
	struct bpf_map *bss = ktest_bss(obj);
	__u32 zero = 0;

	return bss ? bpf_map_update_elem(bpf_map__fd(bss), &zero, &a, BPF_ANY) : -1;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(void)
{
	struct bpf_object *loop = ktest_load("bench_kcfi");
	struct bpf_object *ops = ktest_load("cfi_struct_ops");
	struct bpf_program *prog = ktest_prog(loop, "loop_n");
	int ops_fd = bpf_program__fd(ktest_prog(ops, "test_1"));
	double loop_ns[ROUNDS], ops_ns[ROUNDS];
	unsigned int ret, d0, d1;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		__u64 arg[1] = { 0 };
		LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = arg, .ctx_size_in = sizeof(arg));
		double t;

		if (set_iters(loop, 0) || ktest_test_run_skb(prog, REPEAT, &ret, &d0))
			return 1;
		if (set_iters(loop, ITERS) || ktest_test_run_skb(prog, REPEAT, &ret, &d1))
			return 1;
		if (ret != ITERS) {
			fprintf(stderr, "bpf_loop ran %u iterations, expected %d\n", ret, ITERS);
			return 1;
		}
		loop_ns[r] = ((double)d1 - d0) / ITERS;
		t = now_ns();
		if (bpf_prog_test_run_opts(ops_fd, &o) || o.retval != 0xf2f3f4f5) {
			fprintf(stderr, "bpf_dummy_ops test_run failed: %s\n", strerror(errno));
			return 1;
		}
		ops_ns[r] = now_ns() - t;
	}
	printf("{\"iters\": %d, \"repeat\": %d, \"loop_ns\": [", ITERS, REPEAT);
	for (r = 0; r < ROUNDS; r++)
		printf("%s%.3f", r ? ", " : "", loop_ns[r]);
	printf("], \"ops_ns\": [");
	for (r = 0; r < ROUNDS; r++)
		printf("%s%.0f", r ? ", " : "", ops_ns[r]);
	printf("]}\n");
	return 0;
}
