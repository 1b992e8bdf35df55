// SPDX-License-Identifier: GPL-2.0
/*
 * BPF callbacks that C code calls through a function pointer, each a kCFI
 * checked indirect call into a JITed subprogram.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

/*
 * In .bss, one struct so that user space knows its layout. loop_flags is 0
 * at run time but not a constant to the verifier, so it does not inline
 * bpf_loop() and the call goes through bpf_loop()'s indirect callback().
 */
struct cfi_results {
	__u64 loop_flags;
	__u64 loop_sum;
	__u64 each_sum;
} res;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} values SEC(".maps");

static long add_index(__u64 i, void *ctx)
{
	res.loop_sum += i;
	return 0;
}

SEC("socket")
int loop_not_inlined(struct __sk_buff *skb)
{
	res.loop_sum = 0;
	return bpf_loop(10, add_index, NULL, res.loop_flags);
}

static long add_value(struct bpf_map *map, __u32 *key, __u64 *val, void *ctx)
{
	res.each_sum += *val;
	return 0;
}

SEC("socket")
int for_each_elem(struct __sk_buff *skb)
{
	res.each_sum = 0;
	return bpf_for_each_map_elem(&values, add_value, NULL, 0);
}

char LICENSE[] SEC("license") = "GPL";
