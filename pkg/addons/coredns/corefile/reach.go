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

package corefile

import (
	"cmp"
	"fmt"
	"net"
	"slices"
	"strings"
)

// The reach table. CoreDNS's token lists and watches every pod, Service, EndpointSlice and
// namespace, so a Corefile must not read the pod's files (only kubelet's /etc/resolv.conf and
// /etc/hosts) or environment, authenticate with the pod's token or the node's cloud identity to an
// endpoint it names, run a program, serve the process's internals, or hand out in bulk what the
// token reads. Sending queries, spans or DNS messages to named endpoints is allowed: none carries
// a credential the pod holds (secrets written in the Corefile are its own).

// Problem is one use of a plugin, option or word that the reach table refuses.
type Problem struct {
	Line int
	// Plugin is empty for an import or a word outside any rule.
	Plugin string
	// What is empty when the plugin itself is refused.
	What   string
	Reason string
}

func (p Problem) String() string {
	switch {
	case p.Plugin == "":
		return fmt.Sprintf("line %d: %s: %s", p.Line, p.What, p.Reason)
	case p.What == "":
		return fmt.Sprintf("line %d: plugin %q: %s", p.Line, p.Plugin, p.Reason)
	default:
		return fmt.Sprintf("line %d: plugin %q, %s: %s", p.Line, p.Plugin, p.What, p.Reason)
	}
}

type plugin struct {
	name string
	// refused, when set, refuses the plugin whatever it is given.
	refused string
	// allowed says why what is not refused is harmless.
	allowed string
	options []option
	args    *argRule
}

// option is refused wherever its name appears among the plugin's words (any case), not only first
// on a line: some plugins take the rest of a line as the next option.
type option struct {
	name string
	// withArgs refuses the option only when it has arguments (forward's plain "tls" is fine).
	withArgs bool
	reason   string
}

type argRule struct {
	allowedDoc, refusedDoc string
	reason                 string
	bad                    func(args []*Token) []*Token
}

const (
	resolvConf = "/etc/resolv.conf"
	etcHosts   = "/etc/hosts"
)

const coreOnly = "works on queries, answers and the Corefile alone: reads no file, opens no connection"

// plugins is CoreDNS 1.14's standard build (plugin.cfg of v1.14.0 to v1.14.7), every plugin decided.
var plugins = []plugin{
	{name: "acl", allowed: coreOnly},
	{name: "any", allowed: coreOnly},
	{name: "auto", refused: "loads every zone file of the directory it names: any directory the pod can read, served as DNS"},
	{name: "autopath", allowed: "answers with the search path of the `kubernetes` plugin (`@kubernetes`) or of the pod's own resolv.conf",
		args: &argRule{
			allowedDoc: "RESOLV-CONF `@PLUGIN` or `" + resolvConf + "`",
			refusedDoc: "RESOLV-CONF any other file",
			reason:     "reads the file it names as a resolv.conf",
			bad: func(args []*Token) []*Token {
				if len(args) == 0 {
					return nil
				}
				last := args[len(args)-1]
				if strings.HasPrefix(last.Text, "@") || last.Text == resolvConf {
					return nil
				}
				return []*Token{last}
			},
		}},
	{name: "azure", refused: "without a client secret in the Corefile it authenticates as the node's managed identity (instance metadata) and serves what that identity reads"},
	{name: "bind", allowed: "chooses which of the pod's addresses CoreDNS listens on"},
	{name: "bufsize", allowed: coreOnly},
	{name: "cache", allowed: coreOnly},
	{name: "cancel", allowed: coreOnly},
	{name: "chaos", allowed: "answers `version.bind` and the like with the text the Corefile gives"},
	{name: "clouddns", refused: "reads a credentials file (`credentials FILE`) or, without one, authenticates as the node's service account (instance metadata)"},
	{name: "debug", allowed: "writes more to the pod's own log; reads nothing"},
	{name: "dns64", allowed: coreOnly},
	{name: "dnssec", refused: "signs with keys read from files (`key file`) or from AWS Secrets Manager with the node's AWS credentials (`key aws_secretsmanager`), and cannot run without one"},
	{name: "dnstap", allowed: "sends DNS messages to the `tcp://` or `tls://` endpoint it names, as `forward` sends queries; no credential",
		args: &argRule{
			allowedDoc: "ENDPOINT `tcp://...` or `tls://...`",
			refusedDoc: "ENDPOINT a socket path (`unix://PATH` or a bare path)",
			reason:     "connects to a socket file on the pod's filesystem",
			bad: func(args []*Token) []*Token {
				if len(args) == 0 || strings.HasPrefix(args[0].Text, "tcp://") || strings.HasPrefix(args[0].Text, "tls://") {
					return nil
				}
				return args[:1]
			},
		}},
	{name: "erratic", allowed: coreOnly},
	{name: "errors", allowed: "writes errors to the pod's own log"},
	{name: "etcd", allowed: "answers from the etcd endpoints it names, with the user and password written in the Corefile; no credential of the pod",
		options: []option{{name: "tls", withArgs: true,
			reason: "reads the certificate, key and CA files it names and presents the key to the endpoint"}}},
	{name: "file", refused: "reads the zone file it names (any file the pod can read) and serves it"},
	forwarder("forward"),
	{name: "geoip", refused: "reads the database file it names"},
	forwarder("grpc"),
	{name: "grpc_server", allowed: "settings of CoreDNS's own gRPC listener"},
	{name: "header", allowed: coreOnly},
	{name: "health", allowed: "serves `/health` on the address given (kops: `:8080`): says OK, nothing more"},
	{name: "hosts", allowed: "answers from entries written in its block and from the pod's own hosts file, which kubelet writes",
		args: &argRule{
			allowedDoc: "FILE omitted or `" + etcHosts + "`",
			refusedDoc: "FILE any other file",
			reason:     "reads the file it names and serves its lines as host entries",
			bad: func(args []*Token) []*Token {
				if len(args) == 0 || args[0].Text == etcHosts {
					return nil
				}
				return args[:1]
			},
		}},
	{name: "https", allowed: "settings of CoreDNS's own DNS-over-HTTPS listener"},
	{name: "https3", allowed: "settings of CoreDNS's own DNS-over-HTTP/3 listener"},
	{name: "k8s_external", allowed: "answers with Services' external addresses, from what `kubernetes` already reads"},
	{name: "kubernetes", allowed: "reads the cluster's own API server in-cluster, with the pod's own token and the rights kops grants it",
		options: []option{
			{name: "endpoint", reason: "connects to another API server, which then answers for the cluster's names (and, with `tls`, receives a client key)"},
			{name: "kubeconfig", reason: "reads a kubeconfig file: its server may be anywhere and its `tokenFile` the pod's own token, which is then sent there"},
			{name: "tls", reason: "names certificate, key and CA files that, with `endpoint`, CoreDNS reads and presents to that API server; in-cluster it is ignored, so it has no use here"},
		}},
	{name: "loadbalance", allowed: "reorders the addresses of an answer (`round_robin`, `prefer`)",
		options: []option{{name: "weighted", reason: "reads the weight file it names, again and again"}}},
	{name: "local", allowed: coreOnly},
	{name: "log", allowed: "writes queries to the pod's own log"},
	{name: "loop", allowed: "sends one query to itself to detect a forwarding loop"},
	{name: "metadata", allowed: coreOnly},
	{name: "minimal", allowed: coreOnly},
	{name: "multisocket", allowed: "settings of CoreDNS's own listeners"},
	{name: "nomad", allowed: "answers from the Nomad address it names, with the token written in the Corefile; no credential of the pod"},
	{name: "nsid", allowed: "answers with the text given or the pod's host name"},
	{name: "on", refused: "runs a command (any program of the image, with the pod's token at hand) when CoreDNS starts, restarts or stops"},
	{name: "pprof", refused: "serves the profiles and goroutine stacks of the process that holds the token, on a port the Deployment does not declare"},
	{name: "prometheus", allowed: "serves CoreDNS's metrics on the address given (kops: `:9153`)"},
	{name: "proxyproto", allowed: "settings of CoreDNS's own listeners"},
	{name: "quic", allowed: "settings of CoreDNS's own DNS-over-QUIC listener"},
	{name: "ready", allowed: "serves `/ready` on the address given (kops: `:8181`): says which plugins are ready"},
	{name: "reload", allowed: "re-reads the Corefile CoreDNS was started with, and nothing else"},
	{name: "rewrite", allowed: coreOnly},
	{name: "root", allowed: "sets the directory relative paths are read from; every path still allowed here is absolute"},
	{name: "route53", refused: "without keys in the Corefile it uses the AWS credentials the pod can reach (the node's role through instance metadata, `credentials` files), and it signs requests to any `aws_endpoint`"},
	{name: "secondary", allowed: "transfers zones in from the addresses it names; sends no credential"},
	{name: "shed", allowed: coreOnly},
	{name: "sign", refused: "reads a zone file and key files and writes signed zones to a directory"},
	{name: "template", allowed: coreOnly},
	{name: "timeouts", allowed: "settings of CoreDNS's own listeners"},
	{name: "tls", refused: "reads the certificate and key files it names"},
	{name: "trace", allowed: "sends query names and timings to the endpoint it names, as `forward` sends the queries; no credential"},
	{name: "transfer", refused: "hands out whole zones on request: for `kubernetes`, every Service and endpoint the pod's token lists, to the addresses given (`*` is anyone)"},
	{name: "tsig", allowed: "checks and signs with the key written in the Corefile (`secret NAME KEY`)",
		options: []option{{name: "secrets", reason: "reads keys from the file it names"}}},
	{name: "view", allowed: coreOnly},
	{name: "whoami", allowed: coreOnly},
}

// forwarder is the rule of forward and grpc, which share their syntax.
func forwarder(name string) plugin {
	return plugin{
		name:    name,
		allowed: "sends queries to the upstream addresses it names: that is its job, and it sends no credential",
		options: []option{{name: "tls", withArgs: true,
			reason: "reads the certificate, key and CA files it names and presents the key upstream (`tls` alone, with the system's CAs, and `tls_servername` are allowed)"}},
		args: &argRule{
			allowedDoc: "TO an IP address or IP:port, plain or `tls://` (`tls://9.9.9.9%dns.quad9.net`), or `" + resolvConf + "`",
			refusedDoc: "TO anything else: a file, a host name, `unix://`",
			reason:     "an upstream that is not an IP address is a file CoreDNS reads as a resolv.conf, or a local socket",
			bad: func(args []*Token) []*Token {
				var bad []*Token
				for _, a := range args[min(1, len(args)):] { // args[0] is FROM, the zone
					if a.Text != resolvConf && !isNetworkUpstream(a.Text) {
						bad = append(bad, a)
					}
				}
				return bad
			},
		},
	}
}

// isNetworkUpstream says whether CoreDNS takes s as an address rather than a file, as CoreDNS's
// parse.HostPortOrFile decides.
func isNetworkUpstream(s string) bool {
	for _, scheme := range []string{"tls://", "dns://", "quic://", "grpc://", "https3://", "https://"} {
		if rest, ok := strings.CutPrefix(s, scheme); ok {
			s = rest
			break
		}
	}
	host, _, err := net.SplitHostPort(s)
	if err != nil {
		host = strings.Trim(s, "[]")
	}
	if i := strings.LastIndexByte(host, '%'); i >= 0 {
		host = host[:i]
	}
	return net.ParseIP(host) != nil
}

var pluginsByName = func() map[string]*plugin {
	m := make(map[string]*plugin, len(plugins))
	for i := range plugins {
		m[plugins[i].name] = &plugins[i]
	}
	return m
}()

const (
	fileImportReason = "CoreDNS reads every file the name or glob matches as more Corefile: the pod's token, or any file of the image"
	environReason    = "CoreDNS replaces {$NAME} and {%NAME%} by its own environment variables: a Corefile could copy the pod's environment into answers (`chaos`, `template`) or into addresses it sends to"
	unknownReason    = "not a plugin of CoreDNS 1.14's standard build (an image of your own may add some): kops cannot tell what it reaches"
	layoutReason     = "write it as CoreDNS documents it: arguments on the plugin's line, '{' last on that line, one option per line, '}' alone on the last line, no nested braces; otherwise the plugin may read a word as an option or argument where this check does not"
)

// Check returns, in file order, every use of a plugin, option, argument or word the reach table
// refuses. err is a Corefile CoreDNS could not load (or too large to expand); the problems found
// before it are still returned.
func Check(src string) ([]Problem, error) {
	tokens, err := Lex(src)
	if err != nil {
		return nil, err
	}
	c := checker{seen: map[seenKey]bool{}}
	for i := range tokens {
		if t := &tokens[i]; strings.Contains(t.Text, "{$") || strings.Contains(t.Text, "{%") {
			c.add(t, "", fmt.Sprintf("word %q", t.Text), environReason)
		}
	}
	file, err := Parse(tokens)
	for _, imp := range file.Imports {
		if !imp.Snippet {
			c.add(imp.Arg, "", fmt.Sprintf("import %q", imp.Arg.Text), fileImportReason)
		}
	}
	for _, b := range file.Blocks {
		for _, d := range b.Directives {
			c.directive(d)
		}
	}
	slices.SortStableFunc(c.problems, func(a, b Problem) int { return cmp.Compare(a.Line, b.Line) })
	return c.problems, err
}

type checker struct {
	problems []Problem
	seen     map[seenKey]bool
}

// seenKey reports each word once per reason, however often snippets repeat it.
type seenKey struct {
	t      *Token
	plugin string
	what   string
}

func (c *checker) add(t *Token, pluginName, what, reason string) {
	k := seenKey{t, pluginName, what}
	if c.seen[k] {
		return
	}
	c.seen[k] = true
	c.problems = append(c.problems, Problem{Line: t.Line, Plugin: pluginName, What: what, Reason: reason})
}

func (c *checker) directive(d Directive) {
	name := d.Name.Text
	p, ok := pluginsByName[name]
	switch {
	case !ok:
		c.add(d.Name, name, "", unknownReason)
		return
	case p.refused != "":
		c.add(d.Name, name, "", p.refused)
		return
	case len(p.options) == 0 && p.args == nil:
		return
	}
	lines := splitLines(d)
	for i, w := range d.Words {
		for _, o := range p.options {
			if strings.EqualFold(w.Text, o.name) && (!o.withArgs || len(argsAfter(d.Words, i)) > 0) {
				c.add(w, name, fmt.Sprintf("option %q", w.Text), o.reason)
			}
		}
	}
	if !canonical(lines) {
		c.add(d.Name, name, "layout", layoutReason)
	}
	if p.args != nil {
		first := lines[0][1:]
		if i := slices.IndexFunc(first, func(t *Token) bool { return t.Text == "{" }); i >= 0 {
			first = first[:i]
		}
		for _, a := range p.args.bad(first) {
			c.add(a, name, fmt.Sprintf("argument %q", a.Text), p.args.reason)
		}
	}
}

// sameLine says whether b follows a on its line, as CoreDNS's plugins see words.
func sameLine(a, b *Token) bool { return a.Line+a.breaks() == b.Line }

// splitLines cuts a directive into the lines its plugin reads, the name's first.
func splitLines(d Directive) [][]*Token {
	lines := [][]*Token{{d.Name}}
	prev := d.Name
	for _, w := range d.Words {
		if sameLine(prev, w) {
			lines[len(lines)-1] = append(lines[len(lines)-1], w)
		} else {
			lines = append(lines, []*Token{w})
		}
		prev = w
	}
	return lines
}

// argsAfter returns an option's arguments: the words after words[i] on its line, up to a '{'.
func argsAfter(words []*Token, i int) []*Token {
	end := i + 1
	for end < len(words) && sameLine(words[end-1], words[end]) && words[end].Text != "{" {
		end++
	}
	return words[i+1 : end]
}

// canonical says whether a directive is laid out as CoreDNS documents it (see layoutReason).
func canonical(lines [][]*Token) bool {
	head := lines[0]
	for _, w := range head[:len(head)-1] {
		if w.Text == "{" || w.Text == "}" {
			return false
		}
	}
	last := head[len(head)-1].Text
	if last == "}" {
		return false
	}
	if last != "{" {
		return len(lines) == 1
	}
	if len(lines) < 2 {
		return false
	}
	end := lines[len(lines)-1]
	if len(end) != 1 || end[0].Text != "}" {
		return false
	}
	for _, line := range lines[1 : len(lines)-1] {
		for _, w := range line {
			if w.Text == "{" || w.Text == "}" {
				return false
			}
		}
	}
	return true
}
