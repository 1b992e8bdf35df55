// SPDX-License-Identifier: GPL-2.0
/*
 * Churn under BPF JIT write protection: two processes (the guest's two
 * vCPUs) load, run and unload programs for at least 10,000 loads in all:
 * single-function programs of 10 to 2,048 instructions, multi-function
 * programs (each function JITed twice, sealed in the extra pass), fentry
 * and fexit programs with their trampoline, and struct_ops test runs,
 * each of which builds a trampoline. Every load must succeed and every
 * program return what it should; afterwards no verification may have
 * failed, no permission change been refused, no staging allocation
 * failed, and the region's and the staging's bytes in use must be back
 * where they started. The console is checked for warnings by the runner.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "jit_loads.h"
#include "ktest.h"

#define WORKERS 2
#define ITERATIONS 4500		/* per worker; 1.125 loads per iteration on average */
#define MIN_LOADS 10000
#define MAX_INSNS 2048

/* One worker: its loads written to FD, exit status 0 if all went well. */
static int worker(int id, int fd)
{
	struct bpf_object *calls = ktest_load("jit_calls");
	struct bpf_program *target = ktest_prog(calls, "traced");
	long loads = 0;
	int i, n;

	srand(id + 1);
	libbpf_set_print(NULL);
	for (i = 0; i < ITERATIONS; i++) {
		switch (i % 8) {
		case 5:
			n = jl_multi();
			break;
		case 6:
			n = jl_tracing(target);
			break;
		case 7:
			n = jl_struct_ops();
			break;
		default:
			n = jl_single(10 + rand() % (MAX_INSNS - 9));
		}
		if (n < 0)
			return printf("FAIL: worker %d, iteration %d: %s\n", id, i,
				      n == JL_WRONG ? "wrong result" : strerror(-n)), 1;
		loads += n;
	}
	bpf_object__close(calls);
	printf("worker %d: %ld loads\n", id, loads);
	return write(fd, &loads, sizeof(loads)) == sizeof(loads) ? 0 : 1;
}

int main(void)
{
	struct ktest_region r0, r;
	struct ktest_wp w0, w;
	int i, status, ok = 1, failed = 0, pipefd[2];
	long loads = 0, n;

	if (ktest_region(&r0) || ktest_wp(&w0))
		return 1;
	printf("mode %s; region in use %llu, staging %llu\n", w0.mode, r0.in_use_bytes,
	       w0.staging_bytes);
	fflush(stdout);

	if (pipe(pipefd))
		return printf("FAIL: pipe: %s\n", strerror(errno)), 1;
	for (i = 0; i < WORKERS; i++)
		if (fork() == 0)
			exit(worker(i, pipefd[1]));
	close(pipefd[1]);
	while (read(pipefd[0], &n, sizeof(n)) == sizeof(n))
		loads += n;
	for (i = 0; i < WORKERS; i++) {
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	}
	ok &= EXPECT_EQ("workers that failed", failed, 0);
	ok &= EXPECT_EQ("at least 10,000 loads", loads >= MIN_LOADS, 1);
	if (ktest_settle(&r0, &w0, &r, &w))
		return 1;

	printf("%ld loads; seals %llu, verifications %llu, digest checks %llu, instructions sealed %llu, checked %llu, staging high water %llu bytes\n",
	       loads, w.seals - w0.seals, w.verifications - w0.verifications,
	       w.digest_checks - w0.digest_checks, w.insn_seals - w0.insn_seals,
	       w.insn_checks - w0.insn_checks, w.staging_high_water_bytes);
	if (strcmp(w0.mode, "off"))
		ok &= EXPECT_EQ("an image sealed, verified and digest-checked per load at least, its instructions sealed and checked",
				w.seals - w0.seals >= (unsigned long long)loads &&
				w.verifications - w0.verifications >= (unsigned long long)loads &&
				w.digest_checks - w0.digest_checks >= (unsigned long long)loads &&
				w.insn_seals - w0.insn_seals >= (unsigned long long)loads &&
				w.insn_checks - w0.insn_checks >= (unsigned long long)loads, 1);
	ok &= EXPECT_EQ("verification failures", w.verification_failures - w0.verification_failures, 0);
	ok &= EXPECT_EQ("digest failures", w.digest_failures - w0.digest_failures, 0);
	ok &= EXPECT_EQ("instruction check failures", w.insn_failures - w0.insn_failures, 0);
	ok &= EXPECT_EQ("refused permission changes", w.refused_changes - w0.refused_changes, 0);
	ok &= EXPECT_EQ("failed staging allocations",
			w.staging_failed_allocations - w0.staging_failed_allocations, 0);
	ok &= EXPECT_EQ("failed region allocations", r.failed_allocations - r0.failed_allocations, 0);
	ok &= EXPECT_EQ("region bytes in use back to the start", r.in_use_bytes, r0.in_use_bytes);
	ok &= EXPECT_EQ("staging bytes back to the start", w.staging_bytes, w0.staging_bytes);
	return ok ? 0 : 1;
}
