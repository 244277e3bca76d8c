package main

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/wispapp/wisp/"

// pkg is what `go list -json` says of one package.
type pkg struct {
	ImportPath string
	Imports    []string // direct
	Deps       []string // every package it needs, transitively
}

// listPackages lists the module's packages with their imports.
func listPackages(t *testing.T) map[string]pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", "./...").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]pkg{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs[strings.TrimPrefix(p.ImportPath, module)] = p
	}
	return pkgs
}

// wisp is the module's own packages among paths, without the module prefix.
func wisp(paths []string) []string {
	var out []string
	for _, p := range paths {
		if rest, ok := strings.CutPrefix(p, module); ok {
			out = append(out, rest)
		}
	}
	return out
}

// TestDependencyRules holds the package rules of docs/architecture.md.
func TestDependencyRules(t *testing.T) {
	pkgs := listPackages(t)
	internalOnly := func(p string) bool { return strings.HasPrefix(p, "internal/") }
	rules := []struct {
		pkg, rule string
		may       func(dep string) bool // for every Wisp package it depends on, transitively
	}{
		{"terminal", "is a leaf: nothing of app/ or runtime/", internalOnly},
		{"emotes", "is a leaf: nothing of app/ or runtime/", internalOnly},
		{"shellgrant", "is a leaf: nothing of Wisp", func(string) bool { return false }},
		{"autostart", "is a leaf: nothing of Wisp but internal/", internalOnly},
		{"mcp", "is a leaf: nothing of app/ or runtime/", internalOnly},
		{"secrets", "is a leaf: nothing of Wisp", func(string) bool { return false }},
		{"confine", "is a leaf: nothing of Wisp but internal/", internalOnly},
		{"loginpath", "is a leaf: nothing of Wisp but internal/", internalOnly},
		{"doctext", "is a leaf: nothing of Wisp but internal/", internalOnly},
		{"mic", "is a leaf: nothing of Wisp but internal/", internalOnly},
		{"internal/pdfgen", "is a leaf: nothing of Wisp", func(string) bool { return false }},
		{"app/approval", "knows the store, the catalog, the runtime (its gate pauses a run) and internal/", func(d string) bool {
			return d == "app/store" || d == "app/wire" || strings.HasPrefix(d, "runtime") || internalOnly(d)
		}},
		{"app/store", "imports nothing of Wisp but internal/", internalOnly},
		{"app/archive", "knows the store, the catalog, view and internal/", func(d string) bool {
			return d == "app/store" || d == "app/wire" || d == "app/view" || internalOnly(d)
		}},
		{"app/wire", "the frame catalog imports nothing of Wisp but internal/", internalOnly},
		{"app/ws", "the hub knows only the frame catalog", func(d string) bool { return d == "app/wire" || internalOnly(d) }},
		{"app/settings", "knows the config, the catalog, the keyring and internal/", func(d string) bool {
			return d == "app/config" || d == "app/wire" || d == "secrets" || internalOnly(d)
		}},
		{"app/dialect", "knows the runtime's events, the catalog and internal/", func(d string) bool {
			return strings.HasPrefix(d, "runtime") || d == "app/wire" || internalOnly(d)
		}},
		{"app/compat", "translates foreign APIs to the runtime's messages: pure, nothing of app/", func(d string) bool {
			return strings.HasPrefix(d, "runtime") || internalOnly(d)
		}},
		{"app/usage", "knows the store, the config, view, the catalog, the runtime's model types and internal/", func(d string) bool {
			return d == "app/store" || d == "app/config" || d == "app/view" || d == "app/wire" || strings.HasPrefix(d, "runtime/llm") || internalOnly(d)
		}},
		{"app/memory", "knows the store, the config, the catalog, the consent wrapper, the runtime and internal/ (never chat)", func(d string) bool {
			return d == "app/store" || d == "app/config" || d == "app/wire" || d == "app/approval" || strings.HasPrefix(d, "runtime") || internalOnly(d)
		}},
		{"app/files", "knows the store, the catalog, the consent wrapper, the runtime and internal/ (never chat)", func(d string) bool {
			return d == "app/store" || d == "app/wire" || d == "app/approval" || strings.HasPrefix(d, "runtime") || internalOnly(d)
		}},
		{"app/tasks", "knows the store, view, the catalog, the consent wrapper, the runtime and internal/ (never chat: runs start through its Runner)", func(d string) bool {
			return d == "app/store" || d == "app/view" || d == "app/wire" || d == "app/approval" || strings.HasPrefix(d, "runtime") || internalOnly(d)
		}},
		{"app/attach", "knows the store, the catalog, the model's image types and internal/", func(d string) bool {
			return d == "app/store" || d == "app/wire" || d == "runtime/llm" || internalOnly(d)
		}},
		{"app/avatar", "knows the wire types and internal/", func(d string) bool {
			return d == "app/wire" || internalOnly(d)
		}},
		{"app/docs", "knows the store, doctext and internal/", func(d string) bool {
			return d == "app/store" || d == "doctext" || internalOnly(d)
		}},
		{"app/voice", "speaks to audio servers: knows the config and internal/", func(d string) bool {
			return d == "app/config" || internalOnly(d)
		}},
		{"app/web", "knows the consent wrapper, the catalog, the store (through it), the runtime, doctext and internal/ (never chat, never the config)", func(d string) bool {
			return d == "app/approval" || d == "app/wire" || d == "app/store" || d == "doctext" || strings.HasPrefix(d, "runtime") || internalOnly(d)
		}},
		{"runtime/llm/tokens", "counts tokens of the model's types: nothing of Wisp but runtime/llm", func(d string) bool { return d == "runtime/llm" }},
		{"internal/tsgen", "is a leaf: nothing of Wisp", func(string) bool { return false }},
		{"runtime/speech", "is pure: nothing of Wisp", func(string) bool { return false }},
	}
	for _, r := range rules {
		p, ok := pkgs[r.pkg]
		if !ok {
			t.Errorf("%s: no such package", r.pkg)
			continue
		}
		for _, d := range wisp(p.Deps) {
			if !r.may(d) {
				t.Errorf("%s %s, but needs %s", r.pkg, r.rule, d)
			}
		}
	}
	for name, p := range pkgs {
		if strings.HasPrefix(name, "runtime") && slices.ContainsFunc(wisp(p.Deps), func(d string) bool { return strings.HasPrefix(d, "app") }) {
			t.Errorf("%s: runtime never imports app/", name)
		}
	}
	// Domain packages return typed errors and publish frames: they know neither HTTP
	// (only the API maps errors to status codes) nor the hub.
	domain := []string{"app/chat", "app/proactive", "app/archive", "app/store", "app/config", "app/settings", "app/view", "app/wire", "app/dialect", "app/usage",
		"app/memory", "app/docs", "app/avatar", "app/approval", "app/shell", "app/mcptool", "shellgrant", "secrets", "runtime", "runtime/reply", "terminal", "emotes", "confine"}
	for _, name := range domain {
		p := pkgs[name]
		if slices.Contains(p.Imports, "net/http") {
			t.Errorf("%s: a domain package imports net/http", name)
		}
		for _, d := range wisp(p.Deps) {
			if d == "app/ws" || d == "app/api" || d == "app" {
				t.Errorf("%s: a domain package needs %s", name, d)
			}
		}
	}
	// Peers do not reach into each other: proactive does not need chat, and neither
	// do the shell and MCP actions (chat learns of pauses through run events).
	if slices.Contains(wisp(pkgs["app/proactive"].Deps), "app/chat") {
		t.Error("app/proactive needs app/chat")
	}
	for _, action := range []string{"app/shell", "app/mcptool"} {
		if slices.Contains(wisp(pkgs[action].Deps), "app/chat") {
			t.Errorf("%s needs app/chat", action)
		}
	}
}
