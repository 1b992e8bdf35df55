// SPDX-License-Identifier: GPL-2.0
/*
 * freplace: a program replaces a global subprogram of a JITed program, whose
 * entry (the poke offset from its bpf_func) then branches to the
 * replacement. The target must return the replacement's result while
 * attached and its own again once detached.
 */
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "ktest.h"

#define LEN 64		/* skb->len of test_run's 64-byte packet (tc keeps Ethernet) */

int main(void)
{
	struct bpf_object *calls = ktest_load("jit_calls");
	struct bpf_program *target = ktest_prog(calls, "freplace_target");
	struct bpf_object *obj = ktest_open("jit_attach");
	struct bpf_program *repl = ktest_prog(obj, "new_replace_me");
	struct bpf_link *link;
	unsigned int retval;
	int ok = 1, err;

	bpf_program__set_autoload(ktest_prog(obj, "on_entry"), false);
	bpf_program__set_autoload(ktest_prog(obj, "on_exit"), false);
	bpf_program__set_attach_target(repl, bpf_program__fd(target), "replace_me");
	err = bpf_object__load(obj);
	if (err)
		return printf("FAIL: load jit_attach: %s\n", strerror(-err)), 1;

	if (ktest_test_run_skb(target, 1, &retval, NULL))
		return 1;
	ok &= EXPECT_EQ("replace_me(len) = len + 1 before freplace", retval, LEN + 1);

	link = bpf_program__attach_freplace(repl, bpf_program__fd(target), "replace_me");
	if (!link)
		return printf("FAIL: attach freplace\n"), 1;
	if (ktest_test_run_skb(target, 1, &retval, NULL))
		return 1;
	ok &= EXPECT_EQ("replaced: len + 100", retval, LEN + 100);

	bpf_link__destroy(link);
	if (ktest_test_run_skb(target, 1, &retval, NULL))
		return 1;
	ok &= EXPECT_EQ("replace_me(len) = len + 1 after detach", retval, LEN + 1);

	bpf_object__close(obj);
	bpf_object__close(calls);
	return ok ? 0 : 1;
}
