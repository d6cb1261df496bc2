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
	"errors"
	"fmt"
	"io/fs"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/addons/kube2iam"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model/addons"
	"k8s.io/kops/pkg/operator"
	"k8s.io/kops/util/pkg/vfs"
)

type DNSMode string

const (
	// DNSBuiltIn is Deployment coredns and Service kube-dns in kube-system.
	DNSBuiltIn DNSMode = "built-in"
	// DNSOperator is the cluster-addons CoreDNS operator, told what to run by its custom resource.
	DNSOperator DNSMode = "operator"
	DNSNone     DNSMode = "none"
)

// Addon is an addon the cluster must have recorded, as kops's channels records it.
type Addon struct {
	Name      string
	Namespace string
	ID        string
	Hash      string
}

type Expected struct {
	Cluster     string
	Channel     string
	Addons      []Addon
	DNS         DNSMode
	DNSServerIP string
	Operators   []*operator.Descriptor
	Kube2IAM    bool
	Runs        addons.Runs
	// PKI are the addons with needsPKI: each needs its cert-manager Issuer.
	PKI []string
}

// ReadExpected reads the bootstrap channel written for a completed cluster. The mode comes from the
// channel, not the caller's feature flags: validation checks what was written.
func ReadExpected(cluster *kops.Cluster, paths *vfs.Context) (*Expected, error) {
	base, err := paths.ParsePath(cluster.Spec.ConfigBase)
	if err != nil {
		return nil, fmt.Errorf("spec.configBase: %w", err)
	}
	location := base.String() + "/" + addons.BootstrapChannelLocation
	data, err := base.Join(addons.BootstrapChannelLocation).ReadFile()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no bootstrap channel at %s: write it with 'kops update cluster --name %s --yes'", location, cluster.Name)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the bootstrap channel %s: %w", location, err)
	}
	channel, err := api.ParseAddonsFile(location, data)
	if err != nil {
		return nil, err
	}
	return expectedFrom(cluster, location, channel)
}

func expectedFrom(cluster *kops.Cluster, location string, channel *api.Addons) (*Expected, error) {
	e := &Expected{Cluster: cluster.Name, Channel: location, DNS: DNSNone}
	for _, a := range channel.Spec.Addons {
		e.Addons = append(e.Addons, Addon{Name: a.Name, Namespace: a.RecordNamespace(), ID: a.ID, Hash: a.ManifestHash})
		if a.NeedsPKI {
			e.PKI = append(e.PKI, a.Name)
		}
		runs, err := addons.RunsOf(a.Name)
		if err != nil {
			return nil, err
		}
		if runs != nil {
			e.Runs.Deployments = append(e.Runs.Deployments, runs.Deployments...)
			e.Runs.APIServices = append(e.Runs.APIServices, runs.APIServices...)
		}
		if o := addons.OperatorOf(a.Name); o != nil {
			e.Operators = append(e.Operators, &o.Descriptor.Descriptor)
			if o.ClusterDNS {
				e.DNS = DNSOperator
			}
		}
		switch a.Name {
		case coredns.AddonName:
			e.DNS = DNSBuiltIn
		case kube2iam.AddonName:
			e.Kube2IAM = true
		}
	}
	if dns := cluster.Spec.KubeDNS; dns != nil {
		e.DNSServerIP = dns.ServerIP
	}
	return e, nil
}
