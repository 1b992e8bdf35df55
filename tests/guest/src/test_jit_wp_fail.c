// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection into the staging of BPF JIT write protection. With
 * fail_function, bpf_jit_alloc_rw() returns NULL, or bpf_jit_stage_seal()
 * returns -ENOMEM, at the Nth injection point this task reaches
 * (/proc/thread-self/fail-nth), for N = 1, 2, ... until a load no longer
 * reaches the Nth: a single-function program, a multi-function program, an
 * fentry/fexit pair and its trampolines, a struct_ops test run and its
 * trampoline. Not on detach: unlinking a tracing program rebuilds the
 * trampoline, and 6.12 WARNs when that fails (bpf_tracing_link_release(),
 * a known upstream issue, not the staging's). Every injected failure must fail its load, attach or run
 * with an error (or be absorbed, as libbpf's probe loads absorb it), never
 * let a program return a wrong value, and fail at least one load of each
 * kind; with nothing injected the same loads succeed; afterwards the
 * region's and the staging's bytes in use are back where they started and
 * no verification has failed. The console is checked for warnings by the
 * runner.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "jit_loads.h"
#include "ktest.h"

#define FAIL_FUNCTION "/sys/kernel/debug/fail_function"
#define FAIL_NTH "/proc/thread-self/fail-nth"
#define MAX_NTH 16

static struct bpf_program *target;

static int load_single(void) { return jl_single(100); }
static int load_multi(void) { return jl_multi(); }
static int load_tracing(void) { return jl_tracing(target); }
static int load_struct_ops(void) { return jl_struct_ops(); }

static const struct {
	const char *name;
	int (*load)(void);
} loads[] = {
	{ "single-function program", load_single },
	{ "multi-function program", load_multi },
	{ "fentry/fexit and trampolines", load_tracing },
	{ "struct_ops trampoline", load_struct_ops },
};

static const struct {
	const char *function;
	const char *retval;	/* NULL: fail_function's default for the type */
} points[] = {
	{ "bpf_jit_alloc_rw", NULL },
	{ "bpf_jit_stage_seal", "0xfffffffffffffff4" },	/* -ENOMEM */
};

static int write_or_fail(const char *path, const char *str)
{
	int err = ktest_write_file(path, str);

	if (err)
		printf("FAIL: write '%s' to %s: %s\n", str, path, strerror(err));
	return err;
}

/*
 * The injection points of fail-nth not yet reached (0: it failed one),
 * read and disarmed by disarm(); -1 on error.
 */
static long left = -1;

static void disarm(void)
{
	FILE *f;

	if (left >= 0)
		return;
	f = fopen(FAIL_NTH, "r");
	if (!f || fscanf(f, "%ld", &left) != 1)
		printf("FAIL: read %s: %s\n", FAIL_NTH, strerror(errno));
	if (f)
		fclose(f);
	write_or_fail(FAIL_NTH, "0");
}

/* Inject into FUNCTION at N = 1, 2, ... for each kind of load. */
static int inject(const char *function, const char *retval)
{
	char path[128], nth[16];
	int ok = 1, i, n, ret;

	if (write_or_fail(FAIL_FUNCTION "/inject", function))
		return 0;
	snprintf(path, sizeof(path), FAIL_FUNCTION "/%s/retval", function);
	if (retval && write_or_fail(path, retval))
		return 0;

	for (i = 0; i < sizeof(loads) / sizeof(loads[0]); i++) {
		int failed = 0, absorbed = 0, reached = 0;

		for (n = 1; n <= MAX_NTH; n++) {
			snprintf(nth, sizeof(nth), "%d", n);
			if (write_or_fail(FAIL_NTH, nth))
				return 0;
			left = -1;
			ret = loads[i].load();
			disarm();
			if (left < 0)
				return 0;
			if (ret == JL_WRONG) {
				printf("FAIL: %s, %s fails at injection point %d: a wrong result\n",
				       loads[i].name, function, n);
				ok = 0;
			}
			if (left > 0) {		/* the load did not reach the Nth */
				ok &= EXPECT_EQ("a load with nothing injected succeeds", ret > 0, 1);
				break;
			}
			reached++;
			if (ret < 0 && ret != JL_WRONG)
				failed++;
			else if (ret > 0)
				absorbed++;
		}
		printf("%s, %s: %d injection points, %d loads failed, %d absorbed\n",
		       loads[i].name, function, reached, failed, absorbed);
		ok &= EXPECT_EQ("every injection point reached within the limit", n <= MAX_NTH, 1);
		ok &= EXPECT_EQ("an injected failure fails a load", failed > 0, 1);
	}

	snprintf(path, sizeof(path), "!%s", function);
	if (write_or_fail(FAIL_FUNCTION "/inject", path))
		return 0;
	return ok;
}

int main(void)
{
	struct bpf_object *calls = ktest_load("jit_calls");
	struct ktest_region r0, r;
	struct ktest_wp w0, w;
	int ok = 1, i;

	target = ktest_prog(calls, "traced");
	jl_before_detach = disarm;
	libbpf_set_print(NULL);
	if (access(FAIL_FUNCTION, F_OK))
		return printf("FAIL: %s: %s (CONFIG_FAIL_FUNCTION)\n", FAIL_FUNCTION,
			      strerror(errno)), 1;
	if (write_or_fail(FAIL_FUNCTION "/verbose", "1"))
		return 1;

	/* Each kind once first: libbpf's feature probes are then cached. */
	for (i = 0; i < sizeof(loads) / sizeof(loads[0]); i++)
		if (loads[i].load() <= 0)
			return printf("FAIL: %s without injection\n", loads[i].name), 1;
	if (ktest_region(&r0) || ktest_wp(&w0))
		return 1;
	if (strcmp(w0.mode, "enforce"))
		return printf("bpf_jit_wp is %s, not enforce\n", w0.mode), KTEST_SKIP;
	printf("region in use %llu, staging %llu, pool %llu bytes\n", r0.in_use_bytes,
	       w0.staging_bytes, w0.staging_pool_bytes);

	for (i = 0; i < sizeof(points) / sizeof(points[0]); i++)
		ok &= inject(points[i].function, points[i].retval);

	for (i = 0; i < sizeof(loads) / sizeof(loads[0]); i++)
		ok &= EXPECT_EQ(loads[i].name, loads[i].load() > 0, 1);
	if (ktest_settle(&r0, &w0, &r, &w))
		return 1;
	ok &= EXPECT_EQ("verification failures", w.verification_failures - w0.verification_failures, 0);
	ok &= EXPECT_EQ("digest failures", w.digest_failures - w0.digest_failures, 0);
	ok &= EXPECT_EQ("instruction check failures", w.insn_failures - w0.insn_failures, 0);
	ok &= EXPECT_EQ("refused permission changes", w.refused_changes - w0.refused_changes, 0);
	ok &= EXPECT_EQ("region bytes in use back to the start", r.in_use_bytes, r0.in_use_bytes);
	ok &= EXPECT_EQ("staging bytes back to the start", w.staging_bytes, w0.staging_bytes);
	bpf_object__close(calls);
	return ok ? 0 : 1;
}
