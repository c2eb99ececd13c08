; SPDX-License-Identifier: GPL-2.0-only
;
; The application-processor trampoline. smp_init() copies this blob to a
; free page below 1 MiB and fills in its parameter block; a SIPI then
; starts the AP here in real mode at CS:IP = page:0. It goes to protected
; mode with the blob's own GDT, turns on PAE and long mode with the kernel's
; page tables (CR3 below 4 GiB), and calls the kernel's AP entry on the
; stack it was given. One AP at a time uses the blob, so one parameter
; block suffices: the AP checks first that the block is its own (its APIC
; ID is the one the block names), before it touches the stack or says it
; is alive. A CPU that was given up on and answers its SIPI late finds
; the next CPU's block; it counts itself and stops right there, using no
; stack and taking no one's place.
;
; The blob is position independent: EBX holds its linear base from the
; first instructions on, and the only absolute addresses (far jump targets
; and the GDT base) are patched by smp_init() from the offsets recorded at
; the start of the blob.

CR0_PE equ 1 << 0
CR0_NE equ 1 << 5
CR0_WP equ 1 << 16
CR0_NW equ 1 << 29
CR0_CD equ 1 << 30
CR0_PG equ 1 << 31
CR0_CD_NW equ CR0_CD | CR0_NW

bits 16
section .rodata

global ap_trampoline_start:data hidden
global ap_trampoline_end:data hidden

align 16
ap_trampoline_start:
	jmp near real_entry
	align 8
; Parameter block. Offsets are fixed: kernel/smp.c mirrors them.
tr_offsets:				; +8: offsets C needs for patching
	dd pm_entry - ap_trampoline_start
	dd lm_entry - ap_trampoline_start
	dd gdt - ap_trampoline_start
	dd gdt_ptr - ap_trampoline_start
tr_pm_far:				; +24: m16:32 to pm_entry (patched)
	dd 0
	dw 0x08
	dw 0
tr_lm_far:				; +32: m16:32 to lm_entry (patched)
	dd 0
	dw 0x18
	dw 0
tr_cr3:		dq 0			; +40
tr_stack:	dq 0			; +48
tr_entry:	dq 0			; +56: void entry(void *arg)
tr_arg:		dq 0			; +64
tr_alive:	dd 0			; +72: 1 once the AP found its own block
tr_apic_id:	dd 0			; +76: whose block it is
tr_id_how:	dd 0			; +80: 0 xAPIC register, 1 CPUID 0xb, 2 no check
tr_late_id:	dd 0			; +84: the last late CPU's APIC ID
tr_late:	dd 0			; +88: CPUs that found another's block
		dd 0
tr_lapic:	dq 0			; +96: xAPIC MMIO base (tr_id_how 0)

	align 8
gdt:
	dq 0
	dq 0x00cf9a000000ffff		; 0x08: 32-bit code
	dq 0x00cf92000000ffff		; 0x10: data
	dq 0x00af9a000000ffff		; 0x18: 64-bit code
gdt_end:
gdt_ptr:
	dw gdt_end - gdt - 1
	dd 0				; linear base (patched)

real_entry:
	cli
	cld
	mov ax, cs
	mov ds, ax
	movzx ebx, ax
	shl ebx, 4			; linear base of the blob
	o32 lgdt [gdt_ptr - ap_trampoline_start]
	; After INIT, CR0 has CD and NW set: caches off. Clear them here,
	; or everything this CPU runs later runs uncached.
	mov eax, cr0
	and eax, ~CR0_CD_NW
	or eax, 1			; PE
	mov cr0, eax
	o32 jmp far [tr_pm_far - ap_trampoline_start]

bits 32
pm_entry:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, 1 << 5			; PAE
	mov cr4, eax
	mov eax, [ebx + (tr_cr3 - ap_trampoline_start)]
	mov cr3, eax
	mov ecx, 0xc0000080		; EFER
	rdmsr
	or eax, 1 << 8			; LME
	wrmsr
	mov eax, cr0
	and eax, ~CR0_CD_NW
	or eax, CR0_PG | CR0_WP | CR0_NE | CR0_PE
	mov cr0, eax
	jmp far [ebx + (tr_lm_far - ap_trampoline_start)]

bits 64
lm_entry:
	mov ebx, ebx			; upper half undefined after the switch
	mov r8, rbx			; CPUID overwrites EBX
	mov eax, [r8 + (tr_id_how - ap_trampoline_start)]
	cmp eax, 2
	je .own
	cmp eax, 1
	je .x2apic
	mov rax, [r8 + (tr_lapic - ap_trampoline_start)]
	mov eax, [rax + 0x20]		; the xAPIC ID register, bits 31:24
	shr eax, 24
	jmp .check
.x2apic:
	mov eax, 0xb
	xor ecx, ecx
	cpuid				; EDX: the x2APIC ID
	mov eax, edx
.check:
	mov rbx, r8
	cmp eax, [rbx + (tr_apic_id - ap_trampoline_start)]
	jne .late
.own:
	mov rbx, r8
	mov dword [rbx + (tr_alive - ap_trampoline_start)], 1
	mov rsp, [rbx + (tr_stack - ap_trampoline_start)]
	mov rdi, [rbx + (tr_arg - ap_trampoline_start)]
	mov rax, [rbx + (tr_entry - ap_trampoline_start)]
	xor ebp, ebp
	call rax
.hang:	cli
	hlt
	jmp .hang
.late:
	mov [rbx + (tr_late_id - ap_trampoline_start)], eax
	lock inc dword [rbx + (tr_late - ap_trampoline_start)]
	jmp .hang
ap_trampoline_end:

section .note.GNU-stack noalloc noexec nowrite progbits
