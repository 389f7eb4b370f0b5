/*
 * print.c — the print and println builtins, with the output of Go's
 * runtime/print.go: to fd 2, integers in decimal, floats as
 * "+d.dddddde+ddd", pointers as 0x…, slices as [len/cap]0xptr, interfaces
 * as (0xtype,0xdata).
 *
 * glc emits each print statement as printlock(); one call per operand, with
 * printsp/printnl between them; printunlock().  The lock makes a statement's
 * pieces come out together even when several threads print, and it counts
 * recursion per thread, as Go's does per M, so the runtime can print while
 * already printing (a panic while printing a value).  While the lock is held
 * the pieces collect in a per-thread buffer, written at printunlock or when
 * it fills: one write per statement instead of one per piece.  Outside a
 * printlock/printunlock pair every piece is written at once.
 *
 * Everything here runs on the goroutine stack, called straight from
 * generated code (DESIGN.md S7): small frames, number formatting in small
 * local buffers, raw system calls instead of libc.
 *
 * The thread's lock depth must keep the goroutine on its thread until the
 * statement is done: Go's printlock holds a runtime lock, which raises
 * m.locks and so forbids preemption.  The scheduler must do the same here —
 * not preempt (asynchronously) a goroutine whose thread has
 * gl_printlocked() true; otherwise the buffer and depth below would stay
 * behind on a thread the goroutine no longer runs on.
 */
#include "gl.h"

/* ---- system calls (linux/amd64), without libc's errno or frames ---- */

enum {
	SYS_write = 1,
	SYS_futex = 202,
	FUTEX_WAIT_PRIVATE = 128,
	FUTEX_WAKE_PRIVATE = 129,
	EINTR = 4,
};

static inline long syscall3(long nr, long a, long b, long c) {
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

/* FUTEX_WAIT takes a fourth argument, the timeout, in r10: none. */
static inline void futexsleep(uint32_t *addr, uint32_t val) {
	register long r10 __asm__("r10") = 0;
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)SYS_futex), "D"(addr), "S"((long)FUTEX_WAIT_PRIVATE),
			   "d"((long)val), "r"(r10)
			 : "rcx", "r11", "memory");
	(void)ret;
}

static inline void futexwakeup(uint32_t *addr) {
	syscall3(SYS_futex, (long)addr, FUTEX_WAKE_PRIVATE, 1);
}

/* ---- debuglock: one printing thread at a time ----
 * A futex mutex (Drepper's "Futexes are tricky", mutex 2): 0 unlocked,
 * 1 locked, 2 locked and maybe waited for.  Go uses a runtime mutex here,
 * which also blocks the whole thread. */
static uint32_t debuglock;

static void lockdebug(void) {
	uint32_t c = 0;
	if (__atomic_compare_exchange_n(&debuglock, &c, 1, false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return;
	if (c != 2)
		c = __atomic_exchange_n(&debuglock, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		futexsleep(&debuglock, 2);
		c = __atomic_exchange_n(&debuglock, 2, __ATOMIC_ACQUIRE);
	}
}

static void unlockdebug(void) {
	if (__atomic_exchange_n(&debuglock, 0, __ATOMIC_RELEASE) == 2)
		futexwakeup(&debuglock);
}

/* ---- per-thread state ----
 * initial-exec: a TLS access is then one %fs-relative instruction even in a
 * -fPIC build, where the default model would call __tls_get_addr, a libc
 * function, on the goroutine stack. */
#define GL_TLS _Thread_local __attribute__((tls_model("initial-exec")))

enum { PRINTBUFSIZE = 512 };

static GL_TLS int32_t printdepth; /* printlock recursion, as Go's m.printlock */
static GL_TLS uint32_t printlen;
static GL_TLS uint8_t printbuf[PRINTBUFSIZE];

/* Between printtobuf and printtobufend this thread's prints go to
 * writebuf instead of standard error (Go's g0.writebuf, for runtime.Stack
 * and runtime/debug.Stack): writecap bytes fit (none, for a nil buffer),
 * writelen counts all that was printed. */
static GL_TLS bool towritebuf;
static GL_TLS uint8_t *writebuf;
static GL_TLS int64_t writelen, writecap;

void printtobuf(uint8_t *p, int64_t cap) {
	writebuf = p;
	writecap = cap;
	writelen = 0;
	towritebuf = true;
}

/* Back to standard error; how much was printed since printtobuf. */
int64_t printtobufend(void) {
	towritebuf = false;
	writebuf = NULL;
	return writelen;
}

/* For the scheduler; should be declared in gl.h. */
bool gl_printlocked(void);

bool gl_printlocked(void) {
	return printdepth > 0;
}

/* Write errors are ignored, as in Go: there is nowhere left to report them.
 * EINTR and short writes are retried so output is not cut.  Out of line: one
 * copy of the system call, not one in every print function. */
static GL_NOINLINE void writeErr(const uint8_t *p, int64_t n) {
	while (n > 0) {
		long r = syscall3(SYS_write, 2, (long)p, (long)n);
		if (r == -EINTR)
			continue;
		if (r <= 0)
			return;
		p += r;
		n -= r;
	}
}

static void printflush(void) {
	uint32_t n = printlen;
	printlen = 0;
	writeErr(printbuf, n);
}

/* Go's gwrite: every piece of output goes through here. */
static void gwrite(const uint8_t *p, int64_t n) {
	if (n <= 0)
		return;
	if (towritebuf) { /* runtime.Stack's buffer */
		for (int64_t i = 0; i < n && writelen + i < writecap; i++)
			writebuf[writelen + i] = p[i];
		writelen += n;
		return;
	}
	if (printdepth == 0) {
		writeErr(p, n);
		return;
	}
	if (n > PRINTBUFSIZE - printlen) {
		printflush();
		if (n >= PRINTBUFSIZE) { /* would only be copied to be written */
			writeErr(p, n);
			return;
		}
	}
	memcpy(printbuf + printlen, p, (size_t)n);
	printlen += (uint32_t)n;
}

static void gwritestr(const char *s, int64_t n) {
	gwrite((const uint8_t *)s, n);
}

void printlock(void) {
	if (printdepth++ == 0)
		lockdebug();
}

/* The buffer is written at every unlock, nested or not, so that what the
 * runtime prints while printing (a fatal error) never waits behind an outer
 * statement that may not finish. */
void printunlock(void) {
	printflush();
	if (--printdepth == 0) {
		unlockdebug();
	} else if (printdepth < 0) {
		printdepth = 0;
		gl_throw("printunlock count");
	}
}

void printsp(void) {
	gwritestr(" ", 1);
}

void printnl(void) {
	gwritestr("\n", 1);
}

void printbool(bool v) {
	if (v)
		gwritestr("true", 4);
	else
		gwritestr("false", 5);
}

void printuint(uint64_t v) {
	uint8_t buf[24]; /* 2^64-1 has 20 digits */
	int i = sizeof buf;
	do {
		buf[--i] = (uint8_t)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	gwrite(buf + i, (int64_t)sizeof buf - i);
}

void printint(int64_t v) {
	if (v < 0) {
		gwritestr("-", 1);
		printuint(-(uint64_t)v); /* also right for INT64_MIN */
		return;
	}
	printuint((uint64_t)v);
}

void printhex(uint64_t v) {
	static const char dig[] = "0123456789abcdef";
	uint8_t buf[24]; /* "0x" and up to 16 digits */
	int i = sizeof buf;
	do {
		buf[--i] = (uint8_t)dig[v % 16];
		v /= 16;
	} while (v != 0);
	buf[--i] = 'x';
	buf[--i] = '0';
	gwrite(buf + i, (int64_t)sizeof buf - i);
}

/* Go's runtime format: sign, one digit, '.', six digits, 'e', sign, three
 * exponent digits.  The digits come from scaling by 10 until 1 <= v < 10,
 * adding half a unit of the 7th digit and peeling digits off, not from an
 * exact conversion, so the last digit can differ from strconv's; doing the
 * same double arithmetic in the same order gives Go's output bit for bit. */
void printfloat(double v) {
	enum { NDIG = 7 };
	uint8_t buf[NDIG + 7];
	int e = 0;

	if (v != v) {
		gwritestr("NaN", 3);
		return;
	}
	if (v + v == v && v > 0) {
		gwritestr("+Inf", 4);
		return;
	}
	if (v + v == v && v < 0) {
		gwritestr("-Inf", 4);
		return;
	}
	buf[0] = '+';
	if (v == 0) {
		if (__builtin_signbit(v))
			buf[0] = '-';
	} else {
		if (v < 0) {
			v = -v;
			buf[0] = '-';
		}
		while (v >= 10) {
			e++;
			v /= 10;
		}
		while (v < 1) {
			e--;
			v *= 10;
		}
		double h = 5.0; /* rounding: 5 in the 8th digit, h = 5/10^7 */
		for (int i = 0; i < NDIG; i++)
			h /= 10;
		v += h;
		if (v >= 10) {
			e++;
			v /= 10;
		}
	}
	for (int i = 0; i < NDIG; i++) {
		int s = (int)v;
		buf[i + 2] = (uint8_t)('0' + s);
		v -= s;
		v *= 10;
	}
	buf[1] = buf[2];
	buf[2] = '.';
	buf[NDIG + 2] = 'e';
	buf[NDIG + 3] = '+';
	if (e < 0) {
		e = -e;
		buf[NDIG + 3] = '-';
	}
	buf[NDIG + 4] = (uint8_t)('0' + e / 100);
	buf[NDIG + 5] = (uint8_t)('0' + e / 10 % 10);
	buf[NDIG + 6] = (uint8_t)('0' + e % 10);
	gwrite(buf, sizeof buf);
}

void printcomplex(GlComplex128 v) {
	gwritestr("(", 1);
	printfloat(v.re);
	printfloat(v.im);
	gwritestr("i)", 2);
}

void printstring(GlString s) {
	gwrite(s.ptr, s.len);
}

void printpointer(const void *p) {
	printhex((uint64_t)(uintptr_t)p);
}

void printslice(GlSlice s) {
	gwritestr("[", 1);
	printint(s.len);
	gwritestr("/", 1);
	printint(s.cap);
	gwritestr("]", 1);
	printpointer(s.ptr);
}

void printeface(GlEface e) {
	gwritestr("(", 1);
	printpointer(e.tab);
	gwritestr(",", 1);
	printpointer(e.data);
	gwritestr(")", 1);
}

void printiface(GlIface i) {
	printeface(i);
}
