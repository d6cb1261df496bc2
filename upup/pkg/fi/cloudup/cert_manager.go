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

package cloudup

import (
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/pkg/model/addons"
)

// CertManagerNotDeployed is what update says of a cluster whose metrics-server runs in kops's secure
// mode. kops deploys cert-manager for spec.certManager (unless managed: false); this build renders
// what needs it (the Certificate, the addon's Issuer) but not cert-manager itself, whose images and
// manifest it does not build. A note, not an error: the cluster is what kops accepts.
const CertManagerNotDeployed = "spec.certManager: this build does not deploy cert-manager, and metrics-server's secure mode (spec.metricsServer.insecure unset or false) needs it running on the cluster: install cert-manager there (its CRDs before `channels apply`, which creates the addon's Issuer), or set spec.metricsServer.insecure: true"

func certManagerNotDeployed(cluster *kops.Cluster, source string) []kopscodecs.Warning {
	if !cluster.Spec.MetricsServerSecure() {
		return nil
	}
	return []kopscodecs.Warning{{Source: source, Text: CertManagerNotDeployed}}
}

// operatorsKeptBuiltIn: with the operator flags, an addon whose spec asks for what its operator
// cannot run stays built in (addonapi.Operator.KeptBuiltIn); update says so once for each.
func operatorsKeptBuiltIn(cluster *kops.Cluster, flags featureflag.Set, source string) []kopscodecs.Warning {
	if !flags.Active(featureflag.UseAddonOperators) {
		return nil
	}
	var notes []kopscodecs.Warning
	for _, o := range addons.Operators() {
		if why := o.KeptBuiltIn(&cluster.Spec); why != "" {
			notes = append(notes, kopscodecs.Warning{Source: source, Text: why})
		}
	}
	return notes
}
