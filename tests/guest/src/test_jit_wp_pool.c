// SPDX-License-Identifier: GPL-2.0
/*
 * The staging pool's size at boot (bpf_jit_wp_pool=): the pool in force is
 * the one asked for on the command line (1M without the option), and once
 * it is too small, loads still succeed, staged in allocations of their
 * own, and count as misses. While a filler of 4,096 instructions loads,
 * its sealed instructions (32 KiB and a header: 9 pages) and its image
 * (about 16 KiB and a guard page) are staged: a 32K pool (8 pages) holds
 * neither, so every such load misses; the default 1M pool, none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ktest.h"

#define FILLERS 8
#define DEFAULT_POOL (1024 * 1024)

/* bpf_jit_wp_pool= of /proc/cmdline in bytes, or DEFAULT_POOL without it. */
static long long asked_pool(void)
{
	char line[4096], *p, *end;
	long long v;
	FILE *f = fopen("/proc/cmdline", "r");

	if (!f || !fgets(line, sizeof(line), f)) {
		printf("FAIL: cannot read /proc/cmdline\n");
		exit(1);
	}
	fclose(f);
	p = strstr(line, "bpf_jit_wp_pool=");
	if (!p)
		return DEFAULT_POOL;
	v = strtoll(p + strlen("bpf_jit_wp_pool="), &end, 10);
	if (*end == 'K' || *end == 'k')
		v <<= 10;
	else if (*end == 'M' || *end == 'm')
		v <<= 20;
	return v;
}

int main(void)
{
	struct ktest_wp w0, w1;
	long long pool = asked_pool();
	int fds[FILLERS], i, ok = 1;

	if (ktest_wp(&w0))
		return 1;
	if (strcmp(w0.mode, "enforce")) {
		printf("SKIP: write protection is %s, not enforce\n", w0.mode);
		return KTEST_SKIP;
	}
	ok &= EXPECT_EQ("staging_pool_bytes is the pool asked for at boot",
			w0.staging_pool_bytes, pool);
	for (i = 0; i < FILLERS; i++) {
		fds[i] = ktest_load_filler(KTEST_FILLER_MAX);
		ok &= EXPECT_EQ("a filler loads, pool full or not", fds[i] >= 0, 1);
	}
	if (ktest_wp(&w1))
		return 1;
	printf("# %d fillers of %d instructions: %llu pool misses (pool %llu bytes)\n", FILLERS,
	       KTEST_FILLER_MAX, w1.staging_pool_misses - w0.staging_pool_misses,
	       w0.staging_pool_bytes);
	if (pool < DEFAULT_POOL)
		ok &= EXPECT_EQ("every load staged beyond a small pool counts as a miss",
				w1.staging_pool_misses - w0.staging_pool_misses >= FILLERS, 1);
	else
		ok &= EXPECT_EQ("no load misses the default pool",
				w1.staging_pool_misses - w0.staging_pool_misses, 0);
	ok &= EXPECT_EQ("no verification failed",
			w1.verification_failures - w0.verification_failures, 0);
	for (i = 0; i < FILLERS; i++)
		if (fds[i] >= 0) {
			ok &= EXPECT_EQ("the filler returns what it was built to",
					ktest_run_fd(fds[i]) >= 0, 1);
			close(fds[i]);
		}
	return ok ? 0 : 1;
}
