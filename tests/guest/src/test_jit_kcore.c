// SPDX-License-Identifier: GPL-2.0
/*
 * JITed code is readable through /proc/kcore, region on or off (patch 9):
 * the segment of /proc/kcore's program headers that covers a loaded
 * program's JITed address is the region's own (exactly its start and size)
 * when the region is on, and reading the program's bytes through it gives
 * what BPF_OBJ_GET_INFO_BY_FD returns as jited_prog_insns. With the region
 * on, the whole region reads through it, as a dumper would read it, and so
 * does the staging pool (its pages have no linear alias, through which
 * vread_iter() reads) again and again while another process loads
 * programs, so that its slots are mapped while they are read: no read may
 * come up short, and the runner fails the test on any Oops.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "jit_loads.h"
#include "ktest.h"

#define CHUNK (1 << 20)
#define POOL_READS 50

/* The PT_LOAD header of /proc/kcore that covers ADDR; 0, or -1 (with a FAIL line). */
static int kcore_segment(int fd, unsigned long long addr, Elf64_Phdr *out)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int i;

	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(ph))
		return printf("FAIL: /proc/kcore: not an ELF64 core\n"), -1;
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + (off_t)i * sizeof(ph)) != sizeof(ph))
			return printf("FAIL: /proc/kcore: program header %d: %s\n", i,
				      strerror(errno)), -1;
		if (ph.p_type == PT_LOAD && addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_memsz) {
			*out = ph;
			return 0;
		}
	}
	return printf("FAIL: no /proc/kcore segment covers 0x%llx\n", addr), -1;
}

/* Read [START, START + SIZE) through SEG of FD; 0, or -1 (with a FAIL line). */
static int read_range(int fd, const Elf64_Phdr *seg, unsigned long long start,
		      unsigned long long size, char *buf)
{
	unsigned long long off;
	size_t len;
	ssize_t n;

	for (off = 0; off < size; off += len) {
		len = size - off < CHUNK ? size - off : CHUNK;
		n = pread(fd, buf, len, seg->p_offset + (start - seg->p_vaddr) + off);
		if (n != (ssize_t)len)
			return printf("FAIL: read 0x%llx through /proc/kcore: %zd of %zu bytes: %s\n",
				      start + off, n, len, n < 0 ? strerror(errno) : "short"), -1;
	}
	return 0;
}

/*
 * The staging pool's range, from /proc/vmallocinfo (real addresses need
 * kptr_restrict=1); 0, or -1 (with a FAIL line).
 */
static int pool_range(unsigned long long *start, unsigned long long *end)
{
	int found = 0, err;
	char line[512];
	FILE *f;

	err = ktest_write_file("/proc/sys/kernel/kptr_restrict", "1");
	if (err)
		return printf("FAIL: kptr_restrict=1: %s\n", strerror(err)), -1;
	f = fopen("/proc/vmallocinfo", "r");
	if (!f)
		return printf("FAIL: open /proc/vmallocinfo: %s\n", strerror(errno)), -1;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, "bpf_jit_staging_pool_init") &&
			sscanf(line, "0x%llx-0x%llx", start, end) == 2;
	fclose(f);
	return found ? 0 : (printf("FAIL: no staging pool in /proc/vmallocinfo\n"), -1);
}

/*
 * The whole region, then the staging pool POOL_READS times while a child
 * loads programs of 512 instructions; 1 if every read was whole.
 */
static int read_region(int fd, const Elf64_Phdr *seg, const struct ktest_region *r)
{
	unsigned long long pool_start, pool_end;
	char *buf = malloc(CHUNK);
	int ok = 1, i, good = 1;
	pid_t child;

	if (!buf)
		return printf("FAIL: out of memory\n"), 0;
	ok &= EXPECT_EQ("the whole region reads through /proc/kcore",
			read_range(fd, seg, r->start, r->size, buf), 0);
	if (pool_range(&pool_start, &pool_end))
		return free(buf), 0;
	printf("staging pool 0x%llx-0x%llx\n", pool_start, pool_end);
	ok &= EXPECT_EQ("the pool lies in the region",
			pool_start >= r->start && pool_end <= r->end, 1);
	if (!ok)
		return free(buf), 0;
	child = fork();
	if (child < 0)
		return free(buf), printf("FAIL: fork: %s\n", strerror(errno)), 0;
	if (child == 0) {
		/* Loads until killed, or until the parent dies (an Oops). */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			jl_single(512);
	}
	for (i = 0; i < POOL_READS && good; i++)
		good = !read_range(fd, seg, pool_start, pool_end - pool_start, buf);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	ok &= EXPECT_EQ("the pool reads through /proc/kcore during loads", good, 1);
	free(buf);
	return ok;
}

int main(void)
{
	struct bpf_object *obj = ktest_load("prog_run");
	int prog_fd = bpf_program__fd(ktest_prog(obj, "len_plus_seven"));
	struct bpf_prog_info info;
	__u32 info_len = sizeof(info), func_len = 0;
	unsigned char *jited, *read_back;
	__u64 ksym = 0;
	struct ktest_region r;
	Elf64_Phdr seg;
	int fd, ok = 1;
	ssize_t n;

	if (ktest_region(&r))
		return 1;
	memset(&info, 0, sizeof(info));
	if (bpf_prog_get_info_by_fd(prog_fd, &info, &info_len))
		return printf("FAIL: prog info: %s\n", strerror(errno)), 1;
	jited = calloc(1, info.jited_prog_len);
	read_back = calloc(1, info.jited_prog_len);
	if (!jited || !read_back)
		return printf("FAIL: out of memory\n"), 1;
	info_len = sizeof(info);
	info = (struct bpf_prog_info){
		.jited_prog_len = info.jited_prog_len,
		.jited_prog_insns = (unsigned long)jited,
		.nr_jited_ksyms = 1,
		.jited_ksyms = (unsigned long)&ksym,
		.nr_jited_func_lens = 1,
		.jited_func_lens = (unsigned long)&func_len,
	};
	if (bpf_prog_get_info_by_fd(prog_fd, &info, &info_len))
		return printf("FAIL: prog info: %s\n", strerror(errno)), 1;
	printf("program JITed at 0x%llx, %u bytes; region %s 0x%llx-0x%llx\n",
	       (unsigned long long)ksym, func_len, r.on ? "on" : "off", r.start, r.end);
	ok &= EXPECT_EQ("JITed address known", ksym != 0, 1);
	ok &= EXPECT_EQ("one function, all of the image", func_len, info.jited_prog_len);
	if (!ok)
		return 1;

	fd = open("/proc/kcore", O_RDONLY);
	if (fd < 0)
		return printf("FAIL: open /proc/kcore: %s\n", strerror(errno)), 1;
	if (kcore_segment(fd, ksym, &seg))
		return 1;
	printf("segment 0x%llx-0x%llx at file offset 0x%llx\n",
	       (unsigned long long)seg.p_vaddr, (unsigned long long)(seg.p_vaddr + seg.p_memsz),
	       (unsigned long long)seg.p_offset);
	if (r.on) {
		ok &= EXPECT_EQ("the segment starts at the region", seg.p_vaddr, r.start);
		ok &= EXPECT_EQ("and is its size", seg.p_memsz, r.size);
	} else {
		ok &= EXPECT_EQ("off: the segment is not in the window",
				seg.p_vaddr + seg.p_memsz <= r.window_start ||
				seg.p_vaddr >= r.window_end, 1);
	}
	n = pread(fd, read_back, func_len, seg.p_offset + (ksym - seg.p_vaddr));
	ok &= EXPECT_EQ("bytes read through /proc/kcore", n, func_len);
	ok &= EXPECT_EQ("they are the JITed image", n == func_len &&
			!memcmp(read_back, jited, func_len), 1);
	if (n == func_len && ok)
		printf("first instruction: 0x%08x\n", *(unsigned int *)read_back);
	if (r.on && seg.p_vaddr == r.start && seg.p_memsz == r.size)
		ok &= read_region(fd, &seg, &r);
	close(fd);
	bpf_object__close(obj);
	return ok ? 0 : 1;
}
