package main

import "example.com/program/tool"

func main() { tool.X() }
