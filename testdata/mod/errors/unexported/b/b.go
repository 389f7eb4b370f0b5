package b

var B = 1
var b = 2
