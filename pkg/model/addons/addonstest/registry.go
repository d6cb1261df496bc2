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

package addonstest

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/addons"
	"k8s.io/kops/pkg/operator/operatortest"
	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/fitasks"
)

// NodeLocalDNSResourceAddon is the addon holding the throwaway operator's instructions.
const NodeLocalDNSResourceAddon = "node-local-dns.addons.x-k8s.io"

const NodeLocalDNSVersion = "1.26.4"

// NodeLocalDNSOperator is the throwaway operator's registry line: data only, no hooks and no binary,
// so what kops writes for it comes from OperatorBuilder alone.
func NodeLocalDNSOperator() *addons.Operator {
	return &addons.Operator{
		Descriptor:    operatortest.NodeLocalDNS(),
		Binary:        "./cmd/node-local-dns-operator",
		ResourceAddon: NodeLocalDNSResourceAddon,
		Mode:          func(*kops.ClusterSpec) string { return kops.OperatorModeServerSide },
		Instructions: func(*model.KopsModelContext) (*addons.Instructions, error) {
			rendered, marked, params := operatortest.NodeLocalDNSRendering()
			return &addons.Instructions{Spec: map[string]string{"image": operatortest.NodeLocalDNSImage}, Version: NodeLocalDNSVersion,
				Rendered: rendered, Marked: marked, Params: params}, nil
		},
	}
}

// NodeLocalDNSPackages holds the throwaway operator's package: its Deployment.
func NodeLocalDNSPackages() map[string]*channels.Package {
	name := operatortest.NodeLocalDNS().AddonName
	return map[string]*channels.Package{name: {Name: name, Version: "0.1.0", Manifest: []byte(nodeLocalDNSOperatorPackage)}}
}

const nodeLocalDNSOperatorPackage = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: node-local-dns-operator
  namespace: node-local-dns-operator-system
spec:
  selector: {matchLabels: {k8s-app: node-local-dns-operator}}
  template:
    metadata: {labels: {k8s-app: node-local-dns-operator}}
    spec:
      serviceAccountName: node-local-dns-operator
      priorityClassName: system-cluster-critical
      nodeSelector: {kubernetes.io/os: linux}
      securityContext: {runAsNonRoot: true, runAsUser: 65532, seccompProfile: {type: RuntimeDefault}}
      containers:
      - name: manager
        image: kops-addons/node-local-dns-operator:v0.1.0
        securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}
`

// Channel is every file kops writes under addons/, by path, for a cluster with
// ClusterAddons,UseAddonOperators, registry operators and the given channel packages.
func Channel(operators []*addons.Operator, packages map[string]*channels.Package) (map[string][]byte, error) {
	flags, unknown := featureflag.Parse("ClusterAddons,UseAddonOperators")
	if len(unknown) > 0 {
		return nil, fmt.Errorf("unknown feature flags %v", unknown)
	}
	remapper, err := assets.NewRemapper(nil)
	if err != nil {
		return nil, err
	}
	cluster := kops.CompleteCluster(&kops.Cluster{ObjectMeta: metav1.ObjectMeta{Name: "registry.example.com"}}, "memfs://registry")
	ctx := &model.KopsModelContext{Cluster: cluster, FeatureFlags: flags, Assets: remapper, Packages: packages}
	c := &fi.ModelBuilderContext{}
	if err := (&addons.BootstrapChannelBuilder{Context: ctx, Builders: addons.BuildersFor(operators)}).Build(c); err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, task := range c.Tasks() {
		if f, ok := task.(*fitasks.ManagedFile); ok {
			files[f.Location] = f.Contents
		}
	}
	return files, nil
}
