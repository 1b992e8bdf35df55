// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_dummy_ops (net/bpf/bpf_dummy_struct_ops.c): BPF_PROG_TEST_RUN builds
 * a struct_ops trampoline for test_1 and calls it through a function
 * pointer of the stub's type, a kCFI checked indirect call.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("struct_ops/test_1")
int BPF_PROG(test_1, struct bpf_dummy_ops_state *state)
{
	if (!state)
		return 0xf2f3f4f5;
	state->val = state->val + 1;
	return 0x1234;
}

SEC(".struct_ops")
struct bpf_dummy_ops dummy_1 = {
	.test_1 = (void *)test_1,
};

char LICENSE[] SEC("license") = "GPL";
