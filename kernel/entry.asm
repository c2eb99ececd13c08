; SPDX-License-Identifier: GPL-2.0-only
;
; Low-level entry points of the kernel: the stack switch into kernel_main,
; the CPU exception stubs and segment reload after our own GDT. The
; setjmp/longjmp pair the test runner uses is lib/jump.asm.
; Position independent: the image is relocated by gnu-efi's crt0.

default rel
bits 64

section .text

extern do_exception

; void call_on_stack(void *stack_top, void (*fn)(void *), void *arg)
global call_on_stack:function hidden
call_on_stack:
	cli			; firmware should leave IF clear; make sure
	mov rsp, rdi
	and rsp, -16
	xor ebp, ebp
	mov rdi, rdx
	call rsi
.hang:	cli
	hlt
	jmp .hang

; void load_segments(u16 code_sel, u16 data_sel)
; Reload CS with a far return and the data segments directly.
global load_segments:function hidden
load_segments:
	mov ds, si
	mov es, si
	mov ss, si
	xor eax, eax
	mov fs, ax
	mov gs, ax
	pop rax			; return address
	push rdi		; new CS
	push rax
	o64 retf

; void nmi_unblock(void): an IRET to our own next instruction, so a CPU
; that took an NMI and leaves the handler by longjmp takes NMIs again.
global nmi_unblock:function hidden
nmi_unblock:
	mov rax, rsp
	mov ecx, ss
	push rcx		; SS
	push rax		; RSP after the IRET: at our return address
	pushfq
	mov ecx, cs
	push rcx		; CS
	lea rax, [rel .back]
	push rax		; RIP
	iretq
.back:
	ret

; Exception stubs: 32 entries of 16 bytes each, so the IDT code computes
; stub addresses as exception_stubs + 16 * vector. Vectors without a CPU
; error code push a zero so that every frame has the same shape.
%macro EXC_STUB 1
	align 16
%if %1 == 8 || (%1 >= 10 && %1 <= 14) || %1 == 17 || %1 == 21 || %1 == 29 || %1 == 30
	push qword %1
	jmp exception_common
%else
	push qword 0
	push qword %1
	jmp exception_common
%endif
%endmacro

	align 16
global exception_stubs:data hidden
exception_stubs:
%assign v 0
%rep 32
	EXC_STUB v
%assign v v + 1
%endrep

; Frame after the stub: [rsp] vector, error code, rip, cs, rflags, rsp, ss.
; Save the general registers below it to form struct pt_regs.
exception_common:
	push rdi
	push rsi
	push rdx
	push rcx
	push rax
	push r8
	push r9
	push r10
	push r11
	push rbx
	push rbp
	push r12
	push r13
	push r14
	push r15
	cld
	mov rdi, rsp
	mov rbx, rsp		; keep the frame; align the stack for C
	and rsp, -16
	call do_exception wrt ..plt
	mov rsp, rbx
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbp
	pop rbx
	pop r11
	pop r10
	pop r9
	pop r8
	pop rax
	pop rcx
	pop rdx
	pop rsi
	pop rdi
	add rsp, 16		; vector and error code
	iretq

section .note.GNU-stack noalloc noexec nowrite progbits
