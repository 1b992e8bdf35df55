// SPDX-License-Identifier: GPL-2.0
/*
 * A BPF exception: bpf_throw() in a subprogram unwinds the program and the
 * kernel calls its exception callback through a function pointer (kCFI
 * checked); the program returns what the callback returns.
 */
#include <stdio.h>
#include <bpf/libbpf.h>
#include "ktest.h"

int main(void)
{
	struct bpf_object *obj = ktest_load("cfi_exception");
	unsigned int retval;
	int ok = 1;

	if (ktest_test_run_skb(ktest_prog(obj, "throw_from_subprog"), 1, &retval, NULL))
		return 1;
	ok &= EXPECT_EQ("retval: exception callback's cookie 7 + 1000", retval, 1007);

	bpf_object__close(obj);
	return ok ? 0 : 1;
}
