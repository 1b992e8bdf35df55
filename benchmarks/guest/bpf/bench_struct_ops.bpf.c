// SPDX-License-Identifier: GPL-2.0
/*
 * struct_ops for the call and attach workloads. bpf_dummy_ops's
 * BPF_PROG_TEST_RUN builds a trampoline for test_1, calls it through a
 * kCFI-checked pointer and frees it. bench_ca is a TCP congestion control
 * whose registration (map update + link) builds a trampoline per member.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("struct_ops/test_1")
int BPF_PROG(test_1, struct bpf_dummy_ops_state *state)
{
	return state ? 0x1234 : 0xf2f3f4f5;
}

SEC(".struct_ops")
struct bpf_dummy_ops dummy = {
	.test_1 = (void *)test_1,
};

SEC("struct_ops")
__u32 BPF_PROG(ca_ssthresh, struct sock *sk)
{
	return 2;
}

SEC("struct_ops")
void BPF_PROG(ca_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
}

SEC("struct_ops")
__u32 BPF_PROG(ca_undo_cwnd, struct sock *sk)
{
	return 2;
}

SEC(".struct_ops.link")
struct tcp_congestion_ops bench_ca = {
	.ssthresh = (void *)ca_ssthresh,
	.cong_avoid = (void *)ca_cong_avoid,
	.undo_cwnd = (void *)ca_undo_cwnd,
	.name = "bench_ca",
};

char LICENSE[] SEC("license") = "GPL";
