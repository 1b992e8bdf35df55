// SPDX-License-Identifier: GPL-2.0
/*
 * Programs that attach to other JITed programs (jit_calls.bpf.c): fentry and
 * fexit on a main program, through a trampoline the target's first
 * instructions branch to, and freplace of a global subprogram. User space
 * sets the targets with bpf_program__set_attach_target(). A tracing program
 * sees the target's context as the kernel's struct sk_buff.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* In .bss: what the tracing programs saw. */
struct attach_results {
	__u64 entries;
	__u64 exits;
	__u64 exit_ret;
	__u64 entry_len;
	__u64 null_read;	/* a faulting load fixed up by the extable */
} res;

SEC("fentry/traced")
int BPF_PROG(on_entry, struct sk_buff *skb)
{
	res.entries++;
	res.entry_len = skb->len;
	/*
	 * skb->next is NULL here: a BTF pointer load from it faults, and the
	 * JIT's exception table entry must turn it into 0.
	 */
	res.null_read = 12345;
	res.null_read = skb->next->len;
	return 0;
}

SEC("fexit/traced")
int BPF_PROG(on_exit, struct sk_buff *skb, int ret)
{
	res.exits++;
	res.exit_ret = ret;
	return 0;
}

SEC("freplace/replace_me")
int new_replace_me(int x)
{
	return x + 100;
}

char LICENSE[] SEC("license") = "GPL";
