// SPDX-License-Identifier: GPL-2.0-only
#include "kernel/io.h"
#include "kernel/serial.h"

#define UART_RBR_THR 0
#define UART_IER 1
#define UART_FCR 2
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5
#define UART_SCR 7
#define UART_DLL 0
#define UART_DLM 1

#define UART_LCR_DLAB 0x80
#define UART_LCR_8N1 0x03
#define UART_LSR_THRE 0x20

/*
 * How long to wait for the transmit holding register: at 9600 baud one
 * character takes ~1 ms; each LSR read is at least ~0.5 us on hardware.
 * 200000 polls is far beyond any healthy UART.
 */
#define UART_TX_POLLS 200000
#define UART_MAX_TIMEOUTS 3

const char *uart_access_name(enum uart_access a)
{
	return a == UART_MMIO32 ? "mmio32" : a == UART_MMIO8 ? "mmio" : "io";
}

static u8 uart_in(struct uart_16550 *u, unsigned int reg)
{
	switch (u->access) {
	case UART_MMIO32:
		return (u8)readl((volatile void *)(uptr)(u->base + reg * 4));
	case UART_MMIO8:
		return *(volatile u8 *)(uptr)(u->base + reg);
	default:
		return inb((u16)(u->base + reg));
	}
}

static void uart_out(struct uart_16550 *u, unsigned int reg, u8 v)
{
	switch (u->access) {
	case UART_MMIO32:
		writel(v, (volatile void *)(uptr)(u->base + reg * 4));
		break;
	case UART_MMIO8:
		*(volatile u8 *)(uptr)(u->base + reg) = v;
		break;
	default:
		outb((u16)(u->base + reg), v);
		break;
	}
}

bool serial_init(struct uart_16550 *u, enum uart_access access, u64 base,
		 u32 baud)
{
	u16 div;

	u->access = access;
	u->base = base;
	u->baud = baud ? baud : 115200;
	u->dead = false;
	u->timeouts = 0;

	/* Nothing decodes the port: reads float to all ones. */
	uart_out(u, UART_SCR, 0x5a);
	if (uart_in(u, UART_SCR) != 0x5a || uart_in(u, UART_LSR) == 0xff) {
		u->present = false;
		return false;
	}
	uart_out(u, UART_SCR, 0xa5);
	if (uart_in(u, UART_SCR) != 0xa5) {
		u->present = false;
		return false;
	}

	div = (u16)(115200 / u->baud);
	uart_out(u, UART_IER, 0x00);	/* polled: no interrupts */
	uart_out(u, UART_LCR, UART_LCR_DLAB);
	uart_out(u, UART_DLL, div & 0xff);
	uart_out(u, UART_DLM, div >> 8);
	uart_out(u, UART_LCR, UART_LCR_8N1);
	uart_out(u, UART_FCR, 0x07);	/* enable and clear FIFOs */
	uart_out(u, UART_MCR, 0x03);	/* DTR, RTS */
	u->present = true;
	return true;
}

static void serial_putc(struct uart_16550 *u, char c)
{
	for (u32 i = 0; i < UART_TX_POLLS; i++) {
		if (uart_in(u, UART_LSR) & UART_LSR_THRE) {
			uart_out(u, UART_RBR_THR, (u8)c);
			return;
		}
		cpu_relax();
	}
	if (++u->timeouts >= UART_MAX_TIMEOUTS)
		u->dead = true;
}

void serial_write(struct uart_16550 *u, const char *s, size_t len)
{
	if (!u->present)
		return;
	for (size_t i = 0; i < len && !u->dead; i++) {
		if (s[i] == '\n')
			serial_putc(u, '\r');
		serial_putc(u, s[i]);
	}
}
