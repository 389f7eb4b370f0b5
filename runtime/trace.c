/*
 * trace.c — GLDEBUG=trace=FILE: an execution trace a learner can open in
 * a browser (Go's runtime/trace, written for Chrome's trace-event JSON,
 * which Perfetto, chrome://tracing and `glc trace` read).
 *
 * What is recorded.  Every change of a goroutine's status goes through
 * casgstatus or setgstatus (proc.c), so hooking those two sees every
 * transition — created, runnable, running on a P, waiting (with Go's wait
 * reason), in a system call, preempted, copying its stack, dead — without
 * a hook per call site that could be forgotten.  A few other events say
 * what the status cannot: which M holds which P (acquirep, releasep), the
 * stop-the-world pauses and the collector's mark phase, stack copies with
 * their sizes, which goroutine made another runnable, and why a running
 * goroutine became runnable (Gosched, a yield, a preemption and which
 * kind).
 *
 * The cost.  When the trace is off, each hook is one load of trace_on
 * and a branch that is never taken.  When it is on, an event is a
 * nanotime() and a 56-byte record written into the current M's buffer —
 * no lock, no atomic read-modify-write: only the M's own thread writes
 * its buffer (signal handlers record nothing).  A full buffer is handed
 * to the writer, a plain thread of its own that copies it to a temporary
 * file, and the M takes an empty one: the hand-off is the only lock, once
 * per traceBufEvents events, on g0.  bench/pingpong with the trace on
 * measures the rest (docs/trace.md).
 *
 * At exit (exit, a fatal panic, a fatal error, os.Exit) the events are
 * read back, ordered, and written as JSON: one track per P (the goroutine
 * it ran), per M (the P it held), per goroutine (its states) and for the
 * collector.  A goroutine's transitions are ordered by a per-goroutine
 * sequence number, not by time: two Ms' clocks can tie, and one
 * goroutine's transitions are already ordered by its status word (each
 * writer acquired the status its predecessor released).
 */
#define _GNU_SOURCE
#include "rt.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

bool trace_on;

/* One record; 56 bytes.  What arg, arg2 and arg3 hold depends on type. */
typedef struct traceEv {
	int64_t ts;    /* nanotime() */
	int64_t g;     /* the goroutine it is about (goid), 0 for none */
	uint64_t arg, arg2, arg3;
	uint32_t seq;  /* traceEvGoStatus: g's transition number */
	int32_t m;     /* the M that wrote it */
	int16_t p;     /* that M's P, -1 for none */
	uint8_t type;
	uint8_t st;    /* traceEvGoStatus: old status << 4 | new status */
} traceEv;

enum {
	traceEvGoStatus,  /* arg: wait reason (→ Gwaiting) or traceWhy (→ Grunnable, Gpreempted);
			   * arg2: the goid that made g runnable (Gwaiting → Grunnable) */
	traceEvGoCreate,  /* arg: code address of the go statement's function, or 0;
			   * arg2: a runtime goroutine's name (const char *) if st is 1,
			   * else the go statement's pc; arg3: the creating goroutine's goid */
	traceEvProcStart, /* the M took P arg */
	traceEvProcStop,  /* the M let its P go */
	traceEvSTWStart,  /* arg: the reason (const char *) */
	traceEvSTWDone,
	traceEvGCMarkStart, /* arg: 1 if the mark runs with the world stopped */
	traceEvGCMarkDone,
	traceEvStackCopy, /* arg: old size, arg2: new size */
};

/* A buffer of events, written by one M; next links the writer's queue. */
enum { traceBufEvents = 1170 }; /* 64 KiB */
typedef struct traceBuf {
	struct traceBuf *next;
	uint32_t pos; /* atomic: the records below it are complete */
	traceEv ev[traceBufEvents];
} traceBuf;

/* The trace's state.  lock guards the queues and which buffer each M
 * has; it is taken only on g0, by the writer thread and at exit (it is a
 * pthread mutex: the writer is no M).  A buffer is in one place at a
 * time: an M's tracebuf, the full queue, the writer's hands, or the
 * empty list; its records are in the file once the writer has it. */
static struct {
	char *path;            /* GLDEBUG's FILE */
	int rawfd;             /* the writer's temporary file of full buffers */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	traceBuf *full, *fulltail; /* written in order: FIFO */
	traceBuf *empty;
	bool stop;             /* the writer should end */
	pthread_t writer;
	int64_t start;         /* nanotime at traceStart */
	uint64_t written;      /* records in rawfd */
	int32_t done;          /* atomic: traceStop ran */
} trace = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .rawfd = -1};

/* ---- recording ---- */

/* nanotime through asmcgocall, not systemstack: an event may be recorded
 * while the goroutine enters or leaves a system call, when g->sched says
 * where its frames are and systemstack would overwrite it. */
static void traceclock(void *arg) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	*(int64_t *)arg = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t tracenanotime(void) {
	int64_t t;
	asmcgocall(traceclock, &t);
	return t;
}

/* On g0 (asmcgocall from a goroutine stack): queue mp's full buffer for
 * the writer and give mp an empty one — in one step under the lock, so
 * that the records are always in exactly one place.  (With the lock let
 * go between the two, an exit that read the trace back in that moment
 * found the buffer both in the file and still as mp's, and one stretch
 * of the trace twice: testdata/traceview.py's "running -> running".) */
static void traceFlush_m(void *arg) {
	M *mp = arg;
	pthread_mutex_lock(&trace.lock);
	traceBuf *nb = trace.empty;
	if (nb != NULL) {
		trace.empty = nb->next;
	} else {
		pthread_mutex_unlock(&trace.lock);
		nb = malloc(sizeof(traceBuf));
		if (nb == NULL)
			gl_throw("trace: out of memory");
		pthread_mutex_lock(&trace.lock);
	}
	nb->next = NULL;
	nb->pos = 0;
	traceBuf *b = mp->tracebuf;
	mp->tracebuf = nb;
	if (b != NULL) {
		b->next = NULL;
		if (trace.fulltail != NULL)
			trace.fulltail->next = b;
		else
			trace.full = b;
		trace.fulltail = b;
		pthread_cond_signal(&trace.wake);
	}
	pthread_mutex_unlock(&trace.lock);
}

/* The next free record of this M's buffer.  NULL in a signal handler (a
 * handler that interrupted this M's own writing would tear a record). */
static traceEv *traceEvent(uint8_t type, int64_t goid) {
	G *g = tls_g;
	if (g == NULL)
		return NULL;
	M *mp = g->m;
	if (g == mp->gsignal || __atomic_load_n(&trace.done, __ATOMIC_RELAXED))
		return NULL;
	traceBuf *b = mp->tracebuf;
	if (b == NULL || b->pos == traceBufEvents) {
		/* asmcgocall, not systemstack: the caller may be in a system
		 * call, whose g->sched systemstack would overwrite */
		asmcgocall(traceFlush_m, mp);
		b = mp->tracebuf;
	}
	traceEv *e = &b->ev[b->pos];
	e->ts = tracenanotime();
	e->g = goid;
	e->arg = e->arg2 = e->arg3 = 0;
	e->seq = 0;
	e->m = (int32_t)mp->id;
	e->p = mp->p != NULL ? (int16_t)mp->p->id : -1;
	e->type = type;
	e->st = 0;
	return e;
}

/* The record is complete: the exit's reader may take it. */
static void traceCommit(void) {
	traceBuf *b = tls_g->m->tracebuf;
	__atomic_store_n(&b->pos, b->pos + 1, __ATOMIC_RELEASE);
}

/* casgstatus and setgstatus, before the new status is published (so the
 * next transition, by whoever acquires it, sees seq incremented). */
void traceGoStatus(G *gp, uint32_t oldval, uint32_t newval) {
	traceEv *e = traceEvent(traceEvGoStatus, gp->goid);
	if (e == NULL)
		return;
	M *mp = tls_g->m;
	e->seq = gp->traceseq++;
	e->st = (uint8_t)(oldval << 4 | newval);
	if (newval == Gwaiting)
		e->arg = gp->waitreason;
	else if (newval == Grunnable || newval == Gpreempted) {
		e->arg = mp->tracewhy;
		mp->tracewhy = traceWhyNone;
	}
	if (oldval == Gwaiting && newval == Grunnable && mp->curg != NULL && mp->curg != gp)
		e->arg2 = (uint64_t)mp->curg->goid;
	traceCommit();
}

void traceGoCreate(G *newg, uintptr_t fnpc, const char *name) {
	traceEv *e = traceEvent(traceEvGoCreate, newg->goid);
	if (e == NULL)
		return;
	M *mp = tls_g->m;
	e->arg = fnpc;
	e->st = name != NULL;
	e->arg2 = name != NULL ? (uint64_t)(uintptr_t)name : newg->gopc;
	e->arg3 = mp->curg != NULL ? (uint64_t)mp->curg->goid : 0;
	traceCommit();
}

void traceProcStart(void) {
	if (traceEvent(traceEvProcStart, 0) != NULL)
		traceCommit();
}

void traceProcStop(void) {
	if (traceEvent(traceEvProcStop, 0) != NULL)
		traceCommit();
}

void traceSTWStart(const char *reason) {
	traceEv *e = traceEvent(traceEvSTWStart, 0);
	if (e == NULL)
		return;
	e->arg = (uint64_t)(uintptr_t)reason;
	traceCommit();
}

void traceSTWDone(void) {
	if (traceEvent(traceEvSTWDone, 0) != NULL)
		traceCommit();
}

void traceGCMarkStart(bool stw) {
	traceEv *e = traceEvent(traceEvGCMarkStart, 0);
	if (e == NULL)
		return;
	e->arg = stw;
	traceCommit();
}

void traceGCMarkDone(void) {
	if (traceEvent(traceEvGCMarkDone, 0) != NULL)
		traceCommit();
}

void traceStackCopy(G *gp, uint64_t oldsize, uint64_t newsize) {
	traceEv *e = traceEvent(traceEvStackCopy, gp->goid);
	if (e == NULL)
		return;
	e->arg = oldsize;
	e->arg2 = newsize;
	traceCommit();
}

/* ---- the writer thread ---- */

static void writeall(int fd, const void *p, size_t n) {
	const char *s = p;
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return; /* a full disk loses the rest of the trace, not the program */
		s += w;
		n -= (size_t)w;
	}
}

/* Copies full buffers to the temporary file, in the order they filled,
 * until traceStop asks it to end with nothing left. */
static void *traceWriter(void *arg) {
	(void)arg;
	pthread_mutex_lock(&trace.lock);
	for (;;) {
		while (trace.full == NULL && !trace.stop)
			pthread_cond_wait(&trace.wake, &trace.lock);
		traceBuf *list = trace.full;
		trace.full = trace.fulltail = NULL;
		if (list == NULL && trace.stop)
			break;
		pthread_mutex_unlock(&trace.lock);
		traceBuf *last = list;
		for (traceBuf *b = list; b != NULL; b = b->next) {
			writeall(trace.rawfd, b->ev, b->pos * sizeof(traceEv));
			trace.written += b->pos;
			last = b;
		}
		pthread_mutex_lock(&trace.lock);
		last->next = trace.empty;
		trace.empty = list;
	}
	pthread_mutex_unlock(&trace.lock);
	return NULL;
}

/* ---- start and stop ---- */

static void traceAtExit(void) {
	traceStop();
}

/* From schedinit, after GLDEBUG is read: open FILE (so that a bad path is
 * said at once, not at exit) and start the writer. */
void traceStart(const char *path) {
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		fprintf(stderr, "runtime: GLDEBUG=trace=%s: %s (the program runs without a trace)\n", path,
			strerror(errno));
		return;
	}
	close(fd);
	const char *dir = getenv("TMPDIR");
	char tmpl[4096];
	snprintf(tmpl, sizeof tmpl, "%s/gltrace-XXXXXX", dir != NULL && *dir != 0 ? dir : "/tmp");
	trace.rawfd = mkostemp(tmpl, O_CLOEXEC);
	if (trace.rawfd < 0) {
		fprintf(stderr, "runtime: GLDEBUG=trace: temporary file %s: %s (no trace)\n", tmpl, strerror(errno));
		return;
	}
	unlink(tmpl);
	trace.path = strdup(path);
	/* the writer must never take a signal meant for an M */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int err = pthread_create(&trace.writer, NULL, traceWriter, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err != 0) {
		fprintf(stderr, "runtime: GLDEBUG=trace: cannot start its writer thread (no trace)\n");
		close(trace.rawfd);
		return;
	}
	trace.start = nanotime();
	atexit(traceAtExit);
	__atomic_store_n(&trace_on, true, __ATOMIC_RELEASE);
}

static void traceWriteJSON(void);

/* At exit: no more events; the writer drains and ends; the JSON is
 * written.  Other Ms may still be running: what they record after this
 * point is not in the trace.  Once only. */
void traceStop(void) {
	if (!__atomic_load_n(&trace_on, __ATOMIC_ACQUIRE) || __atomic_exchange_n(&trace.done, 1, __ATOMIC_ACQ_REL))
		return;
	if (tls_g != NULL && tls_g == tls_g->m->gsignal) {
		/* a fatal signal: the signal stack has no room for the writing */
		fprintf(stderr, "runtime: GLDEBUG=trace=%s: not written (the program died in a signal handler)\n",
			trace.path);
		return;
	}
	pthread_mutex_lock(&trace.lock);
	trace.stop = true;
	pthread_cond_signal(&trace.wake);
	pthread_mutex_unlock(&trace.lock);
	pthread_join(trace.writer, NULL);
	traceWriteJSON();
}

/* os.Exit: not through exit(3), so the trace is written here. */
void traceExit(void) {
	if (__atomic_load_n(&trace_on, __ATOMIC_ACQUIRE))
		traceStop();
}

/* ---- the JSON ---- */

/* All the records, read back: the temporary file's and each M's current
 * buffer, in the order they were written (a record's index breaks ties
 * of time). */
typedef struct evs {
	traceEv *v;
	size_t n;
} evs;

/* Appends b's complete records to e, within cap. */
static void copybuf(evs *e, size_t cap, const traceBuf *b) {
	size_t n = __atomic_load_n(&b->pos, __ATOMIC_ACQUIRE);
	if (e->n + n > cap)
		n = cap - e->n;
	memcpy(e->v + e->n, b->ev, n * sizeof(traceEv));
	e->n += n;
}

/* Under the lock, so that no M moves a buffer meanwhile (traceFlush_m).
 * After the file: the buffers queued since the writer ended (by an M that
 * was already recording when traceStop began), then each M's own. */
static evs readevents(void) {
	pthread_mutex_lock(&trace.lock);
	size_t cap = trace.written;
	for (traceBuf *b = trace.full; b != NULL; b = b->next)
		cap += b->pos;
	for (M *mp = allm; mp != NULL; mp = mp->alllink)
		if (mp->tracebuf != NULL)
			cap += __atomic_load_n(&mp->tracebuf->pos, __ATOMIC_ACQUIRE);
	evs e = {malloc((cap + 1) * sizeof(traceEv)), 0};
	if (e.v == NULL) {
		pthread_mutex_unlock(&trace.lock);
		return e;
	}
	size_t want = trace.written * sizeof(traceEv);
	char *p = (char *)e.v;
	size_t got = 0;
	while (got < want) {
		ssize_t r = pread(trace.rawfd, p + got, want - got, (off_t)got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	e.n = got / sizeof(traceEv);
	for (traceBuf *b = trace.full; b != NULL; b = b->next)
		copybuf(&e, cap, b);
	for (M *mp = allm; mp != NULL; mp = mp->alllink)
		if (mp->tracebuf != NULL)
			copybuf(&e, cap, mp->tracebuf);
	pthread_mutex_unlock(&trace.lock);
	return e;
}

/* jput: the JSON's printf, a small one (vfprintf was nine tenths of the
 * time of writing a large trace).  Directives: %d an int64_t, %s a string
 * as it is, %q a string escaped for JSON, %t a time (int64_t nanotime) as
 * microseconds since the start with three decimals, %D a duration
 * (int64_t ns) the same way.  The file is this thread's alone: unlocked
 * writes. */
static void putint(FILE *f, int64_t v) {
	char buf[24];
	int i = sizeof buf;
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	do
		buf[--i] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		buf[--i] = '-';
	fwrite_unlocked(buf + i, 1, sizeof buf - (size_t)i, f);
}

static void putmicros(FILE *f, int64_t ns) {
	if (ns < 0)
		ns = 0;
	putint(f, ns / 1000);
	int64_t frac = ns % 1000;
	putc_unlocked('.', f);
	putc_unlocked((char)('0' + frac / 100), f);
	putc_unlocked((char)('0' + frac / 10 % 10), f);
	putc_unlocked((char)('0' + frac % 10), f);
}

static void putquoted(FILE *f, const char *s) {
	for (; *s != 0; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			putc_unlocked('\\', f);
			putc_unlocked((char)c, f);
		} else if (c < 0x20) {
			static const char hex[] = "0123456789abcdef";
			fputs_unlocked("\\u00", f);
			putc_unlocked(hex[c >> 4], f);
			putc_unlocked(hex[c & 15], f);
		} else
			putc_unlocked((char)c, f);
	}
}

static void jput(FILE *f, const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	for (const char *p = fmt; *p != 0; p++) {
		if (*p != '%') {
			putc_unlocked(*p, f);
			continue;
		}
		switch (*++p) {
		case 'd':
			putint(f, va_arg(ap, int64_t));
			break;
		case 's':
			fputs_unlocked(va_arg(ap, const char *), f);
			break;
		case 'q':
			putquoted(f, va_arg(ap, const char *));
			break;
		case 't':
			putmicros(f, va_arg(ap, int64_t) - trace.start);
			break;
		case 'D':
			putmicros(f, va_arg(ap, int64_t));
			break;
		default: /* a mistake in this file: show it */
			fputs_unlocked("%?", f);
		}
	}
	va_end(ap);
}

/* The separator before each event of the array. */
static bool first = true;

static void sep(FILE *f) {
	fputs_unlocked(first ? "\n" : ",\n", f);
	first = false;
}

static const char *statename(uint32_t st) {
	switch (st) {
	case Grunnable:
		return "runnable";
	case Grunning:
		return "running";
	case Gsyscall:
		return "syscall";
	case Gwaiting:
		return "waiting";
	case Gcopystack:
		return "copystack";
	case Gpreempted:
		return "preempted";
	default:
		return "dead";
	}
}

static const char *whyname(uint64_t why) {
	switch (why) {
	case traceWhyGosched:
		return "Gosched";
	case traceWhyYield:
		return "yield";
	case traceWhyPreemptSync:
		return "preempted (sync)";
	case traceWhyPreemptAsync:
		return "preempted (async)";
	case traceWhyNetpoll:
		return "netpoll";
	default:
		return "";
	}
}

enum { pidP = 1, pidM = 2, pidG = 3, pidGC = 4 };

/* The start of a complete event ("X") of [t0, t1) on (pid, tid); the
 * caller writes the rest and closes it. */
static void putspan(FILE *f, int64_t pid, int64_t tid, int64_t t0, int64_t t1) {
	sep(f);
	jput(f, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%t,\"dur\":%D", pid, tid, t0, t1 > t0 ? t1 - t0 : 0);
}

/* A track's (or a group's) name and place. */
static void putmeta(FILE *f, const char *what, int64_t pid, int64_t tid, const char *name, int64_t sort) {
	bool process = strcmp(what, "process_name") == 0;
	sep(f);
	jput(f, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"args\":{\"name\":\"%q\"}}", pid, tid, what, name);
	sep(f);
	jput(f, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s_sort_index\",\"args\":{\"sort_index\":%d}}", pid, tid,
	     process ? "process" : "thread", sort);
}

static int bytime(const void *a, const void *b) {
	const traceEv *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* A goroutine's records in their own order. */
static int byg(const void *a, const void *b) {
	const traceEv *x = *(const traceEv *const *)a, *y = *(const traceEv *const *)b;
	if (x->g != y->g)
		return x->g < y->g ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* A goroutine as its tracks show it: "G12 main.worker"; fn points into
 * name, at the function's part. */
typedef struct goinfo {
	int64_t goid;
	char name[256];
	const char *fn;
} goinfo;

/* The name, from the creation record: the function's; for a go
 * statement with arguments, which starts in a thunk glc made with no
 * name, where it was created (as tracebacks say). */
static void goname(goinfo *gi, const traceEv *create) {
	const GlFuncInfo *fi = NULL;
	const char *fn = "", *pre = "";
	if (create == NULL)
		fn = gi->goid == 1 ? "runtime.main" : "";
	else if (create->st == 1)
		fn = (const char *)(uintptr_t)create->arg2;
	else if (create->arg != 0 && (fi = funcentry(create->arg)) != NULL && fi->name != NULL)
		fn = fi->name;
	else if (create->arg2 != 0 && (fi = findfunc(create->arg2, NULL)) != NULL && fi->name != NULL) {
		pre = "created by ";
		fn = fi->name;
	}
	int n = snprintf(gi->name, sizeof gi->name, "G%lld ", (long long)gi->goid);
	snprintf(gi->name + n, sizeof gi->name - (size_t)n, "%s%s", pre, fn);
	gi->fn = gi->name + n;
}

/* One span of a goroutine's state: prev's new state, from prevts to ts;
 * and, for a running one, the same span on its P's track, saying what
 * ended it (next, NULL at the trace's end). */
static void putstate(FILE *f, const goinfo *gi, const traceEv *prev, const traceEv *next, int64_t prevts,
		     int64_t ts) {
	uint32_t st = prev->st & 15;
	if (st == Gdead)
		return;
	const char *s = statename(st);
	putspan(f, pidG, gi->goid, prevts, ts);
	jput(f, ",\"name\":\"%s\",\"cat\":\"%s\",\"args\":{", s, s);
	if (st == Gwaiting)
		jput(f, "\"reason\":\"%q\"", waitreasonstr((uint32_t)prev->arg));
	else if (st == Grunning || st == Gcopystack)
		jput(f, "\"p\":%d", (int64_t)prev->p);
	else if ((st == Grunnable || st == Gpreempted) && *whyname(prev->arg) != 0)
		jput(f, "\"why\":\"%s\"", whyname(prev->arg));
	jput(f, "}}");
	if ((st != Grunning && st != Gcopystack) || prev->p < 0)
		return;
	putspan(f, pidP, prev->p, prevts, ts);
	jput(f, ",\"name\":\"%q%s\",\"args\":{\"g\":%d,\"fn\":\"%q\",\"end\":\"%s", gi->name,
	     st == Gcopystack ? " (stack copy)" : "", gi->goid, gi->fn, next != NULL ? statename(next->st & 15) : "trace end");
	if (next != NULL && (next->st & 15) == Gwaiting)
		jput(f, ": %q", waitreasonstr((uint32_t)next->arg));
	else if (next != NULL && *whyname(next->arg) != 0)
		jput(f, ": %s", whyname(next->arg));
	jput(f, "\"}}");
}

/* An instant event on goroutine goid's track; args is "" or ",{...}". */
static void putinstant(FILE *f, const char *name, int64_t goid, int64_t ts) {
	sep(f);
	jput(f, "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%t", name, (int64_t)pidG, goid, ts);
}

/* One end of a ready arrow: ph "s" on the goroutine that readied, "f" on
 * the readied one where it next runs. */
static void putflow(FILE *f, const char *ph, int64_t id, int64_t goid, int64_t ts) {
	sep(f);
	jput(f, "{\"ph\":\"%s\",%s\"cat\":\"ready\",\"name\":\"ready\",\"id\":%d,\"pid\":%d,\"tid\":%d,\"ts\":%t}", ph,
	     ph[0] == 'f' ? "\"bp\":\"e\"," : "", id, (int64_t)pidG, goid, ts);
}

/* A goroutine's tracks from its records r[0..n) (sorted by sequence);
 * tend: the trace's last time, where an unfinished state ends.  A time
 * that goes backwards (the clocks of two Ms) is held at the previous one,
 * so the spans never overlap. */
static void putgoroutine(FILE *f, const traceEv **r, size_t n, int64_t tend, int64_t *flowid) {
	goinfo gi = {.goid = r[0]->g};
	const traceEv *create = NULL;
	for (size_t k = 0; k < n; k++)
		if (r[k]->type == traceEvGoCreate)
			create = r[k];
	goname(&gi, create);
	putmeta(f, "thread_name", pidG, gi.goid, gi.name, gi.goid);
	if (create != NULL) {
		putinstant(f, "create", gi.goid, create->ts);
		jput(f, ",\"args\":{\"parent\":%d,\"fn\":\"%q\"}}", (int64_t)create->arg3, gi.fn);
	}
	const traceEv *prev = NULL;
	int64_t prevts = 0, flow = 0; /* flow: a ready arrow waiting for the next run */
	for (size_t k = 0; k <= n; k++) {
		const traceEv *e = k < n ? r[k] : NULL;
		if (e != NULL && e->type != traceEvGoStatus)
			continue;
		int64_t ts = e != NULL ? e->ts : tend;
		if (prev != NULL && ts < prevts)
			ts = prevts;
		if (prev != NULL) {
			putstate(f, &gi, prev, e, prevts, ts);
			if ((prev->st & 15) == Grunning && flow != 0) {
				putflow(f, "f", flow, gi.goid, prevts);
				flow = 0;
			}
		}
		if (e == NULL)
			break;
		if ((e->st & 15) == Gdead && (e->st >> 4) != Gdead) {
			putinstant(f, "end", gi.goid, ts);
			jput(f, "}");
		}
		if ((e->st >> 4) == Gwaiting && (e->st & 15) == Grunnable && e->arg2 != 0) {
			flow = ++*flowid;
			putflow(f, "s", flow, (int64_t)e->arg2, ts);
		}
		prev = e;
		prevts = ts;
	}
}

/* Every goroutine's tracks; gs: the status and create records, sorted by
 * goroutine and sequence. */
static void putgoroutines(FILE *f, const traceEv **gs, size_t n, int64_t tend) {
	int64_t flowid = 0;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && gs[j]->g == gs[i]->g; j++)
			;
		putgoroutine(f, gs + i, j - i, tend, &flowid);
	}
}

/* Whether e ends the P its M holds: releasep, another acquirep (which
 * means a release the trace missed), or its goroutine's entry into a
 * system call, which lets the P go without releasep. */
static bool endsp(const traceEv *e) {
	return e->type == traceEvProcStart || e->type == traceEvProcStop ||
	       (e->type == traceEvGoStatus && (e->st & 15) == Gsyscall);
}

/* The M tracks: which P each M held.  ev: all records by time. */
static void putms(FILE *f, const evs *ev, int64_t tend) {
	int64_t nm = 0;
	for (M *mp = allm; mp != NULL; mp = mp->alllink)
		if (mp->id + 1 > nm)
			nm = mp->id + 1;
	int64_t *since = calloc((size_t)nm + 1, sizeof(int64_t));
	int32_t *held = calloc((size_t)nm + 1, sizeof(int32_t));
	for (int64_t m = 0; since != NULL && held != NULL && m < nm; m++)
		held[m] = -1;
	for (size_t i = 0; since != NULL && held != NULL && i < ev->n; i++) {
		const traceEv *e = &ev->v[i];
		if (e->m < 0 || e->m >= nm || !endsp(e))
			continue;
		if (held[e->m] >= 0) {
			putspan(f, pidM, e->m, since[e->m], e->ts);
			jput(f, ",\"name\":\"P%d\",\"args\":{\"p\":%d}}", (int64_t)held[e->m], (int64_t)held[e->m]);
		}
		held[e->m] = e->type == traceEvProcStart ? e->p : -1;
		since[e->m] = e->ts;
	}
	for (int64_t m = 0; since != NULL && held != NULL && m < nm; m++)
		if (held[m] >= 0) {
			putspan(f, pidM, m, since[m], tend);
			jput(f, ",\"name\":\"P%d\",\"args\":{\"p\":%d}}", (int64_t)held[m], (int64_t)held[m]);
		}
	for (M *mp = allm; mp != NULL; mp = mp->alllink) {
		char name[32];
		snprintf(name, sizeof name, "M%lld", (long long)mp->id);
		putmeta(f, "thread_name", pidM, mp->id, name, mp->id);
	}
	free(since);
	free(held);
}

/* The collector's tracks: stop-the-world pauses (tid 0) and mark phases
 * (tid 1). */
static void putgc(FILE *f, const evs *ev, int64_t tend) {
	int64_t stw = -1, mark = -1;
	const char *reason = "";
	bool markstw = false;
	for (size_t i = 0; i < ev->n; i++) {
		const traceEv *e = &ev->v[i];
		if (e->type == traceEvSTWStart) {
			stw = e->ts;
			reason = e->arg != 0 ? (const char *)(uintptr_t)e->arg : "";
		} else if (e->type == traceEvSTWDone && stw >= 0) {
			putspan(f, pidGC, 0, stw, e->ts);
			jput(f, ",\"name\":\"STW: %q\",\"cat\":\"stw\"}", reason);
			stw = -1;
		} else if (e->type == traceEvGCMarkStart) {
			mark = e->ts;
			markstw = e->arg != 0;
		} else if (e->type == traceEvGCMarkDone && mark >= 0) {
			putspan(f, pidGC, 1, mark, e->ts);
			jput(f, ",\"name\":\"%s\",\"cat\":\"mark\"}", markstw ? "mark (world stopped)" : "mark");
			mark = -1;
		}
	}
	if (stw >= 0) {
		putspan(f, pidGC, 0, stw, tend);
		jput(f, ",\"name\":\"STW: %q\",\"cat\":\"stw\"}", reason);
	}
	putmeta(f, "thread_name", pidGC, 0, "STW", 0);
	putmeta(f, "thread_name", pidGC, 1, "phases", 1);
}

/* Stack copies, as instant events on their goroutines' tracks. */
static void putstacks(FILE *f, const evs *ev) {
	for (size_t i = 0; i < ev->n; i++) {
		const traceEv *e = &ev->v[i];
		if (e->type != traceEvStackCopy)
			continue;
		putinstant(f, e->arg2 > e->arg ? "stack growth" : e->arg2 < e->arg ? "stack shrink" : "stack move", e->g,
			   e->ts);
		jput(f, ",\"args\":{\"from\":%d,\"to\":%d}}", (int64_t)e->arg, (int64_t)e->arg2);
	}
}

/* The groups and the P tracks' names: every P there is, and any P a
 * GOMAXPROCS call took away. */
static void putnames(FILE *f, const evs *ev) {
	putmeta(f, "process_name", pidP, 0, "Ps", pidP);
	putmeta(f, "process_name", pidM, 0, "Ms", pidM);
	putmeta(f, "process_name", pidG, 0, "Goroutines", pidG);
	putmeta(f, "process_name", pidGC, 0, "GC", pidGC);
	int32_t np = gomaxprocs;
	for (size_t i = 0; i < ev->n; i++)
		if (ev->v[i].p >= np)
			np = ev->v[i].p + 1;
	for (int32_t p = 0; p < np; p++) {
		char name[32];
		snprintf(name, sizeof name, "P%d", p);
		putmeta(f, "thread_name", pidP, p, name, p);
	}
}

static void traceWriteJSON(void) {
	evs ev = readevents();
	FILE *f = fopen(trace.path, "w");
	const traceEv **gs = malloc((ev.n + 1) * sizeof(traceEv *));
	if (f == NULL || ev.v == NULL || gs == NULL) {
		fprintf(stderr, "runtime: GLDEBUG=trace=%s: %s\n", trace.path, f == NULL ? strerror(errno) : "out of memory");
		if (f != NULL)
			fclose(f);
		free(ev.v);
		free(gs);
		return;
	}
	qsort(ev.v, ev.n, sizeof(traceEv), bytime);
	int64_t tend = ev.n > 0 ? ev.v[ev.n - 1].ts : trace.start;
	size_t ng = 0;
	for (size_t i = 0; i < ev.n; i++)
		if (ev.v[i].type == traceEvGoStatus || ev.v[i].type == traceEvGoCreate)
			gs[ng++] = &ev.v[i];
	qsort(gs, ng, sizeof(traceEv *), byg);
	jput(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"gl\",\"gomaxprocs\":%d,\"start_ns\":%d,"
		"\"events\":%d},\n\"traceEvents\":[",
	     (int64_t)gomaxprocs, trace.start, (int64_t)ev.n);
	first = true;
	putnames(f, &ev);
	putgoroutines(f, gs, ng, tend);
	putms(f, &ev, tend);
	putgc(f, &ev, tend);
	putstacks(f, &ev);
	jput(f, "\n]}\n");
	if (fclose(f) != 0)
		fprintf(stderr, "runtime: GLDEBUG=trace=%s: %s\n", trace.path, strerror(errno));
	free(gs);
	free(ev.v);
}
