package x

const X = 1
