/* emit.h — the C back end. */
#ifndef GLC_EMIT_H
#define GLC_EMIT_H

#include <stdio.h>

#include "check.h"

/* Before writing any file: the C names of every package's objects. */
void emitprepare(void);
/* The C of one package: generated once, written in one or more parts
 * (see splitunit). */
#define GL_MAXPARTS 16
void emitunit(Package *p);
int splitunit(int maxparts, int64_t minsize);
void writepart(Package *p, int part, FILE *out);
void writecontract(FILE *out, const char *stdroot); /* glc contract */
void emitforget(void); /* before another program in the same process (the fuzz target) */
/* glc -d=checkstores: the C is written with every pointer const-qualified
 * (ctype), so the C compiler rejects any store into memory reached through
 * a pointer that does not go through store() (emitstmt.c) */
extern bool checkstores;
const char *glroot(void); /* main.c: the toolchain's root, stdlib/'s parent (runtime.GOROOT) */

/* stackcheck.c: the code between two stack checks fits in the band */
enum { SR_CHECKED, SR_LEAF, SR_RTLEAF, SR_NOSPLIT, SR_WRAPPER, SR_REFLECTCALL };
void stackrec(Package *p, const char *cname, const char *gname, Pos pos, int kind, Vec *callees);
void stackcheck(Package *p, Vec *sus, const char *stkout);
void stackbigframes(Package *p, Vec *sus, Vec *out); /* .su files with a too-large checked frame */
void stackreset(Package *p);                         /* before reading them again */
void stackload(Package *p, const char *stk);
void stackforget(void);                              /* emitforget's */

#endif
