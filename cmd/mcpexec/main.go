package main

import "github.com/mcpexec/mcpexec/internal/cli"

func main() { cli.Mcpexec() }
