// SPDX-License-Identifier: GPL-2.0
/*
 * test_user - aarch64 Linux user program for benchmarks/plugin/test.
 *
 * Runs, between two marker hints, a known set of maintenance instructions:
 * 3x DSB ISH, 2x ISB, 1x DC CVAU (on data) and 1x IC IVAU (on code).  EL0
 * may execute DC CVAU and IC IVAU when SCTLR_EL1.UCI is set, which Linux
 * does (and QEMU's user mode emulates), which is how JITs and the like keep
 * their caches coherent.  All of it sits in one asm statement so that the
 * compiler can put nothing of its own between the markers.
 */
#include <stdio.h>

#ifndef MARKER
#define MARKER 120
#endif

#define __str(x)	#x
#define str(x)		__str(x)

/* HINT #MARKER as a raw word: exactly what the plugin matches, any assembler */
#define MARKER_INSN	".inst (0xd503201f | (" str(MARKER) " << 5))\n\t"

static char data[64] __attribute__((aligned(64)));

int main(void)
{
	asm volatile(MARKER_INSN
		     "dsb ish\n\t"
		     "dsb ish\n\t"
		     "dsb ish\n\t"
		     "isb\n\t"
		     "isb\n\t"
		     "dc cvau, %0\n\t"
		     "ic ivau, %1\n\t"
		     MARKER_INSN
		     : : "r"(data), "r"(main) : "memory");
	puts("test_user: done");
	return 0;
}
