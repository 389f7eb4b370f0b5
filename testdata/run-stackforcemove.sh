#!/bin/sh
# The run tests again, with every goroutine stack moved to a fresh block at
# every function entry and every park, and the old block made inaccessible:
# any address into a stack that glc or the runtime failed to update faults
# at once.  Each move maps, copies and poisons (about 30 us of system time),
# so the concurrency programs take seconds where they take milliseconds
# normally: their limit is 600 s here (60 s otherwise) unless
# GLTEST_TIMEOUT says.  The few programs that make tens of millions of
# calls move at one call in N instead (their header says
# `// stackforcemove=N: why`, testdata/README.md).
# The runtime's lock order is checked at every lock meanwhile (lockrank=1,
# runtime/lockrank.c): a bad order is a fatal error even when no deadlock
# happens.
GLDEBUG=stackforcemove=1,lockrank=1
GLTEST_TIMEOUT=${GLTEST_TIMEOUT:-600}
export GLDEBUG GLTEST_TIMEOUT
exec "$(dirname "$0")/run.py" "$@"
