// SPDX-License-Identifier: GPL-2.0-only
/*
 * The features 6.12 would set (arch/x86/kernel_features.c), which the
 * image patches the kernel blob's alternatives by: planted CPUs whose
 * answer the kernel's rules give, and in the hosted build this CPU's
 * CPUID against what the running kernel lists in /proc/cpuinfo.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/kernel_features.h"
#include "lib/kunit.h"
#include "lib/string.h"

#ifdef NTB_HOSTED
#include <stdio.h>
#include <string.h>
#endif

/* An Ice Lake server: family 6 model 0x6a, fast strings on, FSRM. */
static struct kernel_cpu_inputs icelake(void)
{
	struct kernel_cpu_inputs in = {
		.vendor = "GenuineIntel",
		.family = 6,
		.model = 0x6a,
		.max_leaf = 0x1b,
		.leaf7_ebx = (1u << 9) | (1u << 20) | (1u << 24),
		.leaf7_edx = 1u << 4,
		.misc_enable_read = true,
		.misc_enable = 1,
	};
	return in;
}

static int feature(const struct kernel_cpu_inputs *in, unsigned int f)
{
	char how[128];

	return kernel_cpu_feature(in, f, how, sizeof(how));
}

static void kernel_features_intel(struct kunit *test)
{
	struct kernel_cpu_inputs in = icelake();

	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_REP_GOOD), 1);
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_ERMS), 1);
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_FSRM), 1);
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_CLWB), 1);
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_FSRS), 0); /* no subleaf 1 */
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_LA57), 0);
	in.leaf7_ecx = 1u << 16; /* Ice Lake server has it: 5-level paging */
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_LA57), 1);
	/* fast strings off in IA32_MISC_ENABLE: both cleared */
	in.misc_enable = 0;
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_REP_GOOD), 0);
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_ERMS), 0);
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_FSRM), 1);
	/* unreadable: 6.12's rdmsrl() reads 0, fast strings off */
	in.misc_enable_read = false;
	in.misc_enable = 1;
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_REP_GOOD), 0);
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_ERMS), 0);
	/* an Intel family other than 6 has no REP_GOOD on x86-64 */
	in = icelake();
	in.family = 0x13;
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_REP_GOOD), 0);
	/* an earlier family-6 model keeps fast strings whatever the MSR */
	in = icelake();
	in.model = 0xc;
	in.misc_enable = 0;
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_REP_GOOD), 1);
}

static void kernel_features_amd(struct kunit *test)
{
	struct kernel_cpu_inputs in = {
		.vendor = "AuthenticAMD",
		.family = 0x19,
		.max_leaf = 0x10,
		.leaf7_eax = 1,
		.leaf7_ebx = 1u << 9,
		.leaf7_1_eax = 1u << 11,
	};

	/* no IA32_MISC_ENABLE rule on AMD: unread is no question */
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_REP_GOOD), 1);
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_ERMS), 1);
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_FSRS), 1);
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_FSRM), 0);
	/* init_amd(): FSRM implies FSRS */
	in.leaf7_1_eax = 0;
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_FSRS), 0);
	in.leaf7_edx = 1u << 4;
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_FSRS), 1);
	memcpy(in.vendor, "HygonGenuine", 13);
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_FSRS), 0);
	memcpy(in.vendor, "AuthenticAMD", 13);
	in.family = 0xf;
	in.leaf1_eax = 0x0f48;
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_REP_GOOD), 1);
	in.leaf1_eax = 0x0f50;
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_REP_GOOD), 0);
	memcpy(in.vendor, "HygonGenuine", 13);
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_REP_GOOD), 1);
	memcpy(in.vendor, "CentaurHauls", 13);
	KUNIT_EXPECT_EQ(test, feature(&in, KFEAT_REP_GOOD), -1);
	KUNIT_EXPECT_EQ(test, feature(&in, 0), -1); /* no rule */
}

#ifdef NTB_HOSTED
/* The running kernel's flags line, " a b c ", or "" where none. */
static void cpuinfo_flags(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];

	buf[0] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "flags", 5) || !colon)
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(buf, len, " %s ", colon + 1);
		break;
	}
	if (f)
		fclose(f);
}

static void kernel_features_this_cpu(struct kunit *test)
{
	static const struct {
		unsigned int feature;
		const char *flag;
	} known[] = {{KFEAT_REP_GOOD, "rep_good"},
		     {KFEAT_SMAP, "smap"},
		     {KFEAT_CLFLUSHOPT, "clflushopt"},
		     {KFEAT_CLWB, "clwb"},
		     {KFEAT_FSRM, "fsrm"}};
	const struct cpuinfo_x86 *c = &boot_cpu_data;
	struct kernel_cpu_inputs in = {0};
	char flags[4096], word[32], how[128];

	cpuinfo_flags(flags, sizeof(flags));
	if (!flags[0])
		kunit_skip(test, "/proc/cpuinfo has no flags line");
	kernel_cpu_inputs_from(c, &in);
	/*
	 * User space reads no MSR: the running kernel's word on fast
	 * strings is its ERMS where CPUID has it, which is why ERMS itself
	 * is not compared here (it would be compared with itself). Nor is
	 * LA57: the running kernel's paging follows its own configuration
	 * and command line (a host kernel that is not Debian's 6.12 may
	 * run 4-level on a CPU with LA57), not the CPU alone.
	 */
	in.misc_enable_read = true;
	in.misc_enable = !(in.leaf7_ebx & (1u << 9)) || strstr(flags, " erms ");
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		int got = kernel_cpu_feature(&in, known[i].feature, how,
					     sizeof(how));

		snprintf(word, sizeof(word), " %s ", known[i].flag);
		kunit_info(test, "%s: derived %d (%s), /proc/cpuinfo %s",
			   known[i].flag, got, how,
			   strstr(flags, word) ? "has it" : "has not");
		KUNIT_EXPECT_EQ(test, got, !!strstr(flags, word));
	}
}
#endif

static const struct kunit_case kernel_features_cases[] = {
	KUNIT_CASE(kernel_features_intel),
	KUNIT_CASE(kernel_features_amd),
#ifdef NTB_HOSTED
	KUNIT_CASE(kernel_features_this_cpu),
#endif
};

KUNIT_SUITE_DEFINE(kernel_features_suite, "kernel_features",
		   kernel_features_cases);
