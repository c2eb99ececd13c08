// SPDX-License-Identifier: GPL-2.0-only
#include "include/compiler.h"
#include "kernel/desc.h"

struct desc_ptr {
	u16 size;
	u64 address;
} __packed;

struct gate_desc {
	u16 offset_low;
	u16 segment;
	u8 ist;
	u8 type_attr;
	u16 offset_middle;
	u32 offset_high;
	u32 reserved;
} __packed;

/* null, 64-bit code, data: flat, ring 0. */
static u64 gdt[3] __aligned(16) = {
	0,
	0x00af9a000000ffffull, /* P, DPL0, code, readable, L=1 */
	0x00cf92000000ffffull, /* P, DPL0, data, writable */
};

static struct gate_desc idt[256] __aligned(16);

extern char exception_stubs[];
void load_segments(u16 code_sel, u16 data_sel);

#define GATE_INTERRUPT 0x8e /* present, DPL0, 64-bit interrupt gate */
#define EXC_STUB_SIZE 16


void idt_init(void)
{
	for (int v = 0; v < 32; v++) {
		u64 addr = (u64)(uptr)exception_stubs + v * EXC_STUB_SIZE;
		struct gate_desc *g = &idt[v];

		g->offset_low = addr & 0xffff;
		g->offset_middle = (addr >> 16) & 0xffff;
		g->offset_high = addr >> 32;
		g->segment = __KERNEL_CS;
		g->ist = 0;
		/* Interrupt gates: IF stays clear inside handlers. */
		g->type_attr = GATE_INTERRUPT;
	}
}

void load_gdt_idt(void)
{
	struct desc_ptr gp = { sizeof(gdt) - 1, (u64)(uptr)gdt };
	struct desc_ptr ip = { sizeof(idt) - 1, (u64)(uptr)idt };

	asm volatile("lgdt %0" ::"m"(gp));
	load_segments(__KERNEL_CS, __KERNEL_DS);
	asm volatile("lidt %0" ::"m"(ip));
}
