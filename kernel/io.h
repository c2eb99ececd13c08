/* SPDX-License-Identifier: GPL-2.0-only */
/* Port and memory-mapped I/O accessors. */
#ifndef NTBOOT_KERNEL_IO_H
#define NTBOOT_KERNEL_IO_H

#include "include/types.h"

static inline void outb(u16 port, u8 v)
{
	asm volatile("outb %0, %1" ::"a"(v), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outl(u16 port, u32 v)
{
	asm volatile("outl %0, %1" ::"a"(v), "Nd"(port));
}

static inline u32 inl(u16 port)
{
	u32 v;

	asm volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u32 readl(const volatile void *addr)
{
	return *(const volatile u32 *)addr;
}

static inline void writel(u32 v, volatile void *addr)
{
	*(volatile u32 *)addr = v;
}

static inline u64 readq(const volatile void *addr)
{
	return *(const volatile u64 *)addr;
}

static inline void writeq(u64 v, volatile void *addr)
{
	*(volatile u64 *)addr = v;
}

static inline void cpu_relax(void)
{
	asm volatile("pause" ::: "memory");
}

#endif
