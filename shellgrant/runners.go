package shellgrant

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A runner is a program that runs code by design: an interpreter, a build or
// package tool, a test runner. No grant covers the program as a whole. A grant
// covers only one of its read-only forms, each its own base: a subcommand
// ("git status", "npm ls") or a lone version flag ("python3 --version").
type runner struct {
	why     string              // what it runs, for the reason line
	version []string            // lone arguments that only print its version
	subs    map[string]subCheck // read-only subcommands, each with the check of its arguments
	global  globalCheck         // reads the options before the subcommand (nil: none allowed)
}

// subCheck returns why the arguments of a read-only subcommand ask, or "".
type subCheck func(args []string) string

// globalCheck returns where the subcommand is, or why the options before it ask.
type globalCheck func(args []string) (int, string)

// anyArgs is a subCheck for read-only subcommands no argument can turn into a write.
func anyArgs([]string) string { return "" }

// rule applies the runner to one command: its base and why it asks.
func (r runner) rule(name string, words []*syntax.Word) (string, string) {
	args, ok := staticArgs(words)
	if !ok {
		return name, "an argument to `" + name + "` is not plain text: no grant covers it with arguments decided when it runs"
	}
	if len(args) == 1 && slices.Contains(r.version, args[0]) {
		return name + " " + args[0], ""
	}
	if len(r.subs) == 0 {
		return name, "`" + name + "` " + r.why + ": no grant covers it" + r.versionNote(name)
	}
	i := 0
	if r.global != nil {
		var reason string
		if i, reason = r.global(args); reason != "" {
			return name, reason
		}
	}
	if i >= len(args) || strings.HasPrefix(args[i], "-") {
		return name, "`" + name + "` without a read-only subcommand first: a grant covers only " + r.list(name) + " (" + name + " " + r.why + ")"
	}
	check, ok := r.subs[args[i]]
	if !ok {
		return name, "`" + name + " " + shorten(args[i]) + "`: a grant covers only " + r.list(name) + " (" + name + " " + r.why + ")"
	}
	base := name + " " + args[i]
	return base, check(args[i+1:])
}

// list names the read-only forms, for the reason line: "git status, git log…".
func (r runner) list(name string) string {
	subs := make([]string, 0, len(r.subs))
	for s := range r.subs {
		subs = append(subs, name+" "+s)
	}
	slices.Sort(subs)
	if len(subs) > 6 {
		subs = append(subs[:6], "…")
	}
	return strings.Join(subs, ", ")
}

func (r runner) versionNote(name string) string {
	if len(r.version) == 0 {
		return ""
	}
	return " (except `" + name + " " + r.version[0] + "`)"
}

// runners are the programs that run code by design, by family name (a
// version suffix is dropped: python3.12 is python).
var runners = newRunners()

func newRunners() map[string]runner {
	runners := map[string]runner{}
	add := func(r runner, names ...string) {
		for _, n := range names {
			if _, dup := runners[n]; dup {
				panic("shellgrant: runner listed twice: " + n)
			}
			runners[n] = r
		}
	}
	interp := "is an interpreter: it runs a script, -c/-e code or standard input"
	add(runner{why: interp, version: []string{"--version", "-V"}}, "python", "pypy")
	add(runner{why: interp, version: []string{"--version", "-v"}}, "node", "nodejs", "perl", "php")
	add(runner{why: interp, version: []string{"-v"}}, "lua", "luajit")
	add(runner{why: interp, version: []string{"--version"}}, "ruby", "deno", "bun", "julia", "Rscript", "R",
		"guile", "racket", "sbcl", "ocaml", "groovy", "kotlin", "scala", "elixir", "iex", "gjs", "swift",
		"dotnet", "java", "pwsh")
	add(runner{why: interp}, "tclsh", "wish", "osascript", "erl", "escript", "qjs", "clisp", "jshell",
		"php-cgi", "ts-node", "tsx", "jrunscript", "jython", "crystal", "nim", "zig", "pythonw", "jruby",
		"truffleruby", "micropython", "jjs", "csi", "gsi", "utop", "runghc", "runhaskell", "octave",
		"matlab", "gnuplot", "sage", "hhvm", "dart", "coffee", "bb", "nbb", "janet", "fennel", "raku",
		"rakudo", "perl6", "powershell", "mongo", "mongosh")
	build := "is a build tool: it runs the project's build code"
	add(runner{why: build, version: []string{"--version"}}, "make", "gmake", "cmake", "ninja", "meson",
		"bazel", "bazelisk", "rake", "just", "task", "scons", "gcc", "g++", "cc", "c++", "clang", "clang++",
		"tsc", "terraform", "tofu", "pulumi", "helm", "mage", "earthly")
	add(runner{why: build + ", with a toolchain or JVM options the project picks"}, "cargo", "rustc",
		"rustup", "mvn", "mvnw", "gradle", "gradlew", "sbt", "ant", "tcc", "javac", "kotlinc", "swiftc",
		"ghc", "cabal", "stack", "dune", "opam", "mix", "lein", "clj", "clojure", "xcodebuild", "msbuild")
	tests := "runs the project's code: tests, configuration files and plugins"
	add(runner{why: tests}, "pytest", "py.test", "tox", "nox", "jest", "vitest", "mocha", "ava", "karma",
		"playwright", "cypress", "eslint", "prettier", "webpack", "vite", "rollup", "parcel", "babel",
		"mypy", "pylint", "pre-commit", "rubocop", "rspec", "phpunit", "phpstan", "golangci-lint",
		"next", "nuxt", "astro", "turbo", "nx", "lerna", "jupyter", "invoke", "fab", "flask",
		"django-admin", "uvicorn", "gunicorn", "hypercorn", "celery", "fastapi", "streamlit", "nodemon",
		"pm2", "forever", "rails", "packer")
	pkg := "is a package tool: installing runs packages' scripts"
	add(runner{why: "is a package manager the project can replace (packageManager, yarnPath, plugins)"},
		"yarn", "pnpm", "corepack", "composer", "bundle", "bundler")
	add(runner{why: pkg, version: []string{"--version"}}, "uv", "poetry", "pipenv", "pdm", "hatch", "conda",
		"mamba", "micromamba", "pixi", "rye", "nix", "mise", "asdf", "rtx", "devbox", "rbenv", "pyenv",
		"nodenv", "goenv", "volta", "fnm", "deno-install")
	add(runner{why: pkg, version: []string{"--version", "-v"}, subs: map[string]subCheck{
		"ls": npmRead, "list": npmRead, "outdated": npmRead, "view": npmRead, "info": npmRead, "show": npmRead,
	}}, "npm")
	add(runner{why: pkg, version: []string{"--version", "-V"}, subs: map[string]subCheck{
		"list": pipRead, "show": pipRead, "freeze": pipRead, "check": pipRead,
	}}, "pip")
	add(runner{why: pkg, version: []string{"--version", "-v"}, subs: map[string]subCheck{
		"list": anyArgs, "info": anyArgs, "search": anyArgs,
	}}, "brew")
	add(runner{why: pkg, version: []string{"--version"}, subs: map[string]subCheck{"list": anyArgs}}, "gem")
	add(runner{why: "is a build tool: build, test, run and generate run the project's code", subs: map[string]subCheck{
		"version": anyArgs, "env": goEnv, "list": goList, "doc": anyArgs,
	}}, "go")
	add(runner{why: "starts and installs services, which run programs", subs: map[string]subCheck{
		"status": anyArgs, "list-units": anyArgs, "list-timers": anyArgs, "list-unit-files": anyArgs,
		"is-active": anyArgs, "is-enabled": anyArgs, "is-failed": anyArgs, "show": anyArgs, "cat": anyArgs,
	}}, "systemctl")
	add(runner{why: "runs commands in containers and changes the cluster", subs: map[string]subCheck{
		"get": kubectlRead, "describe": kubectlRead, "logs": kubectlRead, "version": kubectlRead,
		"explain": kubectlRead, "api-resources": kubectlRead,
	}}, "kubectl")
	add(runner{why: "writes settings, some of them commands other programs run", subs: map[string]subCheck{
		"read": anyArgs, "read-type": anyArgs, "domains": anyArgs, "find": anyArgs,
	}}, "defaults")
	add(runner{why: "writes settings, some of them commands the desktop runs (custom shortcuts)", subs: map[string]subCheck{
		"get": anyArgs, "list-keys": anyArgs, "list-schemas": anyArgs, "list-recursively": anyArgs,
		"range": anyArgs, "describe": anyArgs, "read": anyArgs, "list": anyArgs, "dump": anyArgs,
	}}, "gsettings", "dconf")
	add(runner{why: "runs, installs and removes applications", subs: map[string]subCheck{
		"list": anyArgs, "info": anyArgs, "search": anyArgs, "find": anyArgs,
	}}, "flatpak", "snap")
	add(runner{why: "erases, partitions and mounts disks", subs: map[string]subCheck{
		"list": anyArgs, "info": anyArgs,
	}}, "diskutil")
	add(runner{why: "runs hooks, configured commands and programs given to it, and most subcommands write", subs: gitSubs,
		global: gitGlobal, version: []string{"--version"}}, "git")
	return runners
}
