// SPDX-License-Identifier: GPL-2.0
/*
 * fentry and fexit on a JITed main program: attaching patches the target's
 * entry (the poke offset from bpf_func) to branch to a trampoline. The
 * tracing programs must see the call and its return value, and the target
 * must still return the right value, attached and detached. A faulting
 * load in the fentry program checks the JIT's exception table.
 */
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "ktest.h"

#define LEN 64		/* skb->len of test_run's 64-byte packet (tc keeps Ethernet) */

struct attach_results {
	__u64 entries;
	__u64 exits;
	__u64 exit_ret;
	__u64 entry_len;
	__u64 null_read;
};

int main(void)
{
	struct bpf_object *calls = ktest_load("jit_calls");
	struct bpf_program *target = ktest_prog(calls, "traced");
	struct bpf_object *obj = ktest_open("jit_attach");
	struct bpf_program *entry = ktest_prog(obj, "on_entry");
	struct bpf_program *fexit = ktest_prog(obj, "on_exit");
	struct bpf_link *l1, *l2;
	struct attach_results res;
	unsigned int retval;
	int ok = 1, err;

	bpf_program__set_autoload(ktest_prog(obj, "new_replace_me"), false);
	bpf_program__set_attach_target(entry, bpf_program__fd(target), "traced");
	bpf_program__set_attach_target(fexit, bpf_program__fd(target), "traced");
	err = bpf_object__load(obj);
	if (err)
		return printf("FAIL: load jit_attach: %s\n", strerror(-err)), 1;
	l1 = bpf_program__attach_trace(entry);
	l2 = bpf_program__attach_trace(fexit);
	if (!l1 || !l2)
		return printf("FAIL: attach fentry/fexit\n"), 1;

	if (ktest_test_run_skb(target, 1, &retval, NULL))
		return 1;
	ok &= EXPECT_EQ("traced returns len * 2 with fentry/fexit attached", retval, LEN * 2);
	if (ktest_read_bss(obj, &res, sizeof(res)))
		return 1;
	ok &= EXPECT_EQ("fentry runs", res.entries, 1);
	ok &= EXPECT_EQ("fentry sees skb->len", res.entry_len, LEN);
	ok &= EXPECT_EQ("faulting load of skb->next->len, fixed up to 0", res.null_read, 0);
	ok &= EXPECT_EQ("fexit runs", res.exits, 1);
	ok &= EXPECT_EQ("fexit sees the return value", res.exit_ret, LEN * 2);

	bpf_link__destroy(l1);
	bpf_link__destroy(l2);
	if (ktest_test_run_skb(target, 1, &retval, NULL))
		return 1;
	ok &= EXPECT_EQ("traced returns len * 2 detached", retval, LEN * 2);
	if (ktest_read_bss(obj, &res, sizeof(res)))
		return 1;
	ok &= EXPECT_EQ("fentry does not run detached", res.entries, 1);

	bpf_object__close(obj);
	bpf_object__close(calls);
	return ok ? 0 : 1;
}
