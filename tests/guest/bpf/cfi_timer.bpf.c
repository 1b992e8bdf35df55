// SPDX-License-Identifier: GPL-2.0
/*
 * A bpf_timer callback: bpf_timer_cb() calls the JITed subprogram from hrtimer
 * context through a bpf_callback_t pointer, a kCFI checked indirect call.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define CLOCK_MONOTONIC 1

struct elem {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} timers SEC(".maps");

/* In .bss: how often the callback ran, and the key it was handed. */
struct timer_results {
	__u64 fired;
	__u64 key;
} res;

static int on_timer(void *map, int *key, struct elem *val)
{
	res.fired++;
	res.key = *key + 100;
	return 0;
}

SEC("tc")
int arm_timer(struct __sk_buff *skb)
{
	int key = 0;
	struct elem *e = bpf_map_lookup_elem(&timers, &key);

	if (!e)
		return 1;
	if (bpf_timer_init(&e->timer, &timers, CLOCK_MONOTONIC))
		return 2;
	if (bpf_timer_set_callback(&e->timer, on_timer))
		return 3;
	if (bpf_timer_start(&e->timer, 1000 /* ns */, 0))
		return 4;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
