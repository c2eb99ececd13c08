/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_COMPILER_H
#define NTBOOT_COMPILER_H

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#define __noinline __attribute__((noinline))
#define __noreturn __attribute__((noreturn))
#define __aligned(x) __attribute__((aligned(x)))
#define __packed __attribute__((packed))
#define __used __attribute__((used))
#define __maybe_unused __attribute__((unused))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define __section(s) __attribute__((section(s)))
#define fallthrough __attribute__((__fallthrough__))

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a) (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a) - 1)) == 0)
#define BUILD_BUG_ON(c) _Static_assert(!(c), #c)
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))

#define barrier() asm volatile("" ::: "memory")
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

#define SZ_1K 0x400ULL
#define SZ_4K 0x1000ULL
#define SZ_1M 0x100000ULL
#define SZ_2M 0x200000ULL
#define SZ_1G 0x40000000ULL

#endif
