package corednsoperator

// ProbeConfigMap names the object of the enforcement probe. The operator manages no ConfigMap of
// this name, so the admission policy must deny the operator creating it; channels sends that
// request (as a dry run) until it is denied, before it grants the operator any right.
const ProbeConfigMap = "coredns-operator-enforcement-probe"

// ProbeObject is the object channels asks the API server to create, as the operator, to prove the
// admission policy enforced.
func ProbeObject() map[string]interface{} {
	return map[string]interface{}{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata":   map[string]interface{}{"name": ProbeConfigMap, "namespace": WatchNamespace},
	}
}
