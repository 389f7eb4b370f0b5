/* emit.h — the C back end. */
#ifndef GLC_EMIT_H
#define GLC_EMIT_H

#include <stdio.h>

#include "check.h"

void emitprogram(Package *mainpkg, FILE *out);

#endif
