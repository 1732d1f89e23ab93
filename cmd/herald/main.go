// Command herald is Herald's one binary: a play-by-email turn processor for
// the Men of Iron series. Run "herald help" for its subcommands.
package main

import (
	"os"

	"herald/cmd/herald/command"
)

func main() { os.Exit(command.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
