// Package nodesetup builds what runs on a machine before kubelet: the pod metadata-access rules
// (a script and a oneshot systemd unit), carried in the launch template's user data as cloud-init
// write_files and written to the state store with the instance group's node configuration.
package nodesetup

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"strings"

	"k8s.io/kops/pkg/apis/kops"
)

// mimeBoundary is fixed so that the same inputs give the same bytes (and launch templates do not
// change on every update). UserData refuses contents that contain it.
const mimeBoundary = "KOPS-NODESETUP-BOUNDARY-7d1f2c"

// NodeFiles are the files of an instance group's node setup.
type NodeFiles struct {
	Script        []byte
	Unit          []byte
	KubeletDropIn []byte
}

// HasNodeSetup says whether an instance group's machines get the node rules: every role that runs
// kubelet, i.e. all but bastions.
func HasNodeSetup(ig *kops.InstanceGroup) bool {
	return ig.Spec.Role != kops.RoleBastion
}

// Files renders the node files of a completed cluster.
func Files(cluster *kops.Cluster) (*NodeFiles, error) {
	r, err := RulesFor(cluster)
	if err != nil {
		return nil, err
	}
	script, err := RenderScript(r)
	if err != nil {
		return nil, err
	}
	return &NodeFiles{Script: script, Unit: RenderUnit(r), KubeletDropIn: RenderKubeletDropIn()}, nil
}

// UserData returns the user data of an instance group's machines, as the launch template carries it.
// The cluster must be completed (kops.CompleteCluster). Contract for the AWS model: deterministic
// bytes for the same inputs. It is a cloud-init multipart document whose cloud-config writes the
// script and the unit and enables the unit; bastions get an empty cloud-config.
func UserData(cluster *kops.Cluster, ig *kops.InstanceGroup) ([]byte, error) {
	config := "#cloud-config\n"
	if HasNodeSetup(ig) {
		files, err := Files(cluster)
		if err != nil {
			return nil, fmt.Errorf("instance group %q: %w", ig.Name, err)
		}
		if config, err = cloudConfig(files); err != nil {
			return nil, err
		}
	}
	return multipartUserData(config)
}

// multipartUserData wraps a cloud-config in a MIME multipart document, the form in which further
// parts (the node bootstrap script, additionalUserData) join it.
func multipartUserData(config string) ([]byte, error) {
	if strings.Contains(config, mimeBoundary) {
		return nil, fmt.Errorf("user data contains the MIME boundary %q", mimeBoundary)
	}
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	if err := w.SetBoundary(mimeBoundary); err != nil {
		return nil, err
	}
	part, err := w.CreatePart(textproto.MIMEHeader{
		"Content-Type":              {`text/cloud-config; charset="us-ascii"`},
		"Content-Transfer-Encoding": {"7bit"},
		"Content-Disposition":       {`attachment; filename="kops-nodesetup.cfg"`},
	})
	if err != nil {
		return nil, err
	}
	if _, err := part.Write([]byte(config)); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "Content-Type: multipart/mixed; boundary=%q\r\nMIME-Version: 1.0\r\n\r\n", mimeBoundary)
	out.Write(body.Bytes())
	return out.Bytes(), nil
}
