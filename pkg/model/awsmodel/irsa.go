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

package awsmodel

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
)

// defaultAudience is the audience of the tokens kops's pod identity webhook projects, and the
// first client ID of the OIDC provider kops makes.
const defaultAudience = "amazonaws.com"

// oidcThumbprints are the SHA-1 fingerprints kops gives its OIDC provider: those of the two root
// certificate authorities S3 serves discovery documents with.
var oidcThumbprints = []string{"9e99a48a9960b14926bb7f3b02e22da2b0ab7280", "a9d53002e97e00e043244f3d170d6f4c414104fd"}

// irsaFacts are IAM roles for service accounts as kops makes them (spec.iam and
// spec.serviceAccountIssuerDiscovery).
type irsaFacts struct {
	// components: kops's components get roles of their own, and the control plane's role loses their rights.
	components bool
	// issuer is the service-account issuer (https://host/path); empty when nothing needs it.
	issuer string
	// provider: this build makes the issuer's OIDC provider, trusting these audiences.
	provider  bool
	audiences []string
	external  []externalPermission
}

// externalPermission is one entry of spec.iam.serviceAccountExternalPermissions.
type externalPermission struct {
	path            string
	name, namespace string
	policyARNs      []string
	inline          []awstasks.Statement
}

const externalPermissionsPath = "spec.iam.serviceAccountExternalPermissions"

func readIRSA(c *kops.Cluster) (*irsaFacts, error) {
	u := c.Unmodeled
	f := &irsaFacts{}
	var err error
	if f.components, err = kopsBool(u, false, "spec", "iam", "useServiceAccountExternalPermissions"); err != nil {
		return nil, err
	}
	if f.provider, err = kopsBool(u, false, "spec", "serviceAccountIssuerDiscovery", "enableAWSOIDCProvider"); err != nil {
		return nil, err
	}
	extra, err := stringList(u, "spec", "serviceAccountIssuerDiscovery", "additionalAudiences")
	if err != nil {
		return nil, err
	}
	f.audiences = []string{defaultAudience}
	for _, a := range extra {
		if !slices.Contains(f.audiences, a) {
			f.audiences = append(f.audiences, a)
		}
	}
	entries, err := kopsList(u, "spec", "iam", "serviceAccountExternalPermissions")
	if err != nil {
		return nil, err
	}
	seen := map[string]string{}
	for i, entry := range entries {
		p, err := readExternalPermission(fmt.Sprintf("%s[%d]", externalPermissionsPath, i), entry)
		if err != nil {
			return nil, err
		}
		key := saRoleKey(p.namespace, p.name)
		if first, dup := seen[key]; dup {
			return nil, fmt.Errorf("%s: service account %s/%s is named again (first by %s); each gets one role", p.path, p.namespace, p.name, first)
		}
		seen[key] = p.path
		f.external = append(f.external, p)
	}
	if f.components || f.provider || len(f.external) > 0 {
		if f.issuer, err = readIssuer(u); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// readIssuer is kops's service-account issuer: spec.kubeAPIServer.serviceAccountIssuer, or the
// discovery store's https URL.
func readIssuer(u kops.Unmodeled) (string, error) {
	const explicitPath = "spec.kubeAPIServer.serviceAccountIssuer"
	explicit, err := kopsString(u, "spec", "kubeAPIServer", "serviceAccountIssuer")
	if err != nil {
		return "", err
	}
	if explicit != "" {
		parsed, err := url.Parse(explicit)
		if err != nil || parsed.Scheme != "https" || parsed.Host == "" || parsed.RawQuery != "" || parsed.Fragment != "" || strings.ContainsAny(explicit, "${}%\"\\") {
			return "", fmt.Errorf("%s: %q must be an https URL with no query: AWS reads the issuer's discovery documents there", explicitPath, explicit)
		}
		return strings.TrimSuffix(explicit, "/"), nil
	}
	store, err := kopsString(u, "spec", "serviceAccountIssuerDiscovery", "discoveryStore")
	if err != nil {
		return "", err
	}
	const storePath = "spec.serviceAccountIssuerDiscovery.discoveryStore"
	switch {
	case store == "":
		return "", fmt.Errorf("%s: must be set: IAM roles for service accounts trust the OIDC provider of the cluster's service-account issuer, which AWS must be able to read (kops's default issuer, the API server's internal name, it cannot)", storePath)
	case strings.HasPrefix(store, "memfs://"):
		// kops's tests' store: kops's issuer is the same path over https.
		return "https://" + strings.TrimSuffix(strings.TrimPrefix(store, "memfs://"), "/"), nil
	case strings.HasPrefix(store, "s3://"):
		return "", fmt.Errorf("%s: %q is in S3, whose https URL kops builds from the bucket's region, looked up in AWS; this build calls no cloud API, so set %s to that URL (https://<bucket>.s3.<bucket's region>.amazonaws.com/<path>, what kops put in the cluster's kube-apiserver --service-account-issuer)", storePath, store, explicitPath)
	}
	return "", fmt.Errorf("%s: %q: only s3:// stores serve discovery documents AWS can read", storePath, store)
}

func readExternalPermission(path string, entry map[string]interface{}) (externalPermission, error) {
	p := externalPermission{path: path}
	for _, k := range []struct {
		key string
		to  *string
	}{{"name", &p.name}, {"namespace", &p.namespace}} {
		s, isString := entry[k.key].(string)
		if !isString || s == "" {
			return p, fmt.Errorf("%s.%s: must be set (the service account's %s)", path, k.key, k.key)
		}
		*k.to = s
	}
	if strings.Contains(p.name, "*") {
		return p, fmt.Errorf("%s.name: %q: a service account's name cannot have a wildcard (only its namespace can)", path, p.name)
	}
	for _, k := range []struct{ key, value string }{{"name", p.name}, {"namespace", p.namespace}} {
		if strings.ContainsAny(k.value, "\"\\$%{}:") {
			return p, fmt.Errorf("%s.%s: %q is not a Kubernetes name", path, k.key, k.value)
		}
	}
	aws, isMap := entry["aws"].(map[string]interface{})
	if !isMap {
		return p, fmt.Errorf("%s.aws: must be set, with policyARNs or inlinePolicy", path)
	}
	if raw, ok := aws["policyARNs"]; ok {
		list, isList := raw.([]interface{})
		if !isList {
			return p, fmt.Errorf("%s.aws.policyARNs: must be a list of policy ARNs", path)
		}
		for i, item := range list {
			arn, isString := item.(string)
			if !isString || !isPolicyARN(arn) {
				return p, fmt.Errorf("%s.aws.policyARNs[%d]: %v is not a managed policy's ARN (arn:<partition>:iam::<account or aws>:policy/<name>)", path, i, item)
			}
			p.policyARNs = append(p.policyARNs, arn)
		}
	}
	if raw, ok := aws["inlinePolicy"]; ok {
		doc, isString := raw.(string)
		if !isString {
			return p, fmt.Errorf("%s.aws.inlinePolicy: must be a string holding a JSON list of policy statements", path)
		}
		statements, err := parseStatements(path+".aws.inlinePolicy", doc)
		if err != nil {
			return p, err
		}
		p.inline = statements
	}
	if len(p.policyARNs) == 0 && len(p.inline) == 0 {
		return p, fmt.Errorf("%s.aws: needs policyARNs or inlinePolicy: a role with no rights is of no use", path)
	}
	return p, nil
}

func isPolicyARN(s string) bool {
	parts := strings.SplitN(s, ":", 6)
	return len(parts) == 6 && parts[0] == "arn" && parts[1] != "" && parts[2] == "iam" && parts[3] == "" &&
		parts[4] != "" && strings.HasPrefix(parts[5], "policy/") && len(parts[5]) > len("policy/")
}

func stringList(u kops.Unmodeled, path ...string) ([]string, error) {
	v, ok, err := kopsField(u, path...)
	if err != nil || !ok {
		return nil, err
	}
	items, isList := v.([]interface{})
	if !isList {
		return nil, fmt.Errorf("%s: must be a list, not %T", strings.Join(path, "."), v)
	}
	var out []string
	for i, item := range items {
		s, isString := item.(string)
		if !isString || s == "" {
			return nil, fmt.Errorf("%s[%d]: must be a non-empty string, not %v", strings.Join(path, "."), i, item)
		}
		out = append(out, s)
	}
	return out, nil
}

// saRoleKey is kops's name for a service account's role outputs (kube-system-dns-controller): a
// wildcard in the namespace is spelled "wildcard".
func saRoleKey(namespace, name string) string {
	return strings.ToLower(strings.ReplaceAll(namespace+"-"+name, "*", "wildcard"))
}

// saRoleName is kops's: <name>.<namespace>.sa.<cluster>, cut to 64 characters as kops cuts it.
func saRoleName(cluster, namespace, name string) string {
	return truncateName(name+"."+strings.ReplaceAll(namespace, "*", "wildcard")+".sa."+cluster, maxIAMNameLength)
}

// serviceAccountRole is one role for one service account: kops's component or the user's entry.
type serviceAccountRole struct {
	namespace, name string
	// policy is nil for a role with no inline rights.
	policy     *awstasks.PolicyDocument
	policyARNs []string
	// what names who asked for the role, for errors.
	what string
}

// componentRoles are the roles kops gives its components with useServiceAccountExternalPermissions,
// with the rights grantsFor then leaves off the control plane (kops's bootstrap channel builder
// decides which components run; pkg/model/components/addonmanifests/*/iam.go what each may do).
func (f *clusterFacts) componentRoles() []serviceAccountRole {
	if !f.irsa.components {
		return nil
	}
	component := func(name string, grants []grant) serviceAccountRole {
		return serviceAccountRole{namespace: "kube-system", name: name, policy: policy(grants), what: "kops's " + name}
	}
	var out []serviceAccountRole
	if f.publishesDNS {
		name := "dns-controller"
		if f.externalDNS {
			name = "external-dns"
		}
		out = append(out, component(name, f.dnsController()))
	}
	out = append(out, component("aws-cloud-controller-manager", f.cloudControllerManager()))
	if f.ebsCSIDriverManaged {
		// The driver creates encrypted volumes itself, so it uses KMS as the control plane does.
		out = append(out, component("ebs-csi-controller-sa", append(f.ebsCSIDriver(), f.kms()...)))
	}
	if f.clusterAutoscaler {
		out = append(out, component("cluster-autoscaler", f.clusterAutoscalerRights()))
	}
	if f.terminationHandlerRuns {
		out = append(out, component("aws-node-termination-handler", f.terminationHandler()))
	}
	if f.loadBalancerControllerRuns {
		out = append(out, component("aws-load-balancer-controller", f.loadBalancerController()))
	}
	if f.kubeRouter {
		out = append(out, component("kube-router", []grant{f.onTagged("ec2:ModifyInstanceAttribute")}))
	}
	return out
}

func (f *clusterFacts) serviceAccountRoles() []serviceAccountRole {
	out := f.componentRoles()
	for _, p := range f.irsa.external {
		// The user's statements are written as given, in their order, as kops writes them.
		var doc *awstasks.PolicyDocument
		if len(p.inline) > 0 {
			doc = &awstasks.PolicyDocument{Version: awstasks.PolicyVersion, Statement: p.inline}
		}
		out = append(out, serviceAccountRole{namespace: p.namespace, name: p.name, policy: doc, policyARNs: p.policyARNs, what: p.path})
	}
	return out
}

// trust is kops's trust policy for a service account's role, and one condition more: the token
// must be for AWS (aud), as the tokens kops's webhook projects are.
func (f *irsaFacts) trust(namespace, name string) condition {
	hostPath := strings.TrimPrefix(f.issuer, "https://")
	op := "StringEquals"
	if strings.Contains(namespace, "*") {
		op = "StringLike"
	}
	c := condition{op: {hostPath + ":sub": {"system:serviceaccount:" + namespace + ":" + name}}}
	if c["StringEquals"] == nil {
		c["StringEquals"] = map[string][]string{}
	}
	c["StringEquals"][hostPath+":aud"] = []string{defaultAudience}
	return c
}
