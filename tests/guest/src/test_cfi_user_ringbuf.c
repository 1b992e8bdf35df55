// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_user_ringbuf_drain() hands each sample that user space submitted to
 * the program's callback, which it calls through a function pointer (kCFI
 * checked).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "ktest.h"

int main(void)
{
	struct bpf_object *obj = ktest_load("cfi_user_ringbuf");
	struct bpf_map *samples = bpf_object__find_map_by_name(obj, "samples");
	struct user_ring_buffer *rb;
	unsigned int retval;
	__u64 sum, want = 0, i, *p;
	int ok = 1;

	rb = samples ? user_ring_buffer__new(bpf_map__fd(samples), NULL) : NULL;
	if (!rb)
		return printf("FAIL: user_ring_buffer__new: %s\n", strerror(errno)), 1;
	for (i = 1; i <= 5; i++) {
		p = user_ring_buffer__reserve(rb, sizeof(*p));
		if (!p)
			return printf("FAIL: reserve: %s\n", strerror(errno)), 1;
		*p = i * 10;
		want += *p;
		user_ring_buffer__submit(rb, p);
	}
	if (ktest_test_run_skb(ktest_prog(obj, "drain"), 1, &retval, NULL))
		return 1;
	ok &= EXPECT_EQ("samples drained", retval, 5);
	if (ktest_read_bss(obj, &sum, sizeof(sum)))
		return 1;
	ok &= EXPECT_EQ("sum the callback read", sum, want);

	user_ring_buffer__free(rb);
	bpf_object__close(obj);
	return ok ? 0 : 1;
}
