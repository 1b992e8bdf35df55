// SPDX-License-Identifier: GPL-2.0
/*
 * A struct_ops program of bpf_dummy_ops runs through BPF_PROG_TEST_RUN: the
 * kernel calls its trampoline through a kCFI checked function pointer. With
 * no state it returns 0xf2f3f4f5; with a state it increments state->val,
 * which the kernel copies back, and returns 0x1234.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ktest.h"

struct bpf_dummy_ops_state {
	int val;
};

static int run(int fd, struct bpf_dummy_ops_state *state, unsigned int *retval)
{
	__u64 args[1] = { (unsigned long)state };
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		    .ctx_in = args,
		    .ctx_size_in = sizeof(args));

	if (bpf_prog_test_run_opts(fd, &opts)) {
		printf("FAIL: BPF_PROG_TEST_RUN: %s\n", strerror(errno));
		return -1;
	}
	*retval = opts.retval;
	return 0;
}

int main(void)
{
	struct bpf_object *obj = ktest_load("cfi_struct_ops");
	int fd = bpf_program__fd(ktest_prog(obj, "test_1"));
	struct bpf_dummy_ops_state state = { .val = 41 };
	unsigned int retval;
	int ok = 1;

	if (run(fd, NULL, &retval))
		return 1;
	ok &= EXPECT_EQ("test_1(NULL)", retval, 0xf2f3f4f5);
	if (run(fd, &state, &retval))
		return 1;
	ok &= EXPECT_EQ("test_1(&state)", retval, 0x1234);
	ok &= EXPECT_EQ("state.val after test_1", state.val, 42);

	bpf_object__close(obj);
	return ok ? 0 : 1;
}
