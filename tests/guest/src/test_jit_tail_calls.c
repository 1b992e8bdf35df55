// SPDX-License-Identifier: GPL-2.0
/*
 * Tail calls enter the callee past its prologue (PROLOGUE_OFFSET from
 * bpf_func): the callee must run, the tail call limit must hold, and a tail
 * call from a subprogram must return to the subprogram's caller.
 */
#include <stdio.h>
#include <bpf/libbpf.h>
#include "ktest.h"

#define LEN 64		/* skb->len of test_run's 64-byte packet (tc keeps Ethernet) */
#define MAX_TAIL_CALL_CNT 33

int main(void)
{
	struct bpf_object *obj = ktest_load("jit_calls");
	unsigned int retval;
	__u64 self_runs;
	int ok = 1;

	if (ktest_test_run_skb(ktest_prog(obj, "tail_caller"), 1, &retval, NULL))
		return 1;
	ok &= EXPECT_EQ("tail_caller returns tail_callee's len + 1000", retval, LEN + 1000);

	if (ktest_test_run_skb(ktest_prog(obj, "tail_self_start"), 1, &retval, NULL))
		return 1;
	ok &= EXPECT_EQ("tail_self returns 2 once the limit stops it", retval, 2);
	if (ktest_read_bss(obj, &self_runs, sizeof(self_runs)))
		return 1;
	ok &= EXPECT_EQ("tail_self runs (the tail call limit)", self_runs, MAX_TAIL_CALL_CNT);

	if (ktest_test_run_skb(ktest_prog(obj, "tail_from_subprog"), 1, &retval, NULL))
		return 1;
	ok &= EXPECT_EQ("tail call from a subprogram, + 20000 in its caller",
			retval, LEN + 1000 + 20000);

	bpf_object__close(obj);
	return ok ? 0 : 1;
}
