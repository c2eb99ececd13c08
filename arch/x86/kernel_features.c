// SPDX-License-Identifier: GPL-2.0-only
/*
 * 6.12's rules for the features its memmap objects' alternatives test
 * (arch/x86/kernel_features.h). Each rule says where the kernel makes it:
 * a feature word straight from CPUID is scattered by get_cpu_cap() in
 * arch/x86/kernel/cpu/common.c; the synthetic ones are set by the
 * vendor's init code and cleared again by the boot where they must be.
 */
#include "arch/x86/kernel_features.h"
#include "arch/x86/cpu.h"
#include "lib/printf.h"
#include "lib/string.h"

#define MISC_ENABLE_FAST_STRING (1ULL << 0)

static bool vendor_is(const struct kernel_cpu_inputs *in, const char *v)
{
	return !strcmp(in->vendor, v);
}

static int answer(int set, char *how, size_t len, const char *fmt, ...)
	__printf(4, 5);

static int answer(int set, char *how, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ntb_vsnprintf(how, len, fmt, ap);
	va_end(ap);
	return set;
}

/*
 * early_init_intel(): where IA32_MISC_ENABLE says fast strings are off
 * (family 6 from model 0xd, and later families), REP_GOOD and ERMS are
 * cleared whatever else sets them. 1: cleared, 0: not, -1: unread.
 */
static int intel_fast_strings_off(const struct kernel_cpu_inputs *in)
{
	if (!vendor_is(in, "GenuineIntel") ||
	    !(in->family > 6 || (in->family == 6 && in->model >= 0xd)))
		return 0;
	if (!in->misc_enable_read)
		return -1;
	return !(in->misc_enable & MISC_ENABLE_FAST_STRING);
}

/*
 * Where early_init_intel() clears REP_GOOD and ERMS: 0 with how in @how;
 * 1 where it does not. An MSR that cannot be read is read as 0 by 6.12's
 * rdmsrl() (its fault fixup): fast strings count as off.
 */
static int fast_strings_kept(const struct kernel_cpu_inputs *in, char *how,
			     size_t len)
{
	int off = intel_fast_strings_off(in);

	if (off < 0)
		return answer(0, how, len,
			      "Intel with IA32_MISC_ENABLE unreadable: 6.12's "
			      "rdmsrl() reads 0, fast strings off "
			      "(early_init_intel)");
	if (off)
		return answer(0, how, len,
			      "Intel with fast strings off in "
			      "IA32_MISC_ENABLE (early_init_intel)");
	return 1;
}

static int rep_good(const struct kernel_cpu_inputs *in, char *how, size_t len)
{
	int kept = fast_strings_kept(in, how, len);

	if (kept < 1)
		return kept;
	if (vendor_is(in, "GenuineIntel"))
		return answer(in->family == 6, how, len,
			      "Intel family %u: set for family 6 "
			      "(init_intel)",
			      in->family);
	if (vendor_is(in, "AuthenticAMD")) {
		if (in->family >= 0x10)
			return answer(1, how, len,
				      "AMD family %#x: set from family 0x10 "
				      "(init_amd)",
				      in->family);
		if (in->family == 0xf) {
			u32 l = in->leaf1_eax;

			return answer(
				(l >= 0x0f48 && l < 0x0f50) || l >= 0x0f58, how,
				len, "AMD K8 signature %#x (init_amd_k8)", l);
		}
		return answer(0, how, len, "AMD family %#x", in->family);
	}
	if (vendor_is(in, "HygonGenuine"))
		return answer(1, how, len, "Hygon: always (init_hygon)");
	return answer(-1, how, len,
		      "vendor %s: the image follows Intel's, AMD's and "
		      "Hygon's rules only",
		      in->vendor);
}

/* A bit of CPUID 7 (subleaf @sub, register @reg's value @v). */
static int leaf7_bit(const struct kernel_cpu_inputs *in, unsigned int sub,
		     u32 v, unsigned int bit, const char *reg, char *how,
		     size_t len)
{
	if (in->max_leaf < 7 || (sub && in->leaf7_eax < sub))
		return answer(0, how, len, "no CPUID 7.%u", sub);
	return answer((v >> bit) & 1, how, len, "CPUID 7.%u %s[%u]", sub, reg,
		      bit);
}

void kernel_cpu_inputs_from(const struct cpuinfo_x86 *c,
			    struct kernel_cpu_inputs *in)
{
	u32 b, cx, d;

	memset(in, 0, sizeof(*in));
	memcpy(in->vendor, c->vendor, sizeof(in->vendor));
	in->family = c->family;
	in->model = c->model;
	in->max_leaf = c->max_leaf;
	cpuid_count(1, 0, &in->leaf1_eax, &b, &cx, &d);
	if (c->max_leaf >= 7) {
		cpuid_count(7, 0, &in->leaf7_eax, &in->leaf7_ebx,
			    &in->leaf7_ecx, &in->leaf7_edx);
		cpuid_count(7, 1, &in->leaf7_1_eax, &b, &cx, &d);
	}
}

int kernel_cpu_feature(const struct kernel_cpu_inputs *in, unsigned int feature,
		       char *how, size_t len)
{
	int kept;

	switch (feature) {
	case KFEAT_ALWAYS: /* ALWAYS */
		return answer(1, how, len, "always");
	case KFEAT_REP_GOOD: /* REP_GOOD */
		return rep_good(in, how, len);
	case KFEAT_ERMS: /* ERMS */
		kept = fast_strings_kept(in, how, len);
		if (kept < 1)
			return kept;
		return leaf7_bit(in, 0, in->leaf7_ebx, 9, "EBX", how, len);
	case KFEAT_SMAP: /* SMAP: straight from CPUID (get_cpu_cap) */
		return leaf7_bit(in, 0, in->leaf7_ebx, 20, "EBX", how, len);
	case KFEAT_CLFLUSHOPT: /* CLFLUSHOPT */
		return leaf7_bit(in, 0, in->leaf7_ebx, 23, "EBX", how, len);
	case KFEAT_CLWB: /* CLWB */
		return leaf7_bit(in, 0, in->leaf7_ebx, 24, "EBX", how, len);
	case KFEAT_FSRS: /* FSRS; init_amd(): AMD's FSRM implies it */
		if (vendor_is(in, "AuthenticAMD") &&
		    leaf7_bit(in, 0, in->leaf7_edx, 4, "EDX", how, len) == 1)
			return answer(1, how, len,
				      "AMD with FSRM, CPUID 7.0 EDX[4] "
				      "(init_amd)");
		return leaf7_bit(in, 1, in->leaf7_1_eax, 11, "EAX", how, len);
	case KFEAT_FSRM: /* FSRM */
		return leaf7_bit(in, 0, in->leaf7_edx, 4, "EDX", how, len);
	case KFEAT_LA57: /* LA57 */
		/*
		 * CONFIG_X86_5LEVEL=y in Debian's build: the decompressor
		 * (or the EFI stub) turns 5-level paging on wherever CPUID
		 * has LA57 and no5lvl is not given, so early_identify_cpu()
		 * keeps the feature, whatever paging the image runs itself.
		 */
		return leaf7_bit(in, 0, in->leaf7_ecx, 16, "ECX", how, len);
	}
	return answer(-1, how, len, "no rule for feature word %u bit %u",
		      feature / 32, feature % 32);
}
