// SPDX-License-Identifier: GPL-2.0-only
/*
 * The platforms too slow for the benchmarks' real sizes, in one place. On
 * an emulated CPU (QEMU's TCG) a 100 GiB memmap takes hours and its
 * timings mean nothing; the sanitizer build of the host tests checks code
 * paths, not speed. There the benchmark defaults shrink so a plain run
 * stays a functional test; an option the user gave is always honoured.
 * The suites' own budgets (how long the litmus tests run, how large the
 * SMP memmap is) shrink here too, each a knob of the table below.
 */
#include "arch/x86/cpu.h"
#include "lib/options.h"
#include "lib/printf.h"
#include "lib/scale.h"
#include "lib/string.h"

static bool sanitizer_build(void)
{
#ifdef NTB_HOST_TESTS
	return true;
#else
	return false;
#endif
}

/*
 * The first platform that applies sets the defaults, and each knob is
 * the first nonzero one among those that apply. The sanitizer build comes
 * first: where both apply (the host tests on an emulated CPU) its numbers,
 * sized for `make check-host`, stand; a knob it leaves at 0 (the SMP
 * memmap) still comes from the emulated CPU.
 */
static const struct platform_scale slow_platforms[] = {
	{
		.name = "sanitizer build",
		.id = SLOW_SANITIZER,
		.applies = sanitizer_build,
		.defaults = "namespace=16M runs=3",
		.why = "it tests code paths, build/host/ntbench measures",
		/* What `make check-host` runs: keep it short. */
		.knob[SCALE_LITMUS_SUITE_MS] = 6000,
		.knob[SCALE_SMP_ROUNDS] = 20,
	},
	{
		.name = "emulated CPU (TCG)",
		.id = SLOW_TCG,
		.applies = cpu_is_emulated,
		.defaults = "namespace=64M runs=3",
		.why = "timings here say nothing about silicon",
		/* The whole suite; the QEMU boot is on top of it. */
		.knob[SCALE_LITMUS_SUITE_MS] = 12000,
		/* Every reader's memmap_verify() is emulated: 16 MiB. */
		.knob[SCALE_SMP_MAX_PFNS] = 4096,
		.knob[SCALE_SMP_ROUNDS] = 5,
		/*
		 * vCPUs are host threads (eight of them on two host cores,
		 * say): a worker that is not held can miss a 50 ms join.
		 */
		.knob[SCALE_ON_CPUS_SHORT_US] = 500000,
		/*
		 * The same threads answer INIT-SIPI-SIPI: on a busy host
		 * one may not run for a good part of a second.
		 */
		.knob[SCALE_AP_ONLINE_US] = 5000000,
	},
};

#define SCALE_MAX_KEYS 8

int options_scale(const struct platform_scale *p, char *line, size_t len)
{
	const struct ntb_option *keys[SCALE_MAX_KEYS];
	struct opt_error err;
	size_t n, nkeys = 0;

	if (options_parse_defaults(p->defaults, &err)) {
		ntb_snprintf(line, len, "%s: %s", p->name, err.msg);
		return -1;
	}
	/* The parse above found every key: words are "key=value" apart. */
	for (const char *s = p->defaults; *s && nkeys < SCALE_MAX_KEYS;) {
		const char *eq = strchr(s, '=');
		const char *end = strchr(eq, ' ');

		keys[nkeys++] = options_find(s, eq - s);
		s = end ? end + 1 : eq + strlen(eq);
	}
	n = ntb_snprintf(line, len, "%s: benchmark defaults scaled to",
			 p->name);
	/* Each scaled key with the value in force now, the user's or ours. */
	for (size_t i = 0; i < nkeys && n < len; i++) {
		char v[32];

		option_format(keys[i], v, sizeof(v));
		n += ntb_snprintf(line + n, len - n, " %s=%s", keys[i]->key, v);
	}
	if (n < len)
		n += ntb_snprintf(line + n, len - n, "; %s (set", p->why);
	for (size_t i = 0; i < nkeys && n < len; i++)
		n += ntb_snprintf(line + n, len - n, "%s%s=",
				  !i ? " " : i + 1 == nkeys ? " and " : ", ",
				  keys[i]->key);
	if (n < len)
		ntb_snprintf(line + n, len - n, " to override)");
	return 0;
}

void options_scale_for_platform(void)
{
	char line[256];

	for (size_t i = 0; i < ARRAY_SIZE(slow_platforms); i++) {
		const struct platform_scale *p = &slow_platforms[i];

		if (p->applies && !p->applies())
			continue;
		if (options_scale(p, line, sizeof(line)))
			kprintf("# options: scaling failed: %s\n", line);
		else
			kprintf("# %s\n", line);
		return;
	}
}

u64 platform_scaled_on(unsigned int present, enum scale_knob knob, u64 dflt,
		       const char **who)
{
	for (size_t i = 0; i < ARRAY_SIZE(slow_platforms); i++) {
		const struct platform_scale *p = &slow_platforms[i];

		if (!(present & p->id) || !p->knob[knob])
			continue;
		if (who)
			*who = p->name;
		return p->knob[knob];
	}
	if (who)
		*who = NULL;
	return dflt;
}

u64 platform_scaled(enum scale_knob knob, u64 dflt, const char **who)
{
	unsigned int present = 0;

	for (size_t i = 0; i < ARRAY_SIZE(slow_platforms); i++) {
		const struct platform_scale *p = &slow_platforms[i];

		if (!p->applies || p->applies())
			present |= p->id;
	}
	return platform_scaled_on(present, knob, dflt, who);
}
