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

package validation

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/util/pkg/suggest"
)

var (
	supportedPodMetadataModes = []string{kops.PodMetadataAccessAllow, kops.PodMetadataAccessBlock, kops.PodMetadataAccessForward}
	supportedMetadataProxies  = []string{kops.PodMetadataProxyKube2IAM}
	// interfaceRE is an iptables -i pattern (at most 15 characters, optional trailing +).
	interfaceRE     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,15}\+?$`) })
	roleARNPrefixRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^arn:aws(-cn|-us-gov)?:iam::[0-9]{12}:role/([a-zA-Z0-9+=,.@_-]+/)*$`)
	})
	roleNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-zA-Z0-9+=,.@_-]+/)*[a-zA-Z0-9+=,.@_-]{1,64}$`) })
)

func validatePodMetadataAccess(spec *kops.ClusterSpec, specPath *field.Path) field.ErrorList {
	p, path := spec.PodMetadataAccess, specPath.Child("podMetadataAccess")
	if p == nil {
		return nil
	}
	var errs field.ErrorList
	modePath := path.Child("mode")
	_, hasMetadata := kops.InstanceMetadataAddress(spec.CloudProvider)
	switch {
	case p.Mode == "":
		// Only a cloud without metadata leaves the mode empty after completion.
	case !slices.Contains(supportedPodMetadataModes, p.Mode):
		errs = append(errs, unsupportedWithSuggestion(modePath, p.Mode, supportedPodMetadataModes))
	case p.Mode != kops.PodMetadataAccessAllow && !hasMetadata:
		errs = append(errs, field.Forbidden(modePath, fmt.Sprintf(
			"%s needs an instance metadata service, and cloud %q has none this build knows; leave podMetadataAccess unset",
			p.Mode, spec.CloudProvider)))
	case p.Mode == kops.PodMetadataAccessForward && spec.CloudProvider != "aws":
		errs = append(errs, field.Forbidden(modePath, fmt.Sprintf(
			"Forward hands pods AWS IAM credentials through kube2iam and works only on aws, not %q; use Block", spec.CloudProvider)))
	}

	if p.Forward != nil && p.Mode != kops.PodMetadataAccessForward {
		errs = append(errs, field.Forbidden(path.Child("forward"),
			fmt.Sprintf("may only be set when %s is Forward", modePath)))
	}
	if p.Forward != nil && p.Mode == kops.PodMetadataAccessForward {
		errs = append(errs, validateForward(p.Forward, path.Child("forward"))...)
	}
	if p.Mode == kops.PodMetadataAccessForward && p.Forward == nil {
		errs = append(errs, field.Required(path.Child("forward"), "mode Forward needs forward.baseRoleARN"))
	}

	ifacePath := path.Child("hostInterface")
	switch {
	case p.HostInterface == "":
	case kops.InterfacePatternMatches(p.HostInterface, kops.LoopbackInterface):
		// The node's own requests come back in through lo; matching it would cut the node off.
		errs = append(errs, field.Invalid(ifacePath, p.HostInterface,
			"must not match lo: the node itself reaches instance metadata through it; name the pods' interfaces (cali+, eth1)"))
	case !interfaceRE().MatchString(p.HostInterface):
		errs = append(errs, field.Invalid(ifacePath, p.HostInterface,
			"must be an interface name of at most 15 letters, digits, '_', '.' or '-', optionally ending in + to match a prefix (cali+, eth1)"))
	}
	return errs
}

func validateForward(f *kops.PodMetadataForwardSpec, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if f.Proxy != "" && !slices.Contains(supportedMetadataProxies, f.Proxy) {
		errs = append(errs, unsupportedWithSuggestion(path.Child("proxy"), f.Proxy, supportedMetadataProxies))
	}
	if f.Port != nil && (*f.Port < 1 || *f.Port > 65535) {
		errs = append(errs, field.Invalid(path.Child("port"), *f.Port, "must be from 1 to 65535"))
	}
	basePath := path.Child("baseRoleARN")
	switch {
	case f.BaseRoleARN == "":
		errs = append(errs, field.Required(basePath,
			"the nodes may assume only the roles under this ARN prefix (e.g. arn:aws:iam::123456789012:role/); without it they could assume any role"))
	case !roleARNPrefixRE().MatchString(f.BaseRoleARN):
		errs = append(errs, field.Invalid(basePath, f.BaseRoleARN,
			"must be an IAM role ARN prefix ending in /, e.g. arn:aws:iam::123456789012:role/ or arn:aws:iam::123456789012:role/pods/"))
	}
	if r := f.DefaultRole; r != "" {
		rolePath := path.Child("defaultRole")
		switch {
		case strings.HasPrefix(r, "arn:"):
			if f.BaseRoleARN == "" || !strings.HasPrefix(r, f.BaseRoleARN) {
				errs = append(errs, field.Invalid(rolePath, r,
					fmt.Sprintf("must lie under %s, the only roles the nodes may assume", basePath)))
			}
		case !roleNameRE().MatchString(r):
			errs = append(errs, field.Invalid(rolePath, r, "must be an IAM role name (letters, digits, +=,.@_-), relative to baseRoleARN, or a role ARN under it"))
		}
	}
	return errs
}

// validateInstanceMetadataForMode checks node groups' AWS metadata settings against a mode the user
// wrote. Control-plane groups are skipped: kops writes them with hop limit 3.
func validateInstanceMetadataForMode(ig *kops.InstanceGroup, cluster *kops.Cluster, path *field.Path) field.ErrorList {
	if cluster == nil || cluster.Spec.CloudProvider != "aws" || ig.Spec.Role != kops.RoleNode {
		return nil
	}
	mode := cluster.Spec.PodMetadataFor(ig).Mode
	o := cluster.Spec.InstanceMetadataFor(ig)
	tokensPath, hopPath := path.Child("httpTokens"), path.Child("httpPutResponseHopLimit")
	var errs field.ErrorList
	switch mode {
	case kops.PodMetadataAccessBlock, kops.PodMetadataAccessForward:
		if o.TokensSet && o.HTTPTokens == kops.HTTPTokensOptional {
			errs = append(errs, field.Invalid(tokensPath, o.HTTPTokens, fmt.Sprintf(
				"contradicts spec.podMetadataAccess.mode %s of the cluster: with IMDSv1 allowed, pods could read instance metadata without a token; use required or leave it unset",
				mode)))
		}
		if o.HopLimitSet && o.HopLimit > kops.DefaultHopLimit && o.HopLimit <= maxHopLimit {
			errs = append(errs, field.Invalid(hopPath, o.HopLimit, fmt.Sprintf(
				"contradicts spec.podMetadataAccess.mode %s of the cluster: with a hop limit above 1, pods could obtain an IMDSv2 token and reach instance metadata with it; use 1 or leave it unset",
				mode)))
		}
	case kops.PodMetadataAccessAllow:
		if o.HTTPTokens == kops.HTTPTokensRequired && o.HopLimit <= kops.DefaultHopLimit {
			errs = append(errs, field.Invalid(hopPath, o.HopLimit, fmt.Sprintf(
				"contradicts spec.podMetadataAccess.mode Allow of the cluster: with IMDSv2 required and a hop limit of 1, pods could never get a token; use %d or leave it unset (mode Allow's default)",
				kops.AllowModeHopLimit)))
		}
	}
	return errs
}

func unsupportedWithSuggestion(path *field.Path, value string, supported []string) *field.Error {
	if best, d, ok := suggest.Nearest(value, supported); ok && suggest.Close(value, d) {
		return field.Invalid(path, value, fmt.Sprintf("unsupported value; did you mean %q? (supported: %s)",
			best, strings.Join(supported, ", ")))
	}
	return field.NotSupported(path, value, supported)
}
