#!/bin/sh
# The run tests again, with every program's C cut into three parts compiled
# separately (GLCPARTS=3), as glc does for a large package on a machine with
# several CPUs: a static a part needs but another part defines fails to link.
GLCPARTS=3
export GLCPARTS
exec "$(dirname "$0")/run.py" "$@"
