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

/* null, 64-bit code, data: flat, ring 0; then the TSS (per CPU). */
static const u64 gdt_template[3] = {
	0,
	0x00af9a000000ffffull, /* P, DPL0, code, readable, L=1 */
	0x00cf92000000ffffull, /* P, DPL0, data, writable */
};

struct cpu_tables boot_cpu_tables;

static struct gate_desc idt[256] __aligned(16);

extern char exception_stubs[];
void load_segments(u16 code_sel, u16 data_sel);

#define GATE_INTERRUPT 0x8e /* present, DPL0, 64-bit interrupt gate */
#define EXC_STUB_SIZE 16
#define X86_TRAP_DF 8
#define TSS_TYPE_AVAILABLE 0x89 /* present, 64-bit TSS, available */

void idt_init(void)
{
	for (int v = 0; v < 32; v++) {
		u64 addr = (u64)(uptr)exception_stubs + v * EXC_STUB_SIZE;
		struct gate_desc *g = &idt[v];

		g->offset_low = addr & 0xffff;
		g->offset_middle = (addr >> 16) & 0xffff;
		g->offset_high = addr >> 32;
		g->segment = __KERNEL_CS;
		/* #DF on its own stack: the faulting one may be exhausted. */
		g->ist = v == X86_TRAP_DF ? 1 : 0;
		/* Interrupt gates: IF stays clear inside handlers. */
		g->type_attr = GATE_INTERRUPT;
	}
}

void load_cpu_tables(struct cpu_tables *t)
{
	u64 tss = (u64)(uptr)&t->tss, limit = sizeof(t->tss) - 1;
	struct desc_ptr gp = { sizeof(t->gdt) - 1, (u64)(uptr)t->gdt };
	struct desc_ptr ip = { sizeof(idt) - 1, (u64)(uptr)idt };

	for (int i = 0; i < 3; i++)
		t->gdt[i] = gdt_template[i];
	/* A 16-byte system descriptor: base 63:0, limit, type. */
	t->gdt[3] = (limit & 0xffff) | ((tss & 0xffffff) << 16) |
		    ((u64)TSS_TYPE_AVAILABLE << 40) |
		    (((limit >> 16) & 0xf) << 48) |
		    (((tss >> 24) & 0xff) << 56);
	t->gdt[4] = tss >> 32;
	t->tss.ist[0] = ((u64)(uptr)t->df_stack + DF_STACK_SIZE) & ~15ull;
	t->tss.iomap_base = sizeof(t->tss); /* no I/O bitmap */

	asm volatile("lgdt %0" ::"m"(gp));
	load_segments(__KERNEL_CS, __KERNEL_DS);
	asm volatile("ltr %w0" ::"r"((u16)GDT_TSS));
	asm volatile("lidt %0" ::"m"(ip));
}
