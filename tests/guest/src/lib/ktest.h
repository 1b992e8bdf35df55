/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers for the guest's libbpf tests. */
#ifndef KTEST_H
#define KTEST_H

#include <sys/types.h>
#include <bpf/libbpf.h>

#define KTEST_SKIP 4
/* The kernel's error for a program the JIT did not compile, not in user space headers. */
#define ENOTSUPP 524

/* Print "# what: got X, expected Y" and return false on mismatch. */
#define EXPECT_EQ(what, got, want)                                          \
	({                                                                  \
		long long __g = (got), __w = (want);                        \
		int __ok = __g == __w;                                      \
		printf("%s %s: got %lld, expected %lld\n",                  \
		       __ok ? "ok:" : "FAIL:", what, __g, __w);             \
		__ok;                                                       \
	})

/* Open and load /tests/bpf/NAME.bpf.o; exits the test on failure. */
struct bpf_object *ktest_load(const char *name);
/* The object's .bss map (its global variables), or NULL. */
struct bpf_map *ktest_bss(struct bpf_object *obj);
/* Copy the first SIZE bytes of the object's .bss into BUF; 0 on success. */
int ktest_read_bss(struct bpf_object *obj, void *buf, size_t size);
struct bpf_program *ktest_prog(struct bpf_object *obj, const char *name);
/*
 * Run the iterator program PROG once and read its output into BUF, NUL
 * terminated; returns the length, or -1 (with a FAIL line) on failure.
 */
ssize_t ktest_read_iter(struct bpf_program *prog, char *buf, size_t size);
/* Open /tests/bpf/NAME.bpf.o without loading it; exits the test on failure. */
struct bpf_object *ktest_open(const char *name);
int ktest_test_run_skb(struct bpf_program *prog, int repeat,
		       unsigned int *retval, unsigned int *duration);
/* What program FD returns on a zeroed 64-byte packet, or -1 (with a FAIL line). */
long long ktest_run_fd(int fd);

/* Write STR to the file PATH: 0, or the errno of the failed open or write. */
int ktest_write_file(const char *path, const char *str);

/* /sys/kernel/debug/bpf_jit/region, the BPF JIT region's place and usage. */
struct ktest_region {
	unsigned long long on;		/* mode: on */
	unsigned long long start, end, size, window_start, window_end;
	unsigned long long in_use_bytes, high_water_bytes, allocations, failed_allocations;
	unsigned long long reserve_bytes;	/* kept for classic BPF and trampolines */
};

/* Read the region's counters; 0, or -1 (with a FAIL line). */
int ktest_region(struct ktest_region *r);
/* /sys/kernel/debug/bpf_jit/wp, BPF JIT write protection's mode and counters. */
struct ktest_wp {
	char mode[16];			/* enforce, warn or off */
	unsigned long long alias_sealed, seals, verifications, verification_failures;
	unsigned long long refused_changes, staging_bytes, staging_high_water_bytes;
	unsigned long long staging_failed_allocations;
	unsigned long long staging_pool_bytes, staging_pool_alias_unmapped, staging_pool_misses;
	unsigned long long digest_checks, digest_failures, occupied_destinations;
	unsigned long long insn_seals, insn_checks, insn_failures;
};

/* Read them; 0, or -1 (with a FAIL line). */
int ktest_wp(struct ktest_wp *w);
/*
 * Frees are deferred (RCU, workqueues): read the region's and write
 * protection's counters into R and W until their bytes in use are back to
 * those of R0 and W0, or 30 s have passed; 0, or -1 if they cannot be read.
 */
int ktest_settle(const struct ktest_region *r0, const struct ktest_wp *w0,
		 struct ktest_region *r, struct ktest_wp *w);
/* Fillers: socket filters of n - 1 moves and an exit (n at most KTEST_FILLER_MAX). */
#define KTEST_FILLER_MAX 4096	/* JITs to about 16 KiB */
/* Load a filler of N instructions: its fd, or -1 with errno. */
int ktest_load_filler(int n);
/*
 * The region's counters once an earlier test's deferred frees are done:
 * in_use_bytes the same for a second (at most 20 s); 0, or -1.
 */
int ktest_region_settled(struct ktest_region *r);
/* Read the region into R until in_use_bytes is WANT (at most 20 s); 0, or -1. */
int ktest_region_wait_in_use(unsigned long long want, struct ktest_region *r);
/* Address of the JITed code of program FD (its main function), or 0. */
unsigned long long ktest_jited_addr(int fd);

#endif
