// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ktest.h"

struct bpf_object *ktest_open(const char *name)
{
	char path[256];
	struct bpf_object *obj;

	snprintf(path, sizeof(path), "/tests/bpf/%s.bpf.o", name);
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		printf("FAIL: open %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return obj;
}

struct bpf_object *ktest_load(const char *name)
{
	struct bpf_object *obj = ktest_open(name);
	int err;

	err = bpf_object__load(obj);
	if (err) {
		printf("FAIL: load %s: %s\n", name, strerror(-err));
		exit(1);
	}
	return obj;
}

struct bpf_map *ktest_bss(struct bpf_object *obj)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj) {
		const char *name = bpf_map__name(map);
		size_t len = strlen(name);

		if (len > 4 && !strcmp(name + len - 4, ".bss"))
			return map;
	}
	return NULL;
}

int ktest_read_bss(struct bpf_object *obj, void *buf, size_t size)
{
	struct bpf_map *bss = ktest_bss(obj);
	__u32 zero = 0;
	void *value;
	int err;

	if (!bss || bpf_map__value_size(bss) < size) {
		printf("FAIL: no .bss of %zu bytes\n", size);
		return -1;
	}
	value = calloc(1, bpf_map__value_size(bss));
	if (!value)
		return -1;
	err = bpf_map_lookup_elem(bpf_map__fd(bss), &zero, value);
	if (err)
		printf("FAIL: read .bss: %s\n", strerror(errno));
	else
		memcpy(buf, value, size);
	free(value);
	return err;
}

struct bpf_program *ktest_prog(struct bpf_object *obj, const char *name)
{
	struct bpf_program *prog;

	prog = bpf_object__find_program_by_name(obj, name);
	if (!prog) {
		printf("FAIL: no program %s\n", name);
		exit(1);
	}
	return prog;
}

static int test_run(int fd, int repeat, unsigned int *retval, unsigned int *duration)
{
	unsigned char pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		    .data_in = pkt,
		    .data_size_in = sizeof(pkt),
		    .repeat = repeat);
	int err;

	err = bpf_prog_test_run_opts(fd, &opts);
	if (err) {
		printf("FAIL: BPF_PROG_TEST_RUN: %s\n", strerror(errno));
		return -1;
	}
	*retval = opts.retval;
	if (duration)
		*duration = opts.duration;
	return 0;
}

int ktest_test_run_skb(struct bpf_program *prog, int repeat,
		       unsigned int *retval, unsigned int *duration)
{
	return test_run(bpf_program__fd(prog), repeat, retval, duration);
}

long long ktest_run_fd(int fd)
{
	unsigned int retval;

	return test_run(fd, 1, &retval, NULL) ? -1 : retval;
}

ssize_t ktest_read_iter(struct bpf_program *prog, char *buf, size_t size)
{
	struct bpf_link *link = bpf_program__attach_iter(prog, NULL);
	int fd = link ? bpf_iter_create(bpf_link__fd(link)) : -1;
	size_t len = 0;
	ssize_t n = 0;

	if (fd < 0) {
		printf("FAIL: iterator %s: %s\n", bpf_program__name(prog), strerror(errno));
		bpf_link__destroy(link);
		return -1;
	}
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	close(fd);
	bpf_link__destroy(link);
	if (n < 0) {
		printf("FAIL: read iterator %s: %s\n", bpf_program__name(prog), strerror(errno));
		return -1;
	}
	return len;
}

int ktest_write_file(const char *path, const char *str)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return errno;
	if (fputs(str, f) < 0 || fflush(f))
		err = errno;
	if (fclose(f) && !err)
		err = errno;
	return err;
}

#define REGION_FILE "/sys/kernel/debug/bpf_jit/region"
#define WP_FILE "/sys/kernel/debug/bpf_jit/wp"

struct kv {
	const char *key;
	unsigned long long *val;
};

/*
 * Read the "key: value" lines of the debugfs file PATH: the numbers of
 * KEYS, and the word of its "mode" line into MODE. 0, or -1 (with a FAIL
 * line) when the file cannot be read or lacks a key.
 */
static int read_kv(const char *path, const struct kv *keys, int nkeys, char *mode,
		   size_t mode_size)
{
	char key[64], val[64];
	FILE *f = fopen(path, "r");
	int n = 0, i;

	if (!f) {
		printf("FAIL: open %s: %s\n", path, strerror(errno));
		return -1;
	}
	mode[0] = '\0';
	while (fscanf(f, " %63[^:]: %63s", key, val) == 2) {
		if (!strcmp(key, "mode"))
			snprintf(mode, mode_size, "%s", val);
		for (i = 0; i < nkeys; i++)
			if (!strcmp(key, keys[i].key)) {
				*keys[i].val = strtoull(val, NULL, 0);
				n++;
			}
	}
	fclose(f);
	if (n != nkeys || !mode[0]) {
		printf("FAIL: %s: %d of its %d counters read, mode '%s'\n", path, n, nkeys, mode);
		return -1;
	}
	return 0;
}

int ktest_region(struct ktest_region *r)
{
	const struct kv keys[] = {
		{ "start", &r->start }, { "end", &r->end }, { "size", &r->size },
		{ "window_start", &r->window_start }, { "window_end", &r->window_end },
		{ "in_use_bytes", &r->in_use_bytes }, { "high_water_bytes", &r->high_water_bytes },
		{ "allocations", &r->allocations }, { "failed_allocations", &r->failed_allocations },
		{ "reserve_bytes", &r->reserve_bytes },
	};
	char mode[64];

	memset(r, 0, sizeof(*r));
	if (read_kv(REGION_FILE, keys, sizeof(keys) / sizeof(keys[0]), mode, sizeof(mode)))
		return -1;
	r->on = !strcmp(mode, "on");
	return 0;
}

int ktest_wp(struct ktest_wp *w)
{
	const struct kv keys[] = {
		{ "alias_sealed", &w->alias_sealed }, { "seals", &w->seals },
		{ "verifications", &w->verifications },
		{ "verification_failures", &w->verification_failures },
		{ "refused_changes", &w->refused_changes }, { "staging_bytes", &w->staging_bytes },
		{ "staging_high_water_bytes", &w->staging_high_water_bytes },
		{ "staging_failed_allocations", &w->staging_failed_allocations },
		{ "staging_pool_bytes", &w->staging_pool_bytes },
		{ "staging_pool_alias_unmapped", &w->staging_pool_alias_unmapped },
		{ "staging_pool_misses", &w->staging_pool_misses },
		{ "digest_checks", &w->digest_checks },
		{ "digest_failures", &w->digest_failures },
		{ "occupied_destinations", &w->occupied_destinations },
		{ "insn_seals", &w->insn_seals }, { "insn_checks", &w->insn_checks },
		{ "insn_failures", &w->insn_failures },
	};

	memset(w, 0, sizeof(*w));
	return read_kv(WP_FILE, keys, sizeof(keys) / sizeof(keys[0]), w->mode, sizeof(w->mode));
}

int ktest_settle(const struct ktest_region *r0, const struct ktest_wp *w0,
		 struct ktest_region *r, struct ktest_wp *w)
{
	int i;

	for (i = 0; i < 300; i++) {
		if (ktest_region(r) || ktest_wp(w))
			return -1;
		if (r->in_use_bytes == r0->in_use_bytes && w->staging_bytes == w0->staging_bytes)
			return 0;
		usleep(100000);
	}
	return 0;
}

int ktest_load_filler(int n)
{
	static struct bpf_insn filler[KTEST_FILLER_MAX];
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	int i;

	if (n < 1 || n > KTEST_FILLER_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (!filler[KTEST_FILLER_MAX - 1].code) {
		for (i = 0; i < KTEST_FILLER_MAX - 1; i++)
			filler[i] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,
						       .imm = i };
		filler[i] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	}
	return bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "filler", "GPL",
			     filler + KTEST_FILLER_MAX - n, n, &opts);
}

int ktest_region_settled(struct ktest_region *r)
{
	unsigned long long last = ~0ULL;
	int i, same = 0;

	for (i = 0; i < 200 && same < 10; i++) {
		if (ktest_region(r))
			return -1;
		same = r->in_use_bytes == last ? same + 1 : 0;
		last = r->in_use_bytes;
		usleep(100000);
	}
	return 0;
}

int ktest_region_wait_in_use(unsigned long long want, struct ktest_region *r)
{
	int i;

	for (i = 0; i < 200; i++) {
		if (ktest_region(r))
			return -1;
		if (r->in_use_bytes == want)
			return 0;
		usleep(100000);
	}
	return 0;
}

unsigned long long ktest_jited_addr(int fd)
{
	struct bpf_prog_info info;
	__u64 ksym = 0;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	info.nr_jited_ksyms = 1;
	info.jited_ksyms = (unsigned long)&ksym;
	if (bpf_prog_get_info_by_fd(fd, &info, &len))
		return 0;
	return ksym;
}
