// SPDX-License-Identifier: GPL-2.0
/* A socket filter whose return value depends on its input. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

SEC("socket")
int len_plus_seven(struct __sk_buff *skb)
{
	return skb->len + 7;
}

char LICENSE[] SEC("license") = "GPL";
