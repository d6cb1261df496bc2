/*
Copyright 2026 The kops addon operators Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package docs

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// Parse holds one documented command line to a command tree as cobra would run it, without
// running it: the subcommand exists, every flag is one it has and its value parses, and the
// positional arguments are as many as it takes. args excludes the program's name.
func Parse(root *cobra.Command, args []string) error {
	addDefaultCommands(root, args)
	cmd, rest, err := root.Find(args)
	if err != nil {
		return err
	}
	cmd.InitDefaultHelpFlag()
	if err := cmd.ParseFlags(rest); err != nil {
		return fmt.Errorf("%s: %w", cmd.CommandPath(), err)
	}
	positional := cmd.Flags().Args()
	// A command that groups subcommands and was given another word names a subcommand it lacks
	// (cobra alone would run the group with it as an argument).
	if cmd.HasAvailableSubCommands() && len(positional) > 0 {
		return noSubcommand(cmd, positional[0])
	}
	if err := cmd.ValidateArgs(positional); err != nil {
		return fmt.Errorf("%s: %w", cmd.CommandPath(), err)
	}
	return nil
}

func noSubcommand(cmd *cobra.Command, name string) error {
	var names []string
	for _, s := range cmd.Commands() {
		if s.IsAvailableCommand() {
			names = append(names, s.Name())
		}
	}
	return fmt.Errorf("%s has no subcommand %q (it has %s)", cmd.CommandPath(), name, strings.Join(names, ", "))
}

// Mention holds a command named in prose (a code span) to the tree: the words up to the first
// placeholder, option or bracket name a command that exists; a bracketed choice right after a
// command with subcommands (`get [clusters|instancegroups]`) names subcommands that exist; and
// every flag written (`--wait`, `[-o table|yaml]`, `--set=…`) is one the command has. Arguments and
// values are not held: a span may leave them out.
func Mention(root *cobra.Command, args []string) error {
	addDefaultCommands(root, args)
	cmd := root
	i := 0
	for ; i < len(args); i++ {
		next := findSub(cmd, args[i])
		if next == nil {
			break
		}
		cmd = next
	}
	if i < len(args) && cmd.HasAvailableSubCommands() {
		word := args[i]
		if (strings.HasPrefix(word, "[") || strings.Contains(word, "|")) && !strings.HasPrefix(strings.TrimPrefix(word, "["), "-") {
			for _, alt := range strings.Split(strings.Trim(word, "[]"), "|") {
				if findSub(cmd, alt) == nil {
					return noSubcommand(cmd, alt)
				}
			}
		} else if !strings.HasPrefix(word, "-") && word == strings.ToLower(word) && !strings.ContainsAny(word, "<$./") {
			return noSubcommand(cmd, word)
		}
	}
	cmd.InitDefaultHelpFlag()
	for _, word := range args[i:] {
		for _, alt := range strings.Split(strings.Trim(word, "[]"), "|") {
			name, ok := flagName(alt)
			if !ok {
				continue
			}
			var known bool
			if len(name) == 1 {
				known = cmd.Flags().ShorthandLookup(name) != nil || cmd.InheritedFlags().ShorthandLookup(name) != nil
			} else {
				known = cmd.Flags().Lookup(name) != nil || cmd.InheritedFlags().Lookup(name) != nil
			}
			if !known {
				return fmt.Errorf("%s has no flag %q", cmd.CommandPath(), alt)
			}
		}
	}
	return nil
}

func findSub(cmd *cobra.Command, name string) *cobra.Command {
	for _, s := range cmd.Commands() {
		if s.Name() == name || s.HasAlias(name) {
			return s
		}
	}
	return nil
}

// flagName reads "--wait=5m" as "wait" and "-o" as "o"; a word that is no flag gives false.
func flagName(word string) (string, bool) {
	var name string
	switch {
	case strings.HasPrefix(word, "--") && len(word) > 2:
		name = word[2:]
	case strings.HasPrefix(word, "-") && len(word) == 2:
		name = word[1:]
	default:
		return "", false
	}
	name, _, _ = strings.Cut(name, "=")
	return name, true
}

// addDefaultCommands adds what cobra adds to a root command when it executes: help and, unless the
// program turned it off, completion.
func addDefaultCommands(root *cobra.Command, args []string) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd(args...)
}

// Check returns, for every command line of program in the documentation under root, why it does
// not parse against the tree newRoot builds for that line's environment (feature flags change the
// tree): code blocks in full (Parse), prose spans as names of commands (Mention). It fails when the
// documentation shows no such command at all, so a broken extraction cannot pass.
func Check(root, program string, newRoot func(env map[string]string) *cobra.Command) []error {
	cmds, err := Commands(root, program)
	if err != nil {
		return []error{err}
	}
	var errs []error
	n := 0
	for _, c := range cmds {
		if c.Args[0] != program {
			continue
		}
		n++
		tree := newRoot(c.Env)
		check := Parse
		if c.Span {
			check = Mention
		}
		if err := check(tree, c.Args[1:]); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.Where(), err))
		}
	}
	if n == 0 {
		errs = append(errs, fmt.Errorf("the documentation shows no %s command: the extraction is broken", program))
	}
	return errs
}
