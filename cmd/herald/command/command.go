// Package command implements herald's subcommands. Each is declared once,
// as data, with its usage and help (like caddy's cmd/commands.go), lives in
// its own file, and returns an exit code.
//
// Exit codes: 0 success; 1 the command ran and found a problem (an illegal
// order, a failed verification, invalid data); 2 bad usage.
package command

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Env is what a subcommand may touch of the outside world.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Command is one subcommand.
type Command struct {
	Name  string
	Usage string // arguments after the name
	Short string // one line for the list
	Long  string // full help
	// Run parses args with fs (already holding the command's flags) and
	// returns an exit code.
	Flags func(fs *flag.FlagSet)
	Run   func(env Env, fs *flag.FlagSet) int
}

var commands = map[string]*Command{}

func register(c *Command) { commands[c.Name] = c }

// Main runs herald with the given arguments and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env := Env{Stdin: stdin, Stdout: stdout, Stderr: stderr}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				printHelp(env.Stdout, c)
				return 0
			}
		}
		usage(env.Stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "herald: unknown command %q\n\n", args[0])
		usage(env.Stderr)
		return 2
	}
	if wantsHelp(args[1:]) {
		printHelp(env.Stdout, c)
		return 0
	}
	fs := flag.NewFlagSet("herald "+c.Name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() { printHelp(env.Stderr, c) }
	if c.Flags != nil {
		c.Flags(fs)
	}
	if err := fs.Parse(args[1:]); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	return c.Run(env, fs)
}

// wantsHelp reports a -h, -help or --help anywhere among a command's
// arguments before a "--": also after its own words (herald game export
// --help), where the flag package has stopped parsing and would take it
// for a mistake. Help asked for is printed once, to standard output, and
// is a success.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Herald: play-by-email turn processor for the Men of Iron series.")
	fmt.Fprintln(w, "\nUsage: herald <command> [flags]\n\nCommands:")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].Short)
	}
	fmt.Fprintln(w, "\nRun \"herald help <command>\" for a command's flags.")
}

func printHelp(w io.Writer, c *Command) {
	fmt.Fprintf(w, "Usage: herald %s %s\n\n%s\n", c.Name, c.Usage, strings.TrimSpace(c.Long))
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	if c.Flags != nil {
		c.Flags(fs)
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

// fail prints an error for a command and returns exit code 1.
func fail(env Env, name string, err error) int {
	fmt.Fprintf(env.Stderr, "herald %s: %v\n", name, err)
	return 1
}
