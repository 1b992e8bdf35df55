// SPDX-License-Identifier: GPL-2.0
/*
 * The call workload's programs, all socket filters run by
 * BPF_PROG_TEST_RUN. iters and flags live in .bss, so the verifier cannot
 * treat them as constants: bpf_loop() is not inlined and each iteration is
 * one indirect, kCFI-checked call of the callback.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

__u64 iters;
__u64 flags;		/* 0 at run time, unknown to the verifier */
__u64 tc_left;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} arr SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} jmp SEC(".maps");

/* The dispatcher: BPF_PROG_TEST_RUN's indirect call of a main program. */
SEC("socket")
int empty(struct __sk_buff *skb)
{
	return 0;
}

static long loop_cb(__u64 i, void *ctx)
{
	return 0;
}

SEC("socket")
int loop(struct __sk_buff *skb)
{
	return bpf_loop(iters, loop_cb, NULL, flags);
}

static long each_cb(struct bpf_map *map, __u32 *key, __u64 *val, void *ctx)
{
	return *key + 1 >= iters;	/* 1 stops the walk */
}

SEC("socket")
int for_each(struct __sk_buff *skb)
{
	return bpf_for_each_map_elem(&arr, each_cb, NULL, flags);
}

/* tc_entry tail-calls tc_hop (jmp[0]), which tail-calls itself tc_left times. */
SEC("socket")
int tc_entry(struct __sk_buff *skb)
{
	tc_left = iters;
	bpf_tail_call(skb, &jmp, 0);
	return 0;
}

SEC("socket")
int tc_hop(struct __sk_buff *skb)
{
	if (!tc_left)
		return 1;
	tc_left--;
	bpf_tail_call(skb, &jmp, 0);
	return 2;
}

/* bpf-to-bpf: the same loop with the callee kept and inlined. */
static __noinline int sub_call(int x)
{
	return x + 1;
}

static __always_inline int sub_inline(int x)
{
	return x + 1;
}

SEC("socket")
int bpf2bpf(struct __sk_buff *skb)
{
	int s = 0;

	for (__u32 i = 0; i < 1000 && i < iters; i++)
		s = sub_call(s);
	return s;
}

SEC("socket")
int bpf2bpf_inline(struct __sk_buff *skb)
{
	int s = 0;

	for (__u32 i = 0; i < 1000 && i < iters; i++)
		s = sub_inline(s);
	return s;
}

/* Targets of bench_attach.bpf.c: fentry/fexit on traced, freplace of replace_me. */
SEC("socket")
int traced(struct __sk_buff *skb)
{
	return 0;
}

__noinline int replace_me(int x)
{
	return x + 1;
}

SEC("socket")
int freplace_target(struct __sk_buff *skb)
{
	return replace_me(skb->len);
}

char LICENSE[] SEC("license") = "GPL";
