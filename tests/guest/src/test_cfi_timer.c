// SPDX-License-Identifier: GPL-2.0
/*
 * A bpf_timer callback runs: the kernel calls the JITed subprogram from
 * hrtimer context through a function pointer (kCFI checked).
 */
#include <stdio.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "ktest.h"

struct timer_results {
	__u64 fired;
	__u64 key;
};

int main(void)
{
	struct bpf_object *obj = ktest_load("cfi_timer");
	struct timer_results res = { 0 };
	unsigned int retval;
	int ok = 1, ms;

	if (ktest_test_run_skb(ktest_prog(obj, "arm_timer"), 1, &retval, NULL))
		return 1;
	ok &= EXPECT_EQ("arm_timer (0: init, set_callback, start all worked)", retval, 0);
	/* The timer is due in 1 us; give it up to 2 s of guest time. */
	for (ms = 0; ms < 2000; ms += 10) {
		if (ktest_read_bss(obj, &res, sizeof(res)))
			return 1;
		if (res.fired)
			break;
		usleep(10000);
	}
	printf("callback ran after %d ms or less\n", ms + 10);
	ok &= EXPECT_EQ("timer callback runs", res.fired, 1);
	ok &= EXPECT_EQ("key the callback was handed, plus 100", res.key, 100);

	bpf_object__close(obj);
	return ok ? 0 : 1;
}
