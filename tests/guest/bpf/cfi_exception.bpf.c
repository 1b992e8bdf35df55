// SPDX-License-Identifier: GPL-2.0
/*
 * A BPF exception: bpf_throw() unwinds the program and calls its exception
 * callback through aux->bpf_exception_cb, a kCFI checked indirect call into
 * the JITed callback subprogram, whose result the program returns.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"

/* global, so that the compiler keeps it: only the decl tag refers to it */
__noinline int on_exception(u64 cookie)
{
	return cookie + 1000;
}

static __noinline int check_len(struct __sk_buff *skb)
{
	/* test_run's 64-byte packet, Ethernet header included (tc) */
	if (skb->len == 64)
		bpf_throw(7);
	return 1;
}

SEC("tc")
__exception_cb(on_exception)
int throw_from_subprog(struct __sk_buff *skb)
{
	return check_len(skb);
}

char LICENSE[] SEC("license") = "GPL";
