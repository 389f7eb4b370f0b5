package b

import "example.com/internal/a/internal/x"

const B = x.X
