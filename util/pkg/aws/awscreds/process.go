package awscreds

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"time"

	"k8s.io/kops/util/pkg/aws/sigv4"
)

// processTimeout bounds a credential_process, as AWS's SDKs bound it.
const processTimeout = time.Minute

// process runs a profile's credential_process through the shell, with the command's environment,
// and reads the credentials it prints (JSON, Version 1). Its output is never shown: only its
// standard error goes to the user.
func (c *chain) process(command, profileName string) provider {
	source := "credential_process of AWS profile " + profileName
	return func(ctx context.Context) (sigv4.Credentials, error) {
		ctx, cancel := context.WithTimeout(ctx, processTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "sh", "-c", command)
		// Never nil, which would hand the command this process's own environment: it gets the
		// chain's, even an empty one.
		cmd.Env = make([]string, 0, len(c.env))
		for k, v := range c.env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, c.Stderr
		if err := cmd.Run(); err != nil {
			return sigv4.Credentials{}, fmt.Errorf("%s: %w", source, err)
		}
		var j jsonCredentials
		if err := json.Unmarshal(out.Bytes(), &j); err != nil {
			return sigv4.Credentials{}, fmt.Errorf("%s: its output is not the JSON credentials it should print", source)
		}
		if j.Version != 1 {
			return sigv4.Credentials{}, fmt.Errorf("%s: its output has Version %d; AWS's format is Version 1", source, j.Version)
		}
		return j.keys(source)
	}
}
