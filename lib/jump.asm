; SPDX-License-Identifier: GPL-2.0-only
;
; The image's setjmp/longjmp pair (lib/jump.h): the test runner abandons a
; failed case with it, the exception handler leaves a fault with it. Built
; into the image only; the host programs take the C library's, which the
; sanitizers know about.

default rel
bits 64

section .text

; int ntb_setjmp(u64 buf[8]): rbx rbp r12 r13 r14 r15 rsp rip
global ntb_setjmp:function hidden
ntb_setjmp:
	mov [rdi + 0], rbx
	mov [rdi + 8], rbp
	mov [rdi + 16], r12
	mov [rdi + 24], r13
	mov [rdi + 32], r14
	mov [rdi + 40], r15
	lea rdx, [rsp + 8]	; rsp as the caller sees it after return
	mov [rdi + 48], rdx
	mov rdx, [rsp]		; return address
	mov [rdi + 56], rdx
	xor eax, eax
	ret

; void ntb_longjmp(u64 buf[8], int val)
global ntb_longjmp:function hidden
ntb_longjmp:
	mov eax, esi
	test eax, eax
	jnz .nonzero
	inc eax
.nonzero:
	mov rbx, [rdi + 0]
	mov rbp, [rdi + 8]
	mov r12, [rdi + 16]
	mov r13, [rdi + 24]
	mov r14, [rdi + 32]
	mov r15, [rdi + 40]
	mov rsp, [rdi + 48]
	jmp [rdi + 56]

section .note.GNU-stack noalloc noexec nowrite progbits
