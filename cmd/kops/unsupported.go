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

package main

import (
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// kopsFlag is a flag kops has on a command that this build does not honour. It is parsed as kops
// parses it, so that a script's command line is read the same way (`--bastion` takes no value,
// `--networking cilium` takes the next word), and then refused with why, rather than failing as an
// unknown flag. A flag this build can only leave aside harmlessly (a kubeconfig kops would also
// write, say) is noted on stderr instead, and the command goes on.
type kopsFlag struct {
	name      string
	shorthand string
	// kind is how kops parses it: a switch (with an optional =value) or a flag with a value.
	kind flagKind
	// why says in one sentence why this build does not honour the flag.
	why string
	// note lets the command go on after saying why; refuse says no.
	note bool
	// harmless is the value that asks for what this build does anyway, so needs neither note nor
	// refusal (--create-kube-config=false, --use-kubeconfig).
	harmless string
}

type flagKind int

const (
	withValue flagKind = iota
	isSwitch
	// switchWithDuration is a flag such as --admin: alone it takes kops's default, or =DURATION.
	switchWithDuration
)

// kopsFlagValue records what was given; it accepts any value, as the refusal is the answer.
type kopsFlagValue struct {
	kind  flagKind
	value string
}

func (v *kopsFlagValue) String() string { return v.value }
func (v *kopsFlagValue) Set(s string) error {
	switch v.kind {
	case isSwitch:
		if _, err := strconv.ParseBool(s); err != nil {
			return fmt.Errorf("%q is not true or false", s)
		}
	case switchWithDuration:
		if _, err := time.ParseDuration(s); err != nil {
			return fmt.Errorf("%q is not a duration such as 18h", s)
		}
	}
	v.value = s
	return nil
}

func (v *kopsFlagValue) Type() string {
	switch v.kind {
	case isSwitch:
		return "bool"
	case switchWithDuration:
		return "duration"
	}
	return "string"
}

// addKopsFlags adds kops's flags this build does not honour to a command's flags (persistent:
// to every command under it) and checks them before the command runs.
func addKopsFlags(cmd *cobra.Command, persistent bool, flags ...kopsFlag) {
	set := cmd.Flags()
	if persistent {
		set = cmd.PersistentFlags()
	}
	values := make([]*kopsFlagValue, len(flags))
	for i, f := range flags {
		values[i] = &kopsFlagValue{kind: f.kind}
		pf := set.VarPF(values[i], f.name, f.shorthand, "kops's flag, not supported by this build: "+f.why)
		pf.Hidden = true
		switch f.kind {
		case isSwitch:
			pf.NoOptDefVal = "true"
		case switchWithDuration:
			pf.NoOptDefVal = "18h0m0s"
		}
	}
	check := func(cmd *cobra.Command) error {
		for i, f := range flags {
			var pf *pflag.Flag
			if persistent {
				pf = cmd.Root().PersistentFlags().Lookup(f.name)
			} else {
				pf = cmd.Flags().Lookup(f.name)
			}
			if pf == nil || !pf.Changed || values[i].value == f.harmless && f.harmless != "" {
				continue
			}
			if f.note {
				warnf(cmd.ErrOrStderr(), "W: --%s is not supported in this build: %s\n", f.name, f.why)
				continue
			}
			return fmt.Errorf("--%s is not supported in this build: %s", f.name, f.why)
		}
		return nil
	}
	if persistent {
		next := cmd.PersistentPreRunE
		cmd.PersistentPreRunE = func(c *cobra.Command, args []string) error {
			if err := check(c); err != nil {
				return err
			}
			if next != nil {
				return next(c, args)
			}
			return nil
		}
		return
	}
	next := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		if err := check(c); err != nil {
			return err
		}
		if next != nil {
			return next(c, args)
		}
		return nil
	}
}
