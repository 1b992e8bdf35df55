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
#include "ktest.h"

#define WORKERS 2
#define ITERATIONS 4500		/* per worker; 1.125 loads per iteration on average */
#define MIN_LOADS 10000
#define MAX_INSNS 2048
#define LEN 64			/* skb->len of test_run's 64-byte packet */

static struct bpf_insn insns[MAX_INSNS];

static int load(int n)
{
	return bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "churn", "GPL", insns, n, NULL);
}

#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), \
					       .src_reg = (s), .off = (o), .imm = (i) })
#define MOV0(i)	INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, i)
#define ADD0(i)	INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_0, 0, 0, i)
#define EXIT	INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define CALL(to) INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, to)

/* r0 = 0, then N - 2 times r0 += 1: returns N - 2. */
static int single(int n)
{
	int fd, i;
	long long ret;

	insns[0] = MOV0(0);
	for (i = 1; i < n - 1; i++)
		insns[i] = ADD0(1);
	insns[n - 1] = EXIT;
	fd = load(n);
	if (fd < 0)
		return printf("FAIL: load %d instructions: %s\n", n, strerror(errno)), -1;
	ret = ktest_run_fd(fd);
	close(fd);
	if (ret != n - 2)
		return printf("FAIL: %d instructions returned %lld\n", n, ret), -1;
	return 1;
}

/* main calls f1, which calls f2, which calls f3: 1 + 2 + 3 + 4 + 5 = 15. */
static int multi(void)
{
	struct bpf_insn p[] = {
		CALL(2), ADD0(5), EXIT,		/* main: f1() + 5 */
		CALL(2), ADD0(4), EXIT,		/* f1: f2() + 4 */
		CALL(2), ADD0(3), EXIT,		/* f2: f3() + 3 */
		MOV0(1), ADD0(2), EXIT,		/* f3: 1 + 2 */
	};
	long long ret;
	int fd;

	memcpy(insns, p, sizeof(p));
	fd = load(sizeof(p) / sizeof(p[0]));
	if (fd < 0)
		return printf("FAIL: load a multi-function program: %s\n", strerror(errno)), -1;
	ret = ktest_run_fd(fd);
	close(fd);
	if (ret != 15)
		return printf("FAIL: the multi-function program returned %lld\n", ret), -1;
	return 1;
}

/* fentry and fexit on TARGET: two loads and a trampoline. */
static int tracing(struct bpf_program *target)
{
	struct bpf_object *obj = ktest_open("jit_attach");
	struct bpf_program *entry = ktest_prog(obj, "on_entry");
	struct bpf_program *fexit = ktest_prog(obj, "on_exit");
	struct bpf_link *l1 = NULL, *l2 = NULL;
	unsigned int retval = 0;
	int err;

	bpf_program__set_autoload(ktest_prog(obj, "new_replace_me"), false);
	bpf_program__set_attach_target(entry, bpf_program__fd(target), "traced");
	bpf_program__set_attach_target(fexit, bpf_program__fd(target), "traced");
	err = bpf_object__load(obj);
	if (!err) {
		l1 = bpf_program__attach_trace(entry);
		l2 = bpf_program__attach_trace(fexit);
	}
	if (err || !l1 || !l2 || ktest_test_run_skb(target, 1, &retval, NULL) ||
	    retval != LEN * 2) {
		printf("FAIL: fentry/fexit: load %d, attach %d %d, traced returned %u\n",
		       err, !!l1, !!l2, retval);
		err = -1;
	}
	bpf_link__destroy(l1);
	bpf_link__destroy(l2);
	bpf_object__close(obj);
	return err ? -1 : 2;
}

/* A bpf_dummy_ops test run: a load, and a trampoline per run. */
static int struct_ops(void)
{
	struct bpf_object *obj = ktest_open("cfi_struct_ops");
	__u64 args[1] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));
	int err = bpf_object__load(obj);

	if (!err)
		err = bpf_prog_test_run_opts(bpf_program__fd(ktest_prog(obj, "test_1")), &opts);
	if (err || opts.retval != 0xf2f3f4f5) {
		printf("FAIL: struct_ops test_1: %d, returned %#x\n", err, opts.retval);
		err = -1;
	}
	bpf_object__close(obj);
	return err ? -1 : 1;
}

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
			n = multi();
			break;
		case 6:
			n = tracing(target);
			break;
		case 7:
			n = struct_ops();
			break;
		default:
			n = single(10 + rand() % (MAX_INSNS - 9));
		}
		if (n < 0)
			return printf("FAIL: worker %d, iteration %d\n", id, i), 1;
		loads += n;
	}
	bpf_object__close(calls);
	printf("worker %d: %ld loads\n", id, loads);
	return write(fd, &loads, sizeof(loads)) == sizeof(loads) ? 0 : 1;
}

/* Frees are deferred (RCU, workqueues): wait for the bytes to come back. */
static int settle(const struct ktest_region *r0, const struct ktest_wp *w0,
		  struct ktest_region *r, struct ktest_wp *w)
{
	int i;

	for (i = 0; i < 300; i++) {
		if (ktest_region(r) || ktest_wp(w))
			return -1;
		if (r->in_use_bytes == r0->in_use_bytes && w->staging_bytes == w0->staging_bytes)
			return 0;
		usleep(100000);
	}
	return 0;
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
	if (settle(&r0, &w0, &r, &w))
		return 1;

	printf("%ld loads; seals %llu, verifications %llu, staging high water %llu bytes\n",
	       loads, w.seals - w0.seals, w.verifications - w0.verifications,
	       w.staging_high_water_bytes);
	if (strcmp(w0.mode, "off"))
		ok &= EXPECT_EQ("an image sealed and verified per load at least",
				w.seals - w0.seals >= (unsigned long long)loads &&
				w.verifications - w0.verifications >= (unsigned long long)loads, 1);
	ok &= EXPECT_EQ("verification failures", w.verification_failures - w0.verification_failures, 0);
	ok &= EXPECT_EQ("refused permission changes", w.refused_changes - w0.refused_changes, 0);
	ok &= EXPECT_EQ("failed staging allocations",
			w.staging_failed_allocations - w0.staging_failed_allocations, 0);
	ok &= EXPECT_EQ("failed region allocations", r.failed_allocations - r0.failed_allocations, 0);
	ok &= EXPECT_EQ("region bytes in use back to the start", r.in_use_bytes, r0.in_use_bytes);
	ok &= EXPECT_EQ("staging bytes back to the start", w.staging_bytes, w0.staging_bytes);
	return ok ? 0 : 1;
}
