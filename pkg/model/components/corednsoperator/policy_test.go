package corednsoperator

import (
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"sigs.k8s.io/yaml"
)

// evaluate runs a policy expression the way the API server does, with object and request bound.
func evaluate(t *testing.T, expression string, request, object map[string]interface{}) bool {
	t.Helper()
	env, err := cel.NewEnv(cel.Variable("object", cel.DynType), cel.Variable("request", cel.DynType))
	require.NoError(t, err)
	ast, issues := env.Compile(expression)
	require.NoError(t, issues.Err(), expression)
	program, err := env.Program(ast)
	require.NoError(t, err)
	out, _, err := program.Eval(map[string]interface{}{"object": object, "request": request})
	require.NoError(t, err, expression)
	allowed, ok := out.Value().(bool)
	require.True(t, ok, "%s evaluates to %T", expression, out.Value())
	return allowed
}

func deployment(name string, podSpec string) map[string]interface{} {
	var spec map[string]interface{}
	if err := yaml.Unmarshal([]byte(podSpec), &spec); err != nil {
		panic(err)
	}
	return map[string]interface{}{
		"metadata": map[string]interface{}{"name": name, "namespace": "kube-system"},
		"spec":     map[string]interface{}{"template": map[string]interface{}{"spec": spec}},
	}
}

func TestPolicyAdmits(t *testing.T) {
	policy := PolicyObjects()[0].(*admissionregistrationv1.ValidatingAdmissionPolicy)
	good := "serviceAccountName: coredns\ncontainers:\n- name: coredns\n  image: c\n  securityContext: {allowPrivilegeEscalation: false}\nvolumes:\n- name: config\n  configMap: {name: coredns}\n"
	cases := []struct {
		name     string
		resource string
		object   map[string]interface{}
		allowed  bool
	}{
		{"the CoreDNS Deployment", "deployments", deployment("coredns", good), true},
		{"another Deployment", "deployments", deployment("evil", good), false},
		{"another service account", "deployments", deployment("coredns", "serviceAccountName: generic-garbage-collector\ncontainers: [{name: c, image: c}]\n"), false},
		{"the default service account", "deployments", deployment("coredns", "containers: [{name: c, image: c}]\n"), false},
		{"host network", "deployments", deployment("coredns", "serviceAccountName: coredns\nhostNetwork: true\ncontainers: [{name: c, image: c}]\n"), false},
		{"host PID", "deployments", deployment("coredns", "serviceAccountName: coredns\nhostPID: true\ncontainers: [{name: c, image: c}]\n"), false},
		{"host path", "deployments", deployment("coredns", "serviceAccountName: coredns\ncontainers: [{name: c, image: c}]\nvolumes: [{name: root, hostPath: {path: /}}]\n"), false},
		{"privileged", "deployments", deployment("coredns", "serviceAccountName: coredns\ncontainers: [{name: c, image: c, securityContext: {privileged: true}}]\n"), false},
		{"the kube-dns Service", "services", map[string]interface{}{"metadata": map[string]interface{}{"name": "kube-dns"}}, true},
		{"another Service", "services", map[string]interface{}{"metadata": map[string]interface{}{"name": "kube-dns2"}}, false},
		{"the Corefile ConfigMap", "configmaps", map[string]interface{}{"metadata": map[string]interface{}{"name": "coredns"}}, true},
		{"another ConfigMap", "configmaps", map[string]interface{}{"metadata": map[string]interface{}{"name": "kube-proxy"}}, false},
		{"another ServiceAccount", "serviceaccounts", map[string]interface{}{"metadata": map[string]interface{}{"name": "admin"}}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			request := map[string]interface{}{
				"resource": map[string]interface{}{"resource": tc.resource},
				"userInfo": map[string]interface{}{"username": Username},
			}
			require.True(t, evaluate(t, policy.Spec.MatchConditions[0].Expression, request, tc.object), "the policy applies to the operator")
			allowed := true
			for _, v := range policy.Spec.Validations {
				allowed = allowed && evaluate(t, v.Expression, request, tc.object)
			}
			assert.Equal(t, tc.allowed, allowed)
		})
	}
}

func TestPolicyAppliesToOperatorOnly(t *testing.T) {
	policy := PolicyObjects()[0].(*admissionregistrationv1.ValidatingAdmissionPolicy)
	for user, want := range map[string]bool{
		Username: true,
		"system:serviceaccount:kube-system:deployment-controller": false,
		"kubernetes-admin": false,
	} {
		request := map[string]interface{}{"userInfo": map[string]interface{}{"username": user}}
		assert.Equal(t, want, evaluate(t, policy.Spec.MatchConditions[0].Expression, request, nil), user)
	}
	binding := PolicyObjects()[1].(*admissionregistrationv1.ValidatingAdmissionPolicyBinding)
	assert.Equal(t, PolicyName, binding.Spec.PolicyName)
	assert.Equal(t, []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny}, binding.Spec.ValidationActions)
}
