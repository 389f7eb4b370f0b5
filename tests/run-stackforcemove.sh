#!/bin/sh
# The run tests again, with every goroutine stack moved to a fresh block at
# every function entry and the old block made inaccessible: any address into
# a stack that glc or the runtime failed to update faults at once.
GLDEBUG=stackforcemove=1
export GLDEBUG
exec "$(dirname "$0")/run.py" "$@"
