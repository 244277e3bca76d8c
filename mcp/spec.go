package mcp

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode"
)

// Spec is one server as wisp.json declares it, in the notation Claude Desktop,
// Cursor and LM Studio use: a command to run (stdio) or a URL (Streamable HTTP).
type Spec struct {
	Command  string
	Args     []string
	Env      map[string]string
	Cwd      string
	URL      string
	Headers  map[string]string
	Disabled bool
}

// Transport kinds.
const (
	Stdio = "stdio"
	HTTP  = "http"
)

// Transport is "stdio" for a command, "http" for a URL.
func (s Spec) Transport() string {
	if s.URL != "" {
		return HTTP
	}
	return Stdio
}

// Equal reports whether two specs start the same server.
func (s Spec) Equal(o Spec) bool {
	return s.Command == o.Command && slices.Equal(s.Args, o.Args) && mapsEqual(s.Env, o.Env) &&
		s.Cwd == o.Cwd && s.URL == o.URL && mapsEqual(s.Headers, o.Headers) && s.Disabled == o.Disabled
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// MaxNameLen bounds a server's name.
const MaxNameLen = 64

// CheckName says what is wrong with a server's name, or nil.
func CheckName(name string) error {
	switch {
	case name == "":
		return errors.New("a server needs a name")
	case len(name) > MaxNameLen:
		return fmt.Errorf("server name %.20q… is longer than %d bytes", name, MaxNameLen)
	case strings.IndexFunc(name, func(r rune) bool { return unicode.IsControl(r) || r == '/' }) >= 0:
		return fmt.Errorf("server name %q has a slash or a control character", name)
	}
	return nil
}

// Check says what is wrong with a spec, or nil.
func (s Spec) Check(name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	switch {
	case s.Command == "" && s.URL == "":
		return fmt.Errorf("MCP server %s: give a command (stdio) or a url (Streamable HTTP)", name)
	case s.Command != "" && s.URL != "":
		return fmt.Errorf("MCP server %s: give a command or a url, not both", name)
	case s.URL != "":
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("MCP server %s: url must be an http:// or https:// address", name)
		}
		if len(s.Args) > 0 || len(s.Env) > 0 || s.Cwd != "" {
			return fmt.Errorf("MCP server %s: args, env and cwd are for a command, not a url", name)
		}
	default:
		if len(s.Headers) > 0 {
			return fmt.Errorf("MCP server %s: headers are for a url, not a command", name)
		}
		if strings.ContainsRune(s.Command, 0) {
			return fmt.Errorf("MCP server %s: command must be text", name)
		}
	}
	for k := range s.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return fmt.Errorf("MCP server %s: env name %q is not a variable name", name, k)
		}
	}
	for k, v := range s.Headers {
		if k == "" || strings.ContainsAny(k, " :\r\n\x00") || strings.ContainsAny(v, "\r\n\x00") {
			return fmt.Errorf("MCP server %s: header %q is not a valid header", name, k)
		}
	}
	return nil
}
