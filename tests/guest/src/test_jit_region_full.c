// SPDX-License-Identifier: GPL-2.0
/*
 * A small BPF JIT region (booted with bpf_jit_region=8M), filled: programs
 * load until one does not fit, which fails with the JIT's usual error
 * (ENOTSUPP with BPF_JIT_ALWAYS_ON) and counts a failed allocation. With
 * room made at the region's far end only, fentry (and its trampoline) and
 * freplace load there and attach to a program at its start, and work. After everything is unloaded the
 * region's usage is back where it started, and programs load again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ktest.h"

#define FILLER_INSNS KTEST_FILLER_MAX
#define MAX_FILLERS 4000
#define ROOM 64			/* fillers unloaded to make room at the far end */
#define MAX_TINY 4000		/* 2-instruction programs that fill the holes left */
#define LEN 64			/* skb->len of test_run's 64-byte packet */


int main(void)
{
	struct rlimit nofile = { MAX_FILLERS + MAX_TINY + 256, MAX_FILLERS + MAX_TINY + 256 };
	struct ktest_region r0, r;
	struct bpf_object *calls, *att;
	struct bpf_program *traced, *ftarget, *on_entry, *repl;
	struct bpf_link *fentry, *freplace;
	unsigned long long lo, hi;
	unsigned int retval;
	int *fd, *tfd, n = 0, tiny = 0, i, ok = 1, err, load_errno = 0;
	struct {
		unsigned long long entries, exits, exit_ret, entry_len, null_read;
	} res;

	if (ktest_region_settled(&r0))
		return 1;
	if (!r0.on || r0.size > (32ULL << 20)) {
		printf("needs a small BPF JIT region (boot with bpf_jit_region=8M); mode %s, %llu MiB\n",
		       r0.on ? "on" : "off", r0.size >> 20);
		return KTEST_SKIP;
	}
	if (setrlimit(RLIMIT_NOFILE, &nofile))
		return printf("FAIL: setrlimit: %s\n", strerror(errno)), 1;

	/* The target, first in: at the region's start. */
	calls = ktest_load("jit_calls");
	traced = ktest_prog(calls, "traced");
	ftarget = ktest_prog(calls, "freplace_target");
	lo = ktest_jited_addr(bpf_program__fd(traced));

	fd = calloc(MAX_FILLERS, sizeof(*fd));
	tfd = calloc(MAX_TINY, sizeof(*tfd));
	while (n < MAX_FILLERS) {
		fd[n] = ktest_load_filler(FILLER_INSNS);
		if (fd[n] < 0) {
			load_errno = errno;
			break;
		}
		n++;
	}
	if (ktest_region(&r))
		return 1;
	printf("%d programs of %d instructions loaded into a %llu MiB region; the next: %s\n",
	       n, FILLER_INSNS, r.size >> 20, strerror(load_errno));
	printf("in use %llu bytes, high water %llu, failed allocations %llu (%llu before)\n",
	       r.in_use_bytes, r.high_water_bytes, r.failed_allocations, r0.failed_allocations);
	ok &= EXPECT_EQ("the region fills before the program limit", n < MAX_FILLERS, 1);
	ok &= EXPECT_EQ("a load that does not fit fails with ENOTSUPP", load_errno, ENOTSUPP);
	ok &= EXPECT_EQ("the failed allocation is counted",
			r.failed_allocations > r0.failed_allocations, 1);
	ok &= EXPECT_EQ("usage within the region", r.in_use_bytes <= r.size, 1);

	/*
	 * Room at the far end only: the holes the fillers left are filled with
	 * the smallest programs, then the last fillers (in the last pack) go;
	 * fentry, its trampoline and freplace load there.
	 */
	while (tiny < MAX_TINY && (tfd[tiny] = ktest_load_filler(2)) >= 0)
		tiny++;
	printf("%d small programs filled the holes\n", tiny);
	for (i = n > ROOM ? n - ROOM : 0; i < n; i++)
		close(fd[i]);
	n = n > ROOM ? n - ROOM : 0;
	/* Unloaded programs are freed after an RCU grace period, from a workqueue. */
	for (i = 0; i < 20; i++) {
		usleep(250000);
		att = ktest_open("jit_attach");
		on_entry = ktest_prog(att, "on_entry");
		repl = ktest_prog(att, "new_replace_me");
		bpf_program__set_autoload(ktest_prog(att, "on_exit"), false);
		bpf_program__set_attach_target(on_entry, bpf_program__fd(traced), "traced");
		bpf_program__set_attach_target(repl, bpf_program__fd(ftarget), "replace_me");
		err = bpf_object__load(att);
		if (!err)
			break;
		bpf_object__close(att);
	}
	if (err)
		return printf("FAIL: load jit_attach in the room made: %s\n", strerror(-err)), 1;
	printf("jit_attach loaded after %d ms\n", (i + 1) * 250);
	hi = ktest_jited_addr(bpf_program__fd(on_entry));
	printf("target at 0x%llx, fentry program at 0x%llx: %lld KiB apart\n", lo, hi,
	       ((long long)hi - (long long)lo) / 1024);
	ok &= EXPECT_EQ("both inside the region", lo >= r.start && lo < r.end &&
			hi >= r.start && hi < r.end, 1);
	ok &= EXPECT_EQ("at the two ends: more than half the region apart",
			hi > lo && hi - lo > r.size / 2, 1);
	fentry = bpf_program__attach_trace(on_entry);
	freplace = bpf_program__attach_freplace(repl, bpf_program__fd(ftarget), "replace_me");
	ok &= EXPECT_EQ("fentry attaches", fentry != NULL, 1);
	ok &= EXPECT_EQ("freplace attaches", freplace != NULL, 1);
	if (ktest_test_run_skb(traced, 1, &retval, NULL) ||
	    ktest_read_bss(att, &res, sizeof(res)))
		return 1;
	ok &= EXPECT_EQ("fentry ran", res.entries, 1);
	ok &= EXPECT_EQ("fentry saw skb->len", res.entry_len, LEN);
	if (ktest_test_run_skb(ftarget, 1, &retval, NULL))
		return 1;
	ok &= EXPECT_EQ("freplace: len + 100", retval, LEN + 100);

	bpf_link__destroy(freplace);
	bpf_link__destroy(fentry);
	bpf_object__close(att);
	bpf_object__close(calls);
	for (i = 0; i < n; i++)
		close(fd[i]);
	for (i = 0; i < tiny; i++)
		close(tfd[i]);
	if (ktest_region_wait_in_use(r0.in_use_bytes, &r))
		return 1;
	ok &= EXPECT_EQ("usage back to its start after unloading", r.in_use_bytes, r0.in_use_bytes);
	fd[0] = ktest_load_filler(FILLER_INSNS);
	ok &= EXPECT_EQ("a program loads again", fd[0] >= 0, 1);
	if (fd[0] >= 0)
		close(fd[0]);
	free(fd);
	free(tfd);
	return ok ? 0 : 1;
}
