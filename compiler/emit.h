/* emit.h — the C back end. */
#ifndef GLC_EMIT_H
#define GLC_EMIT_H

#include <stdio.h>

#include "check.h"

/* Before writing any file: the C names of every package's objects. */
void emitprepare(void);
/* The C file of one package (the main package's includes main()). */
void emitunit(Package *p, FILE *out);

#endif
