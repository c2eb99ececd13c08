// SPDX-License-Identifier: GPL-2.0-only
/*
 * The exception recovery itself: faults provoked inside a case must be
 * caught with the right vector and the run must go on. Bare metal only:
 * the hosted runner has no IDT of its own.
 */
#include "include/platform.h"
#include "lib/kunit.h"
#include "lib/printf.h"

/* Vector numbers (the image's kernel/traps.h has the full list). */
#define TRAP_DE 0
#define TRAP_BP 3
#define TRAP_UD 6
#define TRAP_GP 13
#define TRAP_PF 14

/*
 * An address that is canonical but far above any RAM the identity map
 * covers (64 TiB): reading it must page-fault.
 */
#define UNMAPPED_ADDR 0x0000400000000000ull

static int suite_init(struct kunit_suite *s, char *reason, size_t len)
{
	if (!plat_can_catch_faults()) {
		ntb_snprintf(reason, len, "this platform cannot catch faults");
		return 1;
	}
	return 0;
}

static void exception_ud_caught(struct kunit *test)
{
	KUNIT_EXPECT_FAULT(test, TRAP_UD, asm volatile("ud2"));
}

static void exception_pf_caught(struct kunit *test)
{
	volatile u64 *p = (volatile u64 *)(uptr)UNMAPPED_ADDR;

	KUNIT_EXPECT_FAULT(test, TRAP_PF, (void)*p);
}

static void exception_gp_caught(struct kunit *test)
{
	/* A non-canonical address raises #GP, not #PF. */
	volatile u64 *p = (volatile u64 *)(uptr)0x8000000000000000ull;

	KUNIT_EXPECT_FAULT(test, TRAP_GP, (void)*p);
}

static void exception_de_caught(struct kunit *test)
{
	volatile u32 zero = 0;
	u32 q;

	KUNIT_EXPECT_FAULT(test, TRAP_DE,
			   asm volatile("divl %2"
					: "=a"(q)
					: "a"(1), "r"(zero), "d"(0)));
	(void)q;
}

static void exception_bp_caught(struct kunit *test)
{
	KUNIT_EXPECT_FAULT(test, TRAP_BP, asm volatile("int3"));
}

#define TRAP_DF 8

/*
 * Each level keeps a kilobyte live. The kernel stack is 256 KiB: 320
 * levels run past its guard page, and stop soon after should the guard
 * be missing, so a broken guard damages little below the stack.
 */
#define RECURSE_MAX_DEPTH 320

static __noinline int recurse(volatile int depth)
{
	volatile u8 pad[1024];

	pad[0] = (u8)depth;
	if (depth >= RECURSE_MAX_DEPTH)
		return pad[0];
	return recurse(depth + 1) + pad[0];
}

static void exception_stack_overflow_caught(struct kunit *test)
{
	/*
	 * The overflow hits the guard page under the stack; the page fault
	 * cannot push its frame there, so the CPU raises #DF, which runs on
	 * its own stack (IST) and reports it.
	 */
	KUNIT_EXPECT_FAULT(test, TRAP_DF, recurse(0));
}

static void exception_run_goes_on(struct kunit *test)
{
	/* Two faults in a row: the handler state is reset each time. */
	KUNIT_EXPECT_FAULT(test, TRAP_UD, asm volatile("ud2"));
	KUNIT_EXPECT_FAULT(test, TRAP_UD, asm volatile("ud2"));
}

static void exception_no_fault_is_reported(struct kunit *test)
{
	/*
	 * The expectation must be able to fail: a statement that does not
	 * fault is an error. Run it on a scratch test so this case passes
	 * exactly when the scratch one fails.
	 */
	struct kunit scratch = { .name = "scratch",
				 .fault_expected = -1,
				 .quiet = true };

	KUNIT_EXPECT_FAULT(&scratch, TRAP_UD, (void)0);
	KUNIT_EXPECT_EQ(test, scratch.status, KUNIT_FAILURE);
}

static const struct kunit_case exception_cases[] = {
	KUNIT_CASE(exception_ud_caught),
	KUNIT_CASE(exception_pf_caught),
	KUNIT_CASE(exception_gp_caught),
	KUNIT_CASE(exception_de_caught),
	KUNIT_CASE(exception_bp_caught),
	KUNIT_CASE(exception_stack_overflow_caught),
	KUNIT_CASE(exception_run_goes_on),
	KUNIT_CASE(exception_no_fault_is_reported),
};

KUNIT_SUITE_DEFINE(exception_suite, "exceptions", exception_cases,
		   .flags = KUNIT_SUITE_IMAGE_ONLY, .suite_init = suite_init);
