// SPDX-License-Identifier: GPL-2.0
/*
 * BPF JIT write protection against a simulated kernel write gadget
 * (/sys/kernel/debug/bpf_jit/wp_attack, the series' test hooks).
 *
 * The victim returns 0x1234: "r0 = 0x1234; exit" JITs to movz x7, #0x1234
 * (BPF r0 is x7). Each attack rewrites that instruction into
 * movz x7, #0x4321 somewhere on the way to, or in, the executable image:
 *
 *   stage        the JIT's staging copy, after sealing
 *   stage_alias  the same through its linear alias
 *   exec         the executable image, between its copy and verification
 *   rw           set_memory_rw() on a live program's page, then the write
 *   nx, rox      set_memory_nx() / a second set_memory_rox() on that page
 *   alias        the live program's page through its linear alias
 *
 * What must happen depends on the mode (bpf_jit_wp=, read from
 * /sys/kernel/debug/bpf_jit/wp). enforce: every write faults or is
 * refused, the exec attack fails the load (the JIT's error, ENOTSUPP), the
 * victim never returns 0x4321, the matching counter moves. warn: the same
 * writes fault (the staging copy is sealed), the exec attack and the
 * permission changes are reported and let through. off (the region
 * alone, as before this protection): stage, exec and rw land, and the
 * victim returns 0x4321, which shows that the attacks are real. The
 * linear alias of a live program is read-only in every mode (rodata=full).
 * Writing a weaker mode to /sys/kernel/debug/bpf_jit/wp_mode is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include "ktest.h"

#define ATTACK_FILE "/sys/kernel/debug/bpf_jit/wp_attack"
#define MODE_FILE "/sys/kernel/debug/bpf_jit/wp_mode"
#define MOVZ_X7_0x1234 0xd2824687U	/* movz x7, #0x1234 */
#define MOVZ_X7_0x4321 0xd2886427U	/* movz x7, #0x4321 */
#define GOOD 0x1234
#define TAMPERED 0x4321

enum mode { OFF, WARN, ENFORCE };

/*
 * The victim; MULTI: as two functions, main calling f, which returns 0,
 * then returning 0x1234 itself, so that the attacks hit main, sealed and
 * checked in the JIT's extra pass.
 */
static int load_victim(int multi)
{
	struct bpf_insn one[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = GOOD },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpf_insn two[] = {
		{ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_CALL, .imm = 2 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = GOOD },
		{ .code = BPF_JMP | BPF_EXIT },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "wp_victim", "GPL",
			     multi ? two : one, multi ? 5 : 2, NULL);
}

static __u32 prog_id(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	return bpf_prog_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

/* Write CMD to the attack file. */
static int attack(const char *cmd)
{
	int err = ktest_write_file(ATTACK_FILE, cmd);

	if (err)
		printf("FAIL: write '%s' to %s: %s\n", cmd, ATTACK_FILE, strerror(err));
	return err ? -1 : 0;
}

static int outcome(char *out, size_t size)
{
	FILE *f = fopen(ATTACK_FILE, "r");

	if (!f || !fgets(out, size, f)) {
		printf("FAIL: read %s\n", ATTACK_FILE);
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

static int expect_outcome(const char *what, const char *want)
{
	char got[128];

	if (outcome(got, sizeof(got)))
		return 0;
	return EXPECT_EQ(what, strcmp(got, want) ? (printf("# outcome '%s', expected '%s'\n",
							   got, want), 1) : 0, 0);
}

/* Arm a load-time attack, load the victim (MULTI: its two-function form), check what happens. */
static int load_attack(enum mode mode, const char *name, int multi, int lands, int refused)
{
	char cmd[64], want[64], what[128];
	struct ktest_wp before, after;
	int ok = 1, fd, err;
	long long ret;

	snprintf(cmd, sizeof(cmd), "%s %08x %08x", name, MOVZ_X7_0x1234, MOVZ_X7_0x4321);
	if (ktest_wp(&before) || attack(cmd))
		return 0;
	printf("%s attack on the %s victim\n", name, multi ? "two-function" : "one-function");
	fd = load_victim(multi);
	err = fd < 0 ? errno : 0;
	if (ktest_wp(&after))
		return 0;
	snprintf(want, sizeof(want), "%s: %s", name, lands ? "landed" : "faulted");
	snprintf(what, sizeof(what), "%s: the write %s", name, lands ? "lands" : "faults");
	ok &= expect_outcome(what, want);

	if (refused) {
		snprintf(what, sizeof(what), "%s: the load fails with ENOTSUPP", name);
		ok &= EXPECT_EQ(what, err, ENOTSUPP);
		snprintf(what, sizeof(what), "%s: verification_failures moves", name);
		ok &= EXPECT_EQ(what, after.verification_failures - before.verification_failures, 1);
		if (fd >= 0)
			close(fd);
		return ok;
	}
	snprintf(what, sizeof(what), "%s: the load succeeds", name);
	ok &= EXPECT_EQ(what, err, 0);
	if (fd < 0)
		return 0;
	ret = ktest_run_fd(fd);
	snprintf(what, sizeof(what), "%s: the victim returns %s", name,
		 lands ? "the tampered value" : "its own value");
	ok &= EXPECT_EQ(what, ret, lands ? TAMPERED : GOOD);
	if (mode != OFF) {
		snprintf(what, sizeof(what), "%s: seals moves by its functions", name);
		ok &= EXPECT_EQ(what, after.seals - before.seals, multi ? 2 : 1);
	}
	close(fd);
	return ok;
}

/* An attack on the live victim: CMD with %u for its id. */
static int live_attack(const char *fmt, const char *name, const char *want, int refused,
		       long long want_ret)
{
	struct ktest_wp before, after;
	char cmd[96], what[96];
	int ok = 1, fd = load_victim(0);
	long long ret;

	if (fd < 0)
		return printf("FAIL: load the victim: %s\n", strerror(errno)), 0;
	snprintf(cmd, sizeof(cmd), fmt, prog_id(fd), MOVZ_X7_0x1234, MOVZ_X7_0x4321);
	if (ktest_wp(&before) || attack(cmd) || ktest_wp(&after))
		return 0;
	snprintf(what, sizeof(what), "%s: outcome '%s'", name, want);
	ok &= expect_outcome(what, want);
	snprintf(what, sizeof(what), "%s: refused_changes moves by", name);
	ok &= EXPECT_EQ(what, after.refused_changes - before.refused_changes, refused);
	ret = ktest_run_fd(fd);
	snprintf(what, sizeof(what), "%s: the victim returns", name);
	ok &= EXPECT_EQ(what, ret, want_ret);
	close(fd);
	return ok;
}

int main(void)
{
	struct ktest_wp start, end;
	int ok = 1, fd, multi;
	enum mode mode;
	char refused[32];

	if (access(ATTACK_FILE, W_OK))
		return printf("no %s: kernel without the series' test hooks\n", ATTACK_FILE),
		       KTEST_SKIP;
	if (ktest_wp(&start))
		return 1;
	mode = !strcmp(start.mode, "enforce") ? ENFORCE : !strcmp(start.mode, "warn") ? WARN : OFF;
	printf("mode %s, linear alias sealed %llu\n", start.mode, start.alias_sealed);

	for (multi = 0; multi < 2; multi++) {
		fd = load_victim(multi);
		if (fd < 0)
			return printf("FAIL: load the victim: %s\n", strerror(errno)), 1;
		ok &= EXPECT_EQ("the victim returns 0x1234", ktest_run_fd(fd), GOOD);
		close(fd);

		/* The staging copy: sealed in warn and enforce, kvmalloc() when off. */
		ok &= load_attack(mode, "stage", multi, mode == OFF, 0);
		if (start.alias_sealed)
			ok &= load_attack(mode, "stage_alias", multi, mode == OFF, 0);
		/* The executable image between copy and verification. */
		ok &= load_attack(mode, "exec", multi, 1, mode == ENFORCE);
	}

	/* The live program's page. */
	/* In warn mode, the set_memory_ro() after the write is reported too. */
	snprintf(refused, sizeof(refused), "rw: refused %d", -EPERM);
	ok &= live_attack("rw %u %08x %08x", "rw",
			  mode == ENFORCE ? refused : "rw: allowed, landed",
			  mode == ENFORCE ? 1 : mode == WARN ? 2 : 0,
			  mode == ENFORCE ? GOOD : TAMPERED);
	snprintf(refused, sizeof(refused), "nx: refused %d", -EPERM);
	ok &= live_attack("nx %u", "nx", mode == ENFORCE ? refused : "nx: allowed",
			  mode != OFF, GOOD);
	/* In warn mode both halves of set_memory_rox() are reported. */
	snprintf(refused, sizeof(refused), "rox: refused %d", -EPERM);
	ok &= live_attack("rox %u", "rox", mode == ENFORCE ? refused : "rox: allowed",
			  mode == ENFORCE ? 1 : mode == WARN ? 2 : 0, GOOD);
	if (start.alias_sealed)
		ok &= live_attack("alias %u %08x %08x", "alias", "alias: faulted", 0, GOOD);

	/* At run time the mode can only become stricter. */
	ok &= EXPECT_EQ("the mode can be set to itself", ktest_write_file(MODE_FILE, start.mode), 0);
	if (mode != OFF)
		ok &= EXPECT_EQ("a weaker mode is refused with EPERM", ktest_write_file(MODE_FILE, "off"), EPERM);

	/* Nothing staged stays allocated. */
	if (ktest_wp(&end))
		return 1;
	ok &= EXPECT_EQ("staging_bytes back to where it started", end.staging_bytes,
			start.staging_bytes);
	return ok ? 0 : 1;
}
