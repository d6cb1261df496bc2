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

package s3env

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials/processcreds"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"k8s.io/kops/util/pkg/procgroup"
)

const (
	// maxProcessOutput bounds what a credential_process may print: its answer is a small JSON document.
	maxProcessOutput = 64 << 10
	// processTimeout is the SDK's own default; the request's deadline, when sooner, ends it first.
	processTimeout = time.Minute
)

// boundProcess replaces the SDK's credential_process provider where a profile's
// credential_process is the chain's source, directly or as the source_profile of an assumed role:
// the SDK's runs `sh -c` with its output unbounded, and kills only sh at the deadline, so a child
// that keeps the output open holds the command. The replacement runs the same command in its own
// process group, killed whole at the deadline and after each run, and stops reading after
// maxProcessOutput. An assumed role keeps the SDK's STS provider, given the bounded source and
// the profile's role settings as the SDK gives them. Longer chains (a role whose source is itself
// a role) keep the SDK's providers, bounded by its timeout and the request's deadline.
func boundProcess(cfg aws.Config, env config.EnvConfig, shared config.SharedConfig) aws.Config {
	if !procgroup.Supported || env.Credentials.HasKeys() || env.WebIdentityTokenFilePath != "" {
		return cfg
	}
	switch {
	case processIsTheSource(shared):
		cfg.Credentials = newProcessCache(shared)
	case shared.RoleARN != "" && shared.Source != nil && processIsTheSource(*shared.Source) && shared.MFASerial == "" &&
		shared.CredentialSource == "" && shared.WebIdentityTokenFile == "":
		stsConfig := cfg.Copy()
		stsConfig.Credentials = newProcessCache(*shared.Source)
		role := stscreds.NewAssumeRoleProvider(sts.NewFromConfig(stsConfig), shared.RoleARN, func(o *stscreds.AssumeRoleOptions) {
			o.RoleSessionName = shared.RoleSessionName
			if d := shared.RoleDurationSeconds; d != nil && *d > 15*time.Minute {
				o.Duration = *d // as the SDK: shorter than STS's least is left to STS's default
			}
			if shared.ExternalID != "" {
				o.ExternalID = aws.String(shared.ExternalID)
			}
		})
		cfg.Credentials = &credentialCache{provider: role, what: fmt.Sprintf("the role of AWS profile %q", shared.Profile), turn: make(chan struct{}, 1)}
	}
	return cfg
}

// processIsTheSource says a profile takes its credentials from its credential_process and from
// nothing the SDK would try first.
func processIsTheSource(shared config.SharedConfig) bool {
	return shared.Source == nil && !shared.Credentials.HasKeys() && shared.CredentialSource == "" &&
		shared.WebIdentityTokenFile == "" && shared.SSOSessionName == "" && shared.SSOStartURL == "" &&
		shared.LoginSession == "" && shared.RoleARN == "" && shared.CredentialProcess != ""
}

func newProcessCache(shared config.SharedConfig) *credentialCache {
	run := &boundedProcess{command: shared.CredentialProcess, profile: shared.Profile}
	provider := processcreds.NewProviderCommand(run, func(o *processcreds.Options) { o.Timeout = processTimeout })
	return &credentialCache{
		provider: processResult{provider, run},
		what:     fmt.Sprintf("the credential_process of AWS profile %q", shared.Profile),
		turn:     make(chan struct{}, 1),
	}
}

// credentialCache keeps credentials until they expire. Not aws.CredentialsCache: it runs the
// provider detached from the caller's context, so the request's deadline would not end a helper.
// turn lets one caller run the provider while the others wait, each by its own deadline.
type credentialCache struct {
	provider aws.CredentialsProvider
	what     string
	turn     chan struct{}
	creds    aws.Credentials
}

// processExpiryMargin renews credentials this long before they expire, so none expire mid-request.
const processExpiryMargin = time.Minute

func (c *credentialCache) Retrieve(ctx context.Context) (aws.Credentials, error) {
	select {
	case c.turn <- struct{}{}:
	case <-ctx.Done():
		return aws.Credentials{}, fmt.Errorf("waiting for %s: %w", c.what, ctx.Err())
	}
	defer func() { <-c.turn }()
	if c.creds.HasKeys() && (!c.creds.CanExpire || time.Until(c.creds.Expires) > processExpiryMargin) {
		return c.creds, nil
	}
	creds, err := c.provider.Retrieve(ctx)
	if err != nil {
		return creds, err
	}
	c.creds = creds
	return creds, nil
}

// boundedProcess builds each run of the command; the latest run's is kept, to end its group and
// name its fate after the SDK's provider is done with it.
type boundedProcess struct {
	command, profile string
	mu               sync.Mutex
	cmd              *exec.Cmd
	out              *procgroup.CappedWriter
}

func (b *boundedProcess) NewCommand(ctx context.Context) (*exec.Cmd, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", b.command)
	out := procgroup.Prepare(cmd, maxProcessOutput)
	cmd.Stderr = os.Stderr // no stdin: a helper prompting would wait for nobody
	b.mu.Lock()
	b.cmd, b.out = cmd, out
	b.mu.Unlock()
	return cmd, nil
}

// processResult ends what the run left behind and names the cause the SDK's error hides.
type processResult struct {
	provider *processcreds.Provider
	run      *boundedProcess
}

func (p processResult) Retrieve(ctx context.Context) (aws.Credentials, error) {
	creds, err := p.provider.Retrieve(ctx)
	p.run.mu.Lock()
	cmd, out := p.run.cmd, p.run.out
	p.run.mu.Unlock()
	if cmd == nil {
		return creds, err
	}
	if ferr := procgroup.Finish(ctx, cmd, out, err); ferr != nil {
		if err == nil || errors.Is(ferr, procgroup.ErrTooMuchOutput) || errors.Is(ferr, procgroup.ErrOutputHeld) || errors.Is(ferr, procgroup.ErrDeadline) {
			return aws.Credentials{}, fmt.Errorf("the credential_process of AWS profile %q %w", p.run.profile, ferr)
		}
	}
	return creds, err
}
