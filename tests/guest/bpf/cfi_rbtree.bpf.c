// SPDX-License-Identifier: GPL-2.0
/*
 * The less() callback of bpf_rbtree_add(): __bpf_rbtree_add() calls the JITed
 * subprogram through a bpf_callback_t pointer for every comparison.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"

struct node_data {
	long key;
	struct bpf_rb_node node;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(A) struct bpf_spin_lock glock;
private(A) struct bpf_rb_root groot __contains(node_data, node);

/* In .bss: comparisons made, and the keys in the order they came out. */
struct rbtree_results {
	__u64 less_calls;
	long first[3];
} res;

static bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct node_data *na = container_of(a, struct node_data, node);
	struct node_data *nb = container_of(b, struct node_data, node);

	res.less_calls++;
	return na->key < nb->key;
}

static long add(long key)
{
	struct node_data *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 1;
	n->key = key;
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	bpf_spin_unlock(&glock);
	return 0;
}

/* Take out the smallest key, or -1 if the tree is empty. */
static long pop_first(void)
{
	struct bpf_rb_node *rb;
	struct node_data *n;
	long key;

	bpf_spin_lock(&glock);
	rb = bpf_rbtree_first(&groot);
	if (!rb) {
		bpf_spin_unlock(&glock);
		return -1;
	}
	rb = bpf_rbtree_remove(&groot, rb);
	bpf_spin_unlock(&glock);
	if (!rb)
		return -1;
	n = container_of(rb, struct node_data, node);
	key = n->key;
	bpf_obj_drop(n);
	return key;
}

SEC("tc")
long add_and_pop(struct __sk_buff *skb)
{
	res.less_calls = 0;
	if (add(5) || add(1) || add(3))
		return 1;
	res.first[0] = pop_first();
	res.first[1] = pop_first();
	res.first[2] = pop_first();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
