// SPDX-License-Identifier: GPL-2.0-only
#include "lib/machine_options.h"
#include "lib/printf.h"
#include "lib/string.h"

static bool head_is(const char *v, size_t len, const char *lit)
{
	return len == strlen(lit) && !strncmp(v, lit, len);
}

/*
 * console=ttyS0[,baud] | ttyS1..3 | io,0xPORT[,baud] | mmio,0xADDR[,baud]
 * (byte registers) | mmio32,0xADDR[,baud] (32-bit registers) | none
 */
static int parse_console(void *var, const char *v, size_t len, char *why,
			 size_t whylen)
{
	static const u16 com_ports[] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };
	struct console_choice *c = var, n = { .baud = 115200 };
	const char *comma = memchr(v, ',', len);
	size_t head = comma ? (size_t)(comma - v) : len;
	const char *rest = comma ? comma + 1 : NULL;
	size_t restlen = comma ? len - head - 1 : 0;
	u64 baud = 115200, addr;

	if (head_is(v, len, "none")) {
		c->kind = CONSOLE_NONE;
		return 0;
	}
	if (head == 5 && !strncmp(v, "ttyS", 4) && v[4] >= '0' && v[4] <= '3') {
		n.kind = CONSOLE_IO;
		n.addr = com_ports[v[4] - '0'];
	} else if (head_is(v, head, "io") || head_is(v, head, "mmio") ||
		   head_is(v, head, "mmio32")) {
		const char *c2 = rest ? memchr(rest, ',', restlen) : NULL;
		size_t alen = c2 ? (size_t)(c2 - rest) : restlen;

		if (!rest || parse_u64(rest, alen, &addr) || !addr) {
			ntb_snprintf(why, whylen, "expected %.*s,0xADDRESS[,baud]",
				     (int)head, v);
			return -1;
		}
		if (head_is(v, head, "io") && addr > 0xfff8) {
			ntb_snprintf(why, whylen, "I/O port 0x%llx out of range",
				     (unsigned long long)addr);
			return -1;
		}
		n.kind = head_is(v, head, "io")	  ? CONSOLE_IO :
			 head_is(v, head, "mmio") ? CONSOLE_MMIO8 :
						    CONSOLE_MMIO32;
		n.addr = addr;
		rest = c2 ? c2 + 1 : NULL;
		restlen = c2 ? restlen - alen - 1 : 0;
	} else {
		ntb_snprintf(why, whylen,
			     "expected ttyS0..3, io,0xPORT, mmio,0xADDR, "
			     "mmio32,0xADDR or none");
		return -1;
	}
	if (rest && (parse_u64(rest, restlen, &baud) || baud < 50 ||
		     baud > 115200 || 115200 % baud)) {
		ntb_snprintf(why, whylen,
			     "baud must divide 115200 (9600, 57600, 115200...)");
		return -1;
	}
	n.baud = (u32)baud;
	*c = n;
	return 0;
}

DEFINE_OPTION_CUSTOM(struct console_choice, console, parse_console,
		     "ttyS0..3[,baud], io,0xPORT[,baud], mmio[32],0xADDR[,baud], "
		     "none (default: ACPI SPCR, else COM1)",
		     { .kind = CONSOLE_AUTO, .addr = 0x3f8, .baud = 115200 });

static const struct opt_word smp_words[] = {
	{ "off", SMP_OFF },
	{ "all", (u64)SMP_ALL },
	{ NULL },
};
DEFINE_OPTION_NUMBER(int, smp, SMP_ALL, smp_words, 1, 4096, NULL,
		     "CPUs to start: off, all or a count");

DEFINE_OPTION_LIST(smp_extra_apic_ids, "smp.extra_apic_ids", NULL, 0,
		   0xfffffffe, 0, "expected up to 8 APIC IDs, like 7,9",
		   "also try to start these APIC IDs (tests the report of a "
		   "CPU that never starts)");

static const struct opt_word off_word[] = {
	{ "off", 0 },
	{ NULL },
};
DEFINE_OPTION_NUMBER(u32, watchdog, 300, off_word, 1, 86400,
		     "expected off or seconds (1..86400)",
		     "seconds without progress before a case is declared hung "
		     "(300; off)");

static const struct opt_word finish_words[] = {
	{ "poweroff", FINISH_POWEROFF },
	{ "halt", FINISH_HALT },
	{ "reboot", FINISH_REBOOT },
	{ NULL },
};
DEFINE_OPTION_ENUM(enum on_finish, on_finish, FINISH_POWEROFF, finish_words,
		   "poweroff, halt or reboot at the end");
