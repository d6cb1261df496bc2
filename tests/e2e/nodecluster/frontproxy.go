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

package nodecluster

// Aggregated API servers (metrics-server's metrics.k8s.io): the API server proxies their requests
// with a client certificate of a CA of its own, the front-proxy CA, and names the user in request
// headers. An aggregated server trusts those headers only from a certificate that CA signed and
// that bears an allowed name, both of which it reads from ConfigMap
// kube-system/extension-apiserver-authentication, where the API server publishes its flags. A CA
// apart from the cluster's, as kops and kubeadm make it: no client certificate of the cluster's CA
// can then pass for the proxy and name any user it likes.

// frontProxyClientName is the proxy's certificate's CN, the one name --requestheader-allowed-names
// admits.
const frontProxyClientName = "front-proxy-client"

// writeFrontProxyPKI makes the front-proxy CA and the API server's proxy client certificate in dir.
func writeFrontProxyPKI(dir string) (caPath, clientPath, clientKeyPath string, err error) {
	ca, err := newCA("kops-node-front-proxy-ca")
	if err != nil {
		return "", "", "", err
	}
	if caPath, _, err = ca.write(dir, "front-proxy-ca"); err != nil {
		return "", "", "", err
	}
	client, err := ca.clientCert(frontProxyClientName)
	if err != nil {
		return "", "", "", err
	}
	clientPath, clientKeyPath, err = client.write(dir, "front-proxy-client")
	return caPath, clientPath, clientKeyPath, err
}

// aggregationArgs are kube-apiserver's flags for aggregated API servers. No
// --enable-aggregator-routing: the API server runs in the node's network namespace, where
// kube-proxy's rules take an APIService's Service address to its pods, as they do a pod's
// request.
func aggregationArgs(c certs) []string {
	return []string{
		"--requestheader-client-ca-file=" + c.frontProxyCA,
		"--requestheader-allowed-names=" + frontProxyClientName,
		"--requestheader-username-headers=X-Remote-User",
		"--requestheader-group-headers=X-Remote-Group",
		"--requestheader-extra-headers-prefix=X-Remote-Extra-",
		"--proxy-client-cert-file=" + c.frontProxyClient,
		"--proxy-client-key-file=" + c.frontProxyClientKey,
	}
}
