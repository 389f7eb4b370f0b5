/* trace.h — glc trace: an execution trace made into one HTML page (trace.c). */
#ifndef GLC_TRACE_H
#define GLC_TRACE_H

/* glc trace [-o out.html] trace.json: argv holds the arguments after
 * "trace"; glc's exit status (1: the trace is unreadable or not a trace,
 * 2: a usage error). */
int tracecmd(int argc, char **argv);

#endif
