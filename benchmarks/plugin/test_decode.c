// SPDX-License-Identifier: GPL-2.0
/*
 * test_decode - host-side checks of insn_classes.h's insn_class().
 *
 *   test_decode            check the table below; "ok - ..." / "not ok - ..."
 *   test_decode --list     print "WORD<TAB>ASM" per table entry, for the test
 *                          script to assemble ASM with GNU as and compare
 *   test_decode --decode   read hex words on stdin, print "WORD CLASS OP"
 *                          ("- -" when not counted) per word
 *   test_decode --sweep F  write to F (little endian) every SYS/SYSL word of
 *                          CRn 7, 8 and 9 (Rt 0 and 31), every barrier and
 *                          every HINT word, for objdump to name
 *
 * The words in the table are built from the encodings of the Arm ARM
 * (DDI 0487, C6.2 "SYS", "DSB", "DMB", "ISB", "HINT"), not copied from an
 * assembler, so that comparing them with GNU as checks the derivation too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "insn_classes.h"

/* SYS #op1, Cn, Cm, #op2, Xt: 1101 0101 0000 1 op1 CRn CRm op2 Rt */
#define SYS(op1, crn, crm, op2, rt)					\
	(0xd5080000u | (op1) << 16 | (crn) << 12 | (crm) << 8 | (op2) << 5 | (rt))
/* SYSL Xt, #op1, Cn, Cm, #op2: as SYS with L (bit 21) set */
#define SYSL(op1, crn, crm, op2, rt)	(SYS(op1, crn, crm, op2, rt) | 1u << 21)
/* DSB (op2 4), DMB (5), ISB (6): 1101 0101 0000 0011 0011 CRm op2 11111 */
#define BARRIER(crm, op2)	(0xd503301fu | (crm) << 8 | (op2) << 5)
/* HINT #imm7: 1101 0101 0000 0011 0010 CRm:op2 11111 */
#define HINT(imm)		(0xd503201fu | (imm) << 5)

struct known {
	uint32_t word;
	const char *as;		/* GNU as syntax */
	const char *cls;	/* NULL: not counted */
	const char *op;
};

static const struct known known[] = {
	{ SYS(0, 8, 3, 5, 0), "tlbi vale1is, x0", "tlbi", "vale1is" },
	{ SYS(0, 8, 3, 5, 3), "tlbi vale1is, x3", "tlbi", "vale1is" },
	{ SYS(0, 8, 3, 0, 31), "tlbi vmalle1is", "tlbi", "vmalle1is" },
	{ SYS(0, 8, 3, 7, 0), "tlbi vaale1is, x0", "tlbi", "vaale1is" },
	{ SYS(0, 8, 3, 3, 1), "tlbi vaae1is, x1", "tlbi", "vaae1is" },
	{ SYS(0, 8, 3, 2, 2), "tlbi aside1is, x2", "tlbi", "aside1is" },
	{ SYS(0, 8, 7, 1, 1), "tlbi vae1, x1", "tlbi", "vae1" },
	{ SYS(0, 8, 1, 5, 5), "tlbi vale1os, x5", "tlbi", "vale1os" },
	{ SYS(0, 8, 2, 1, 4), "tlbi rvae1is, x4", "tlbi", "rvae1is" },
	{ SYS(4, 8, 3, 1, 6), "tlbi vae2is, x6", "tlbi", "vae2is" },
	{ BARRIER(11, 4), "dsb ish", "dsb", "ish" },
	{ BARRIER(10, 4), "dsb ishst", "dsb", "ishst" },
	{ BARRIER(15, 4), "dsb sy", "dsb", "sy" },
	{ BARRIER(7, 4), "dsb nsh", "dsb", "nsh" },
	{ BARRIER(15, 6), "isb", "isb", "sy" },
	{ BARRIER(11, 5), "dmb ish", "dmb", "ish" },
	{ BARRIER(9, 5), "dmb ishld", "dmb", "ishld" },
	{ SYS(3, 7, 11, 1, 0), "dc cvau, x0", "dc", "cvau" },
	{ SYS(3, 7, 14, 1, 1), "dc civac, x1", "dc", "civac" },
	{ SYS(3, 7, 10, 1, 2), "dc cvac, x2", "dc", "cvac" },
	{ SYS(3, 7, 4, 1, 3), "dc zva, x3", "dc", "zva" },
	{ SYS(3, 7, 5, 1, 0), "ic ivau, x0", "ic", "ivau" },
	{ SYS(0, 7, 5, 0, 31), "ic iallu", "ic", "iallu" },
	{ SYS(0, 7, 1, 0, 31), "ic ialluis", "ic", "ialluis" },
	{ SYS(0, 7, 8, 0, 0), "at s1e1r, x0", "at", "s1e1r" },
	{ HINT(120), "hint #120", "mark", "marker" },
	{ HINT(0), "hint #0", NULL, NULL },		/* NOP */
	{ HINT(0x19), "paciasp", NULL, NULL },
	{ SYSL(0, 8, 3, 5, 0), "sysl x0, #0, c8, c3, #5", NULL, NULL },
	/* ADD (shifted register), sf=1: 1 0 0 01011 00 0 Rm imm6 Rn Rd */
	{ 0x8b000000u | 2 << 16 | 1 << 5 | 0, "add x0, x1, x2", NULL, NULL },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static int check_known(void)
{
	int failed = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(known); i++) {
		const struct known *k = &known[i];
		const char *cls = NULL, *op = NULL;
		int c = insn_class(k->word, &cls, &op);
		int ok;

		if (k->cls)
			ok = c != INSN_NONE && !strcmp(cls, k->cls) && !strcmp(op, k->op);
		else
			ok = c == INSN_NONE;
		printf("%s - decode 0x%08x '%s' as %s%s%s", ok ? "ok" : "not ok",
		       k->word, k->as, k->cls ? k->cls : "not counted",
		       k->cls ? "." : "", k->cls ? k->op : "");
		if (!ok)
			printf(" (got %s%s%s)", c ? cls : "not counted", c ? "." : "",
			       c ? op : "");
		printf("\n");
		failed += !ok;
	}
	return failed ? 1 : 0;
}

static void decode_stdin(void)
{
	char line[64];

	while (fgets(line, sizeof(line), stdin)) {
		uint32_t w = strtoul(line, NULL, 16);
		const char *cls, *op;

		if (insn_class(w, &cls, &op))
			printf("%08x %s %s\n", w, cls, op);
		else
			printf("%08x - -\n", w);
	}
}

static void put_word(FILE *f, uint32_t w)
{
	unsigned char b[4] = { w, w >> 8, w >> 16, w >> 24 };

	fwrite(b, 1, sizeof(b), f);
}

static int sweep(const char *path)
{
	static const unsigned int crns[] = { 7, 8, 9 };
	unsigned int n, op1, crm, op2, i;
	FILE *f = fopen(path, "wb");

	if (!f) {
		perror(path);
		return 1;
	}
	for (n = 0; n < ARRAY_SIZE(crns); n++)
		for (op1 = 0; op1 < 8; op1++)
			for (crm = 0; crm < 16; crm++)
				for (op2 = 0; op2 < 8; op2++) {
					put_word(f, SYS(op1, crns[n], crm, op2, 0));
					put_word(f, SYS(op1, crns[n], crm, op2, 31));
					put_word(f, SYSL(op1, crns[n], crm, op2, 0));
				}
	for (crm = 0; crm < 16; crm++)
		for (op2 = 0; op2 < 8; op2++)
			put_word(f, BARRIER(crm, op2));
	for (i = 0; i < 128; i++)
		put_word(f, HINT(i));
	return fclose(f) ? 1 : 0;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc == 1)
		return check_known();
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < ARRAY_SIZE(known); i++)
			printf("%08x\t%s\n", known[i].word, known[i].as);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--decode")) {
		decode_stdin();
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--sweep"))
		return sweep(argv[2]);
	fprintf(stderr, "usage: %s [--list | --decode | --sweep FILE]\n", argv[0]);
	return 2;
}
