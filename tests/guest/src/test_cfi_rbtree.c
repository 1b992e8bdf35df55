// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_rbtree_add() orders nodes with the program's less() callback, which
 * the kernel calls through a function pointer (kCFI checked): three keys
 * added out of order come out sorted.
 */
#include <stdio.h>
#include <bpf/libbpf.h>
#include "ktest.h"

struct rbtree_results {
	__u64 less_calls;
	long first[3];
};

int main(void)
{
	struct bpf_object *obj = ktest_load("cfi_rbtree");
	struct rbtree_results res;
	unsigned int retval;
	int ok = 1;

	if (ktest_test_run_skb(ktest_prog(obj, "add_and_pop"), 1, &retval, NULL))
		return 1;
	ok &= EXPECT_EQ("add_and_pop (0: three nodes added)", retval, 0);
	if (ktest_read_bss(obj, &res, sizeof(res)))
		return 1;
	/* adding 5, 1, 3: one comparison for 1, one or two for 3 */
	ok &= EXPECT_EQ("less() ran 2 or 3 times", res.less_calls == 2 || res.less_calls == 3, 1);
	printf("less() calls: %llu\n", (unsigned long long)res.less_calls);
	ok &= EXPECT_EQ("first key out", res.first[0], 1);
	ok &= EXPECT_EQ("second key out", res.first[1], 3);
	ok &= EXPECT_EQ("third key out", res.first[2], 5);

	bpf_object__close(obj);
	return ok ? 0 : 1;
}
