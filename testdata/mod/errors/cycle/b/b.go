package b

import "example.com/cycle/a"

var B = a.A
