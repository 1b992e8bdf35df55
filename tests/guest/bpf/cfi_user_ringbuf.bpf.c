// SPDX-License-Identifier: GPL-2.0
/*
 * The callback of bpf_user_ringbuf_drain(): the helper calls the JITed
 * subprogram through a bpf_callback_t pointer once per sample.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_USER_RINGBUF);
	__uint(max_entries, 4096);
} samples SEC(".maps");

/* In .bss: the sum of the samples the callback read. */
__u64 sum;

static long on_sample(struct bpf_dynptr *dynptr, void *ctx)
{
	__u64 v;

	if (bpf_dynptr_read(&v, sizeof(v), dynptr, 0, 0))
		return 1;
	sum += v;
	return 0;
}

SEC("socket")
int drain(struct __sk_buff *skb)
{
	sum = 0;
	return bpf_user_ringbuf_drain(&samples, on_sample, NULL, 0);
}

char LICENSE[] SEC("license") = "GPL";
