// SPDX-License-Identifier: GPL-2.0
/*
 * Calls between JITed programs that the kCFI word in front of each entry
 * point must not disturb: tail calls (they enter the callee past its
 * prologue), bpf-to-bpf calls, and the targets that jit_attach.bpf.c traces
 * with fentry/fexit and replaces with freplace.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

int tail_callee(struct __sk_buff *skb);
int tail_self(struct __sk_buff *skb);

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__uint(key_size, sizeof(__u32));
	__array(values, int (void *));
} jmp_table SEC(".maps") = {
	.values = {
		[0] = (void *)&tail_callee,
		[1] = (void *)&tail_self,
	},
};

/* In .bss: how often tail_self ran. */
__u64 self_runs;

SEC("tc")
int tail_callee(struct __sk_buff *skb)
{
	return skb->len + 1000;
}

SEC("tc")
int tail_caller(struct __sk_buff *skb)
{
	bpf_tail_call_static(skb, &jmp_table, 0);
	return 1;
}

/* Tail calls itself until the kernel's limit of 33 tail calls stops it. */
SEC("tc")
int tail_self(struct __sk_buff *skb)
{
	self_runs++;
	bpf_tail_call_static(skb, &jmp_table, 1);
	return 2;
}

SEC("tc")
int tail_self_start(struct __sk_buff *skb)
{
	self_runs = 0;
	bpf_tail_call_static(skb, &jmp_table, 1);
	return 3;
}

/*
 * A tail call from a subprogram returns to the subprogram's caller. Not a
 * constant fallback, or clang propagates it into the caller.
 */
static __noinline int sub_tail(struct __sk_buff *skb)
{
	bpf_tail_call_static(skb, &jmp_table, 0);
	return skb->len * 2;
}

SEC("tc")
int tail_from_subprog(struct __sk_buff *skb)
{
	return sub_tail(skb) + 20000;
}

/* bpf-to-bpf: a static and a global subprogram, nested. */
static __noinline int mul(int a, int b)
{
	return a * b;
}

__noinline int mul_add(int a, int b, int c)
{
	return mul(a, b) + c;
}

SEC("tc")
int bpf2bpf(struct __sk_buff *skb)
{
	return mul_add(skb->len, 3, 7) + mul(2, 5);
}

/* freplace replaces this global subprogram of freplace_target. */
__noinline int replace_me(int x)
{
	return x + 1;
}

SEC("tc")
int freplace_target(struct __sk_buff *skb)
{
	return replace_me(skb->len);
}

/* fentry and fexit attach to this main program. */
SEC("tc")
int traced(struct __sk_buff *skb)
{
	return skb->len * 2;
}

char LICENSE[] SEC("license") = "GPL";
