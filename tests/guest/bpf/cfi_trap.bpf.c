// SPDX-License-Identifier: GPL-2.0
/*
 * Programs for t/test_cfi_trap, which makes their calls fail the kCFI check
 * on purpose. raw_tp programs: BPF_PROG_TEST_RUN runs them in process
 * context with bottom halves enabled, so that the oops kills only the
 * calling process (in softirq context it would panic).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

/* 0, but not a constant to the verifier: bpf_loop() is not inlined */
__u64 loop_flags;
__u64 loop_sum;

SEC("raw_tp")
int trap_main(void *ctx)
{
	return 7;
}

static long add_index(__u64 i, void *ctx)
{
	loop_sum += i;
	return 0;
}

SEC("raw_tp")
int trap_loop(void *ctx)
{
	loop_sum = 0;
	return bpf_loop(10, add_index, NULL, loop_flags);
}

char LICENSE[] SEC("license") = "GPL";
