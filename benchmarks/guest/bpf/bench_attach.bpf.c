// SPDX-License-Identifier: GPL-2.0
/*
 * Programs that attach to bench_calls.bpf.c's: fentry and fexit on traced
 * (a trampoline the target's first instruction branches to) and freplace of
 * replace_me. User space sets the target and loads one program at a time.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

__u64 hits;

SEC("fentry/traced")
int BPF_PROG(on_entry, struct sk_buff *skb)
{
	hits++;
	return 0;
}

SEC("fexit/traced")
int BPF_PROG(on_exit, struct sk_buff *skb, int ret)
{
	hits++;
	return 0;
}

SEC("freplace/replace_me")
int new_replace_me(int x)
{
	return x + 1;
}

char LICENSE[] SEC("license") = "GPL";
