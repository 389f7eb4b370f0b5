/*
 * debug.c — GLDEBUG and GLTRACEBACK, gl's GODEBUG and GOTRACEBACK
 * (Go's runtime/runtime1.go: parsedebugvars, gotraceback).
 *
 * GLDEBUG is a comma-separated list of name=value pairs; values are
 * decimal integers (but preemptpacing=fixed|adaptive); unknown names and
 * malformed pairs are ignored, as Go ignores them.  Read once, at start-up, on the OS thread's stack.
 */
#define _GNU_SOURCE /* strndup */
#include "rt.h"

#include <stdlib.h>
#include <string.h>

gl_debugvars gl_debug;

/* The traceback setting: GLTRACEBACK's, or what runtime/debug.SetTraceback
 * set since (read by a dying M; a word each, so a reader sees a whole
 * value of each).  traceback_env is GLTRACEBACK's alone: SetTraceback
 * may raise the setting above it, never lower it, as Go's does. */
typedef struct tracebackSetting {
	int32_t level; /* 0 none, 1 single or all (Go's default single), 2 system */
	bool all;      /* every goroutine, not only the one that failed */
	bool crash;    /* abort after printing, for a core dump */
} tracebackSetting;
static tracebackSetting traceback_env = {1, false, false};
static int32_t traceback_level = 1;
static bool traceback_all, traceback_crash;

/* Go's dbgvars table: name → field. */
static const struct dbgvar {
	const char *name;
	int32_t *value;
} dbgvars[] = {
	{"adaptivestackstart", &gl_debug.adaptivestackstart},
	{"asyncpreemptoff", &gl_debug.asyncpreemptoff},
	{"clobberfree", &gl_debug.clobberfree},
	{"efence", &gl_debug.efence},
	{"ffilibffi", &gl_debug.ffilibffi},
	{"gccheckmark", &gl_debug.gccheckmark},
	{"gcshrinkstackoff", &gl_debug.gcshrinkstackoff},
	{"gcstoptheworld", &gl_debug.gcstoptheworld},
	{"gcstress", &gl_debug.gcstress},
	{"gcpacertrace", &gl_debug.gcpacertrace},
	{"gctrace", &gl_debug.gctrace},
	{"invalidptr", &gl_debug.invalidptr},
	{"lockrank", &gl_debug.lockrank},
	{"madvdontneed", &gl_debug.madvdontneed},
	{"mutexstats", &gl_debug.mutexstats},
	{"scheddetail", &gl_debug.scheddetail},
	{"scavtrace", &gl_debug.scavtrace},
	{"runnextsleep", &gl_debug.runnextsleep},
	{"schedtrace", &gl_debug.schedtrace},
	{"stackforcemove", &gl_debug.stackforcemove},
	{"stacktrace", &gl_debug.stacktrace},
	{"tracebackancestors", &gl_debug.tracebackancestors},
	{"wbforce", &gl_debug.wbforce},
	{"wbshadow", &gl_debug.wbshadow},
};

/* Go's atoi32: digits only, with an optional minus; false if malformed. */
static bool atoi32(const char *s, size_t n, int32_t *v) {
	bool neg = n > 0 && s[0] == '-';
	size_t i = neg;
	int64_t x = 0;
	if (i == n)
		return false;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		x = x * 10 + (s[i] - '0');
		if (x > INT32_MAX)
			return false;
	}
	*v = (int32_t)(neg ? -x : x);
	return true;
}

static void setdebugvar(const char *name, size_t nn, const char *val, size_t nv) {
	/* the one string-valued knob: trace=FILE (trace.c); FILE ends at the
	 * next comma */
	if (nn == 5 && memcmp(name, "trace", 5) == 0) {
		gl_debug.trace = nv > 0 ? strndup(val, nv) : NULL;
		return;
	}
	/* Go's cpu.popcnt=off: generated code counts bits without POPCNT
	 * (gl.h's intrinsics; testdata/mathlibm.sh runs testdata/run/intrinsics both ways) */
	if (nn == 10 && memcmp(name, "cpu.popcnt", 10) == 0) {
		if (nv == 3 && memcmp(val, "off", 3) == 0)
			gl_x86HasPOPCNT = false;
		return;
	}
	if (nn == 7 && memcmp(name, "cpu.fma", 7) == 0) { /* math.FMA through libm's fma */
		if (nv == 3 && memcmp(val, "off", 3) == 0)
			gl_x86HasFMA = false;
		return;
	}
	/* sync.Mutex's policy (stdlib/sync/mutex.gl): Go's exact algorithm,
	 * or gl's adaptive hand-off (the default) */
	if (nn == 11 && memcmp(name, "mutexpolicy", 11) == 0) {
		if (nv == 2 && memcmp(val, "go", 2) == 0)
			gl_debug.mutexpolicygo = 1;
		else if (nv == 8 && memcmp(val, "adaptive", 8) == 0)
			gl_debug.mutexpolicygo = 0;
		return;
	}
	/* a new goroutine's stack (stack.c): 0, 1 (Go's) or site (gl's) */
	if (nn == 18 && memcmp(name, "adaptivestackstart", 18) == 0 && nv == 4 && memcmp(val, "site", 4) == 0) {
		gl_debug.adaptivestackstart = 2;
		return;
	}
	/* suspendG's resend pacing (preempt.c) */
	if (nn == 13 && memcmp(name, "preemptpacing", 13) == 0) {
		if (nv == 5 && memcmp(val, "fixed", 5) == 0)
			gl_debug.preemptpacing = 1;
		else if (nv == 8 && memcmp(val, "adaptive", 8) == 0)
			gl_debug.preemptpacing = 0;
		return;
	}
	for (size_t i = 0; i < sizeof dbgvars / sizeof dbgvars[0]; i++) {
		if (strlen(dbgvars[i].name) == nn && memcmp(dbgvars[i].name, name, nn) == 0) {
			int32_t v;
			if (atoi32(val, nv, &v))
				*dbgvars[i].value = v;
			return;
		}
	}
}

/* A GLTRACEBACK value: none, single (or empty), all, system, crash, or a
 * level number (with all). */
static tracebackSetting parseTraceback(const char *s, size_t n) {
	tracebackSetting t = {1, false, false};
	if (n == 0 || (n == 6 && !memcmp(s, "single", 6)))
		return t;
	if (n == 4 && !memcmp(s, "none", 4))
		t.level = 0;
	else if (n == 3 && !memcmp(s, "all", 3))
		t.all = true;
	else if (n == 6 && !memcmp(s, "system", 6))
		t = (tracebackSetting){2, true, false};
	else if (n == 5 && !memcmp(s, "crash", 5))
		t = (tracebackSetting){2, true, true};
	else {
		int32_t v;
		t.all = true;
		if (atoi32(s, n, &v))
			t.level = v;
		else
			t.level = 0; /* a word Go does not know: its level bits stay 0 */
	}
	return t;
}

static void setTraceback(tracebackSetting t) {
	__atomic_store_n(&traceback_level, t.level, __ATOMIC_RELAXED);
	__atomic_store_n(&traceback_all, t.all, __ATOMIC_RELAXED);
	__atomic_store_n(&traceback_crash, t.crash, __ATOMIC_RELAXED);
}

/* runtime/debug.SetTraceback(level): the setting for the tracebacks from
 * now on, but never below GLTRACEBACK's. */
void runtime_debug_setTraceback(G *g, GlString level) {
	(void)g;
	tracebackSetting t = parseTraceback((const char *)level.ptr, (size_t)level.len), e = traceback_env;
	setTraceback((tracebackSetting){t.level > e.level ? t.level : e.level, t.all || e.all, t.crash || e.crash});
}

void parsedebugvars(void) {
	/* gl's defaults where they are not 0 (the collector's mark is
	 * concurrent, as Go's: gcstoptheworld=0): the thief's pause before it
	 * takes a running P's runnext, Go's 3 µs (proc.c, runqgrab); and
	 * invalidptr=1, Go's default: the mark reports a heap pointer to no
	 * span in use (mgcmark.c, badPointer) */
	gl_debug.runnextsleep = 3;
	gl_debug.invalidptr = 1;
	const char *s = getenv("GLDEBUG");
	while (s != NULL && *s != 0) {
		const char *end = strchr(s, ',');
		size_t n = end ? (size_t)(end - s) : strlen(s);
		const char *eq = memchr(s, '=', n);
		if (eq != NULL)
			setdebugvar(s, (size_t)(eq - s), eq + 1, n - (size_t)(eq - s) - 1);
		s = end ? end + 1 : NULL;
	}
	const char *tb = getenv("GLTRACEBACK");
	traceback_env = parseTraceback(tb ? tb : "", tb ? strlen(tb) : 0);
	setTraceback(traceback_env);
	if (gl_debug.wbshadow) /* the shadow is written by the barrier's slow paths */
		gl_debug.wbforce = 1;
}

void gotraceback(int32_t *level, bool *all, bool *crash) {
	M *mp = getm();
	*level = __atomic_load_n(&traceback_level, __ATOMIC_RELAXED);
	if (mp != NULL && mp->traceback != 0)
		*level = mp->traceback;
	else if (mp != NULL && mp->throwing >= throwTypeRuntime)
		*level = 2; /* the runtime's own fault: its frames are the story */
	*all = __atomic_load_n(&traceback_all, __ATOMIC_RELAXED) || (mp != NULL && mp->throwing >= throwTypeUser);
	*crash = __atomic_load_n(&traceback_crash, __ATOMIC_RELAXED);
}
