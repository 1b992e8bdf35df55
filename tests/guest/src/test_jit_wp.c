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
 *   preseal      the staging copy once the JIT has emitted it, just
 *                before the seal (the emission window)
 *   hole         a word planted in a hole of the staging copy before the
 *                seal (the victim still returns 0x1234: the hole is not run)
 *   size         the staging header's size, 64 bytes bigger before the seal
 *   slot         the pool's record of the slot's size set to 0 before the
 *                seal, then the staging write after it
 *   occupy       a word written into the executable destination just
 *                before the copy, as if a live program were there (the
 *                copy overwrites it: the victim still returns 0x1234)
 *   insn         the victim's BPF instruction "r0 = 0x1234" made
 *                "r0 = 0x4321" in its writable instructions, once the
 *                verifier is done with them and before the JIT starts
 *   mode         the mode variable and the enforce static key (no victim)
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
 * alone, as before this protection): stage, exec, preseal, slot and rw
 * land, and the victim returns 0x4321, which shows that the attacks are
 * real. The executable image is checked against a digest of what the JIT
 * emitted: preseal and hole fail the load in enforce (digest_failures
 * moves), are reported in warn. A header size that is not the one the JIT
 * allocated fails the load in every mode. A destination that is not free
 * fails the load in enforce (occupied_destinations moves), is reported in
 * warn. The JIT compiles the sealed copy of what the verifier approved:
 * instructions changed after the verifier fail the load in enforce
 * (insn_failures moves), are reported in warn, which compiles the sealed
 * copy (the victim returns 0x1234). The linear alias of a live
 * program is read-only in every mode (rodata=full). The mode cannot be
 * written: neither its variable nor its static key, nor the debugfs file.
 *
 * For the attack matrix (tests/security), each attack is marked in the
 * kernel log ("ktest: attack NAME VICTIM") so that the host can tell which
 * console lines it caused, and described on one line of output:
 * "matrix<TAB>attack<TAB>victim<TAB>gadget<TAB>load<TAB>returned<TAB>counters",
 * gadget the hook's outcome, load "loaded", "failed: errno N" or "live",
 * returned the victim's value after the attack or "-", counters those of
 * /sys/kernel/debug/bpf_jit/wp that moved, or "-".
 */
#include <errno.h>
#include <stddef.h>
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

/* Mark the start of an attack in the kernel log. */
static void mark(const char *name, const char *victim)
{
	char line[96];

	snprintf(line, sizeof(line), "ktest: attack %s %s", name, victim);
	ktest_write_file("/dev/kmsg", line);
}

/* The counters an attack can move, by name. */
static const struct {
	const char *name;
	size_t offset;
} counters[] = {
	{ "verification_failures", offsetof(struct ktest_wp, verification_failures) },
	{ "digest_failures", offsetof(struct ktest_wp, digest_failures) },
	{ "occupied_destinations", offsetof(struct ktest_wp, occupied_destinations) },
	{ "insn_failures", offsetof(struct ktest_wp, insn_failures) },
	{ "refused_changes", offsetof(struct ktest_wp, refused_changes) },
};

/* One row of the attack matrix (see the top of this file). */
static void matrix(const char *name, const char *victim, const char *load, long long ret,
		   const struct ktest_wp *before, const struct ktest_wp *after)
{
	char gadget[128] = "-", moved[256] = "", *end = moved;
	size_t i;

	outcome(gadget, sizeof(gadget));
	for (i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		unsigned long long a, b;

		memcpy(&a, (const char *)before + counters[i].offset, sizeof(a));
		memcpy(&b, (const char *)after + counters[i].offset, sizeof(b));
		if (b != a)
			end += snprintf(end, moved + sizeof(moved) - end, "%s%s +%llu",
					end == moved ? "" : ", ", counters[i].name, b - a);
	}
	if (ret < 0)
		printf("matrix\t%s\t%s\t%s\t%s\t-\t%s\n", name, victim, gadget, load,
		       *moved ? moved : "-");
	else
		printf("matrix\t%s\t%s\t%s\t%s\t0x%llx\t%s\n", name, victim, gadget, load, ret,
		       *moved ? moved : "-");
}

static int expect_outcome(const char *what, const char *want)
{
	char got[128];

	if (outcome(got, sizeof(got)))
		return 0;
	return EXPECT_EQ(what, strcmp(got, want) ? (printf("# outcome '%s', expected '%s'\n",
							   got, want), 1) : 0, 0);
}

/*
 * What a load-time attack must do: whether its write lands, whether the
 * load fails (ENOTSUPP), whether the victim then returns the tampered
 * value, and by how much verification_failures and digest_failures move.
 */
struct expect {
	int lands, refused, tampered, verify_fails, digest_fails, occupied, insn_fails;
};

/* Arm a load-time attack, load the victim (MULTI: its two-function form), check what happens. */
static int load_attack(enum mode mode, const char *name, int multi, struct expect e)
{
	const char *victim = multi ? "two-function" : "one-function";
	char cmd[64], want[64], what[128], load[32];
	struct ktest_wp before, after;
	int ok = 1, fd, err;
	long long ret;

	/* insn rewrites a BPF instruction's imm, the others an arm64 instruction. */
	if (!strcmp(name, "insn"))
		snprintf(cmd, sizeof(cmd), "%s %08x %08x", name, GOOD, TAMPERED);
	else
		snprintf(cmd, sizeof(cmd), "%s %08x %08x", name, MOVZ_X7_0x1234, MOVZ_X7_0x4321);
	mark(name, victim);
	if (ktest_wp(&before) || attack(cmd))
		return 0;
	printf("%s attack on the %s victim\n", name, victim);
	fd = load_victim(multi);
	err = fd < 0 ? errno : 0;
	if (ktest_wp(&after))
		return 0;
	ret = fd < 0 ? -1 : ktest_run_fd(fd);
	if (err)
		snprintf(load, sizeof(load), "failed: errno %d", err);
	else
		snprintf(load, sizeof(load), "loaded");
	matrix(name, victim, load, ret, &before, &after);
	snprintf(want, sizeof(want), "%s: %s", name, e.lands ? "landed" : "faulted");
	snprintf(what, sizeof(what), "%s: the write %s", name, e.lands ? "lands" : "faults");
	ok &= expect_outcome(what, want);
	snprintf(what, sizeof(what), "%s: verification_failures moves by", name);
	ok &= EXPECT_EQ(what, after.verification_failures - before.verification_failures,
			e.verify_fails);
	snprintf(what, sizeof(what), "%s: digest_failures moves by", name);
	ok &= EXPECT_EQ(what, after.digest_failures - before.digest_failures, e.digest_fails);
	snprintf(what, sizeof(what), "%s: occupied_destinations moves by", name);
	ok &= EXPECT_EQ(what, after.occupied_destinations - before.occupied_destinations,
			e.occupied);
	snprintf(what, sizeof(what), "%s: insn_failures moves by", name);
	ok &= EXPECT_EQ(what, after.insn_failures - before.insn_failures, e.insn_fails);

	if (e.refused) {
		snprintf(what, sizeof(what), "%s: the load fails with ENOTSUPP", name);
		ok &= EXPECT_EQ(what, err, ENOTSUPP);
		if (fd >= 0)
			close(fd);
		return ok;
	}
	snprintf(what, sizeof(what), "%s: the load succeeds", name);
	ok &= EXPECT_EQ(what, err, 0);
	if (fd < 0)
		return 0;
	snprintf(what, sizeof(what), "%s: the victim returns %s", name,
		 e.tampered ? "the tampered value" : "its own value");
	ok &= EXPECT_EQ(what, ret, e.tampered ? TAMPERED : GOOD);
	if (mode != OFF) {
		snprintf(what, sizeof(what), "%s: seals moves by its functions", name);
		ok &= EXPECT_EQ(what, after.seals - before.seals, multi ? 2 : 1);
		snprintf(what, sizeof(what), "%s: digest_checks moves by its functions", name);
		ok &= EXPECT_EQ(what, after.digest_checks - before.digest_checks, multi ? 2 : 1);
		snprintf(what, sizeof(what), "%s: insn_seals moves by its functions", name);
		ok &= EXPECT_EQ(what, after.insn_seals - before.insn_seals, multi ? 2 : 1);
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
	mark(name, "live");
	if (ktest_wp(&before) || attack(cmd) || ktest_wp(&after))
		return 0;
	ret = ktest_run_fd(fd);
	matrix(name, "live", "live", ret, &before, &after);
	snprintf(what, sizeof(what), "%s: outcome '%s'", name, want);
	ok &= expect_outcome(what, want);
	snprintf(what, sizeof(what), "%s: refused_changes moves by", name);
	ok &= EXPECT_EQ(what, after.refused_changes - before.refused_changes, refused);
	snprintf(what, sizeof(what), "%s: the victim returns", name);
	ok &= EXPECT_EQ(what, ret, want_ret);
	close(fd);
	return ok;
}

int main(void)
{
	struct ktest_wp start, end, pre, post;
	int ok = 1, fd, multi, off, enforce;
	enum mode mode;
	char refused[32];

	if (access(ATTACK_FILE, W_OK))
		return printf("no %s: kernel without the series' test hooks\n", ATTACK_FILE),
		       KTEST_SKIP;
	if (ktest_wp(&start))
		return 1;
	mode = !strcmp(start.mode, "enforce") ? ENFORCE : !strcmp(start.mode, "warn") ? WARN : OFF;
	off = mode == OFF;
	enforce = mode == ENFORCE;
	printf("mode %s, linear alias sealed %llu\n", start.mode, start.alias_sealed);

	for (multi = 0; multi < 2; multi++) {
		fd = load_victim(multi);
		if (fd < 0)
			return printf("FAIL: load the victim: %s\n", strerror(errno)), 1;
		ok &= EXPECT_EQ("the victim returns 0x1234", ktest_run_fd(fd), GOOD);
		close(fd);

		/* The staging copy: sealed in warn and enforce, kvmalloc() when off. */
		ok &= load_attack(mode, "stage", multi,
				  (struct expect){ .lands = off, .tampered = off });
		if (start.alias_sealed)
			ok &= load_attack(mode, "stage_alias", multi,
					  (struct expect){ .lands = off, .tampered = off });
		/*
		 * The executable image between copy and verification: the copy
		 * check catches it first; in warn mode the digest reports it too.
		 */
		ok &= load_attack(mode, "exec", multi,
				  (struct expect){ .lands = 1, .refused = enforce,
						   .tampered = !enforce, .verify_fails = !off,
						   .digest_fails = mode == WARN });
		/* The emission window: the digest of what the JIT emitted catches it. */
		ok &= load_attack(mode, "preseal", multi,
				  (struct expect){ .lands = 1, .refused = enforce,
						   .tampered = !enforce, .digest_fails = !off });
		ok &= load_attack(mode, "hole", multi,
				  (struct expect){ .lands = 1, .refused = enforce,
						   .digest_fails = !off });
		/* The size finalize copies: checked against the JIT's in every mode. */
		ok &= load_attack(mode, "size", multi, (struct expect){ .lands = 1, .refused = 1 });
		/* The executable destination must be free (all BRK) before the copy. */
		ok &= load_attack(mode, "occupy", multi,
				  (struct expect){ .lands = 1, .refused = enforce,
						   .occupied = !off });
		/* What the JIT compiles is what the verifier approved. */
		ok &= load_attack(mode, "insn", multi,
				  (struct expect){ .lands = 1, .refused = enforce,
						   .tampered = off, .insn_fails = !off });
		/* The pool's record of a slot's size does not decide what is sealed. */
		ok &= load_attack(mode, "slot", multi,
				  (struct expect){ .lands = off, .tampered = off });
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

	/*
	 * The mode is fixed at boot: a write gadget cannot reach its
	 * variable or its static key (read-only after init), and debugfs
	 * cannot change it.
	 */
	mark("mode", "none");
	if (ktest_wp(&pre))
		return 1;
	ok &= attack("mode") == 0;
	if (ktest_wp(&post))
		return 1;
	matrix("mode", "none", "-", -1, &pre, &post);
	ok &= expect_outcome("mode: the variable and the key fault", "mode: faulted, key faulted");
	ok &= EXPECT_EQ("writing the mode file fails", ktest_write_file(MODE_FILE, "off") != 0, 1);
	if (ktest_wp(&end))
		return 1;
	ok &= EXPECT_EQ("the mode is still the boot one", strcmp(end.mode, start.mode), 0);

	/* Nothing staged stays allocated. */
	if (ktest_wp(&end))
		return 1;
	ok &= EXPECT_EQ("staging_bytes back to where it started", end.staging_bytes,
			start.staging_bytes);
	return ok ? 0 : 1;
}
