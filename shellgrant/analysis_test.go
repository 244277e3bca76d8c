package shellgrant

import (
	"slices"
	"strings"
	"testing"
)

func grant(bases ...string) func(string) bool {
	return func(b string) bool { return slices.Contains(bases, b) }
}

func init() { tables["core"] = coreCases }

// coreCases are the first rules: lists, nesting, command words, builtins,
// programs, variables, redirections.
var coreCases = []tcase{
	// Lists, pipes and nesting.
	{"git status && rm -rf x", []string{"git status", "rm"}, false, []string{"git"}, false},
	{"git status && rm -rf x", []string{"git status", "rm"}, false, []string{"git status", "rm"}, true},
	{"printf 'hi\\n'", []string{"printf"}, false, []string{"printf"}, true},
	{"printf x; rm -f y", []string{"printf", "rm"}, false, []string{"printf"}, false},
	{"ls | grep go || echo none", []string{"ls", "grep", "echo"}, false, []string{"ls", "grep", "echo"}, true},
	{"(cd src && ls)", []string{"cd", "ls"}, false, []string{"cd", "ls"}, true},
	{"(cd src && rm x)", []string{"cd", "rm"}, false, []string{"cd"}, false},
	{"{ ls; rm x; }", []string{"ls", "rm"}, false, []string{"ls"}, false},
	{"diff <(ls a) <(rm x)", []string{"diff", "ls", "rm"}, false, []string{"diff", "ls"}, false},
	{"cat >(rm x)", []string{"cat", "rm"}, false, []string{"cat"}, false},
	{"if test -f go.mod; then rm x; fi", []string{"test", "rm"}, false, []string{"test"}, false},
	{"if [ -f go.mod ]; then go test ./...; fi", []string{"[", "go"}, true, []string{"[", "go"}, false},
	{"for f in a b; do rm $f; done", []string{"rm"}, false, []string{"echo"}, false},
	{"for f in a b; do echo $f; done", []string{"echo"}, false, []string{"echo"}, true},
	{"while true; do rm x; done", []string{"true", "rm"}, false, []string{"true"}, false},
	{"case $x in a) rm x;; esac", []string{"rm"}, false, nil, false},
	{"echo $(rm x)", []string{"echo", "rm"}, false, []string{"echo"}, false},
	{"echo `rm x`", []string{"echo", "rm"}, false, []string{"echo"}, false},
	{"echo \"$(date) `whoami`\"", []string{"echo", "date", "whoami"}, false, []string{"echo", "date", "whoami"}, true},
	{"x=$(rm y)", []string{"rm"}, false, []string{"rm"}, true},
	{"cat <<EOF\nhello $(rm x)\nEOF", []string{"cat", "rm"}, false, []string{"cat"}, false},
	{"cat <<EOF\nhello world\nEOF", []string{"cat"}, false, []string{"cat"}, true},
	{"cat <<'EOF'\nhello $(rm x)\nEOF", []string{"cat"}, false, []string{"cat"}, true},
	{"grep x <<< \"$(rm y)\"", []string{"grep", "rm"}, false, []string{"grep"}, false},
	{"sort < in.txt", []string{"sort"}, false, []string{"sort"}, true},
	{"ls > \"$(rm x)\"", []string{"ls", "rm"}, true, []string{"ls", "rm"}, false},
	{"echo $((1 + $(rm x)))", []string{"echo", "rm"}, true, []string{"echo", "rm"}, false},
	{"'ls' -la", []string{"ls"}, false, []string{"ls"}, true},
	{"\\ls -la", []string{"ls"}, false, []string{"ls"}, true},
	{"l\"s\" -la", []string{"ls"}, false, []string{"ls"}, true},
	{"time ls", []string{"ls"}, false, []string{"ls"}, true},
	{"! ls", []string{"ls"}, false, []string{"ls"}, true},
	{"ls &", []string{"ls"}, false, []string{"ls"}, true},
	{"x=1", nil, false, nil, false},
	{"[[ -f go.mod ]]", nil, false, nil, false},

	// The command word.
	{"$(rm x)", []string{"rm"}, true, []string{"rm"}, false},
	{"`rm x`", []string{"rm"}, true, []string{"rm"}, false},
	{"a=rm; $a x", nil, true, []string{"rm"}, false},
	{"\"$cmd\" x", nil, true, nil, false},
	{"l* x", nil, true, []string{"ls"}, false},
	{"{ls,-la}", nil, true, []string{"ls"}, false},
	{"$'ls'", nil, true, []string{"ls"}, false},
	{"~/bin/ls", nil, true, []string{"ls"}, false},
	{"/bin/ls", []string{"/bin/ls"}, true, []string{"ls", "/bin/ls"}, false},
	{"./git status", []string{"./git"}, true, []string{"git", "./git"}, false},
	{"''", []string{""}, true, nil, false},
	{"f() { rm x; }; f", []string{"rm", "f"}, true, []string{"rm", "f"}, false},
	{"function ls { rm x; }", []string{"rm"}, true, []string{"rm"}, false},

	// Builtins that run code.
	{"eval ls", []string{"eval"}, true, []string{"eval"}, false},
	{". ./x", []string{"."}, true, []string{"."}, false},
	{"source x.sh", []string{"source"}, true, []string{"source"}, false},
	{"exec ls", []string{"exec"}, true, []string{"exec"}, false},
	{"command ls", []string{"command"}, true, []string{"command"}, false},
	{"builtin echo", []string{"builtin"}, true, []string{"builtin"}, false},
	{"trap 'rm x' EXIT", []string{"trap"}, true, []string{"trap"}, false},
	{"alias ls='rm -rf'", []string{"alias"}, true, []string{"alias"}, false},
	{"enable -f x.so ls", []string{"enable"}, true, []string{"enable"}, false},
	{"hash -p /tmp/x ls; ls", []string{"hash", "ls"}, true, []string{"hash", "ls"}, false},
	{"mapfile -C 'rm x' -c 1 arr < f", []string{"mapfile"}, true, []string{"mapfile"}, false},
	{"compgen -C 'rm x' w", []string{"compgen"}, true, []string{"compgen"}, false},

	// Privilege, shells, interpreters, runners.
	{"sudo ls", []string{"sudo"}, true, []string{"sudo", "ls"}, false},
	{"doas rm x", []string{"doas"}, true, []string{"doas"}, false},
	{"bash -c 'rm x'", []string{"bash"}, true, []string{"bash"}, false},
	{"sh script.sh", []string{"sh"}, true, []string{"sh"}, false},
	{"curl -s https://x | sh", []string{"curl", "sh"}, true, []string{"curl", "sh"}, false},
	{"python3 -c 'import os'", []string{"python3"}, true, []string{"python3"}, false},
	{"python3 -Ic 'import os'", []string{"python3"}, true, []string{"python3"}, false},
	{"python3.12 -m http.server", []string{"python3.12"}, true, []string{"python3.12"}, false},
	{"echo 'import os' | python3", []string{"echo", "python3"}, true, []string{"echo", "python3"}, false},
	{"python3 - < x.py", []string{"python3"}, true, []string{"python3"}, false},
	{"python3 script.py -c x", []string{"python3"}, true, []string{"python3"}, false},
	{"python3 --version", []string{"python3 --version"}, false, []string{"python3 --version"}, true},
	{"node -e 'require(\"fs\")'", []string{"node"}, true, []string{"node"}, false},
	{"node --require ./x.js app.js", []string{"node"}, true, []string{"node"}, false},
	{"node app.js", []string{"node"}, true, []string{"node"}, false},
	{"perl -ne 'print' f", []string{"perl"}, true, []string{"perl"}, false},
	{"ruby -e 'system(1)'", []string{"ruby"}, true, []string{"ruby"}, false},
	{"php -r 'system(1);'", []string{"php"}, true, []string{"php"}, false},
	{"deno eval 'Deno.exit()'", []string{"deno"}, true, []string{"deno"}, false},
	{"bun -e 'x'", []string{"bun"}, true, []string{"bun"}, false},
	{"osascript -e 'do shell script \"rm x\"'", []string{"osascript"}, true, []string{"osascript"}, false},
	{"ls | xargs rm", []string{"ls", "xargs"}, true, []string{"ls", "xargs", "rm"}, false},
	{"env rm x", []string{"env"}, true, []string{"env", "rm"}, false},
	{"nohup ls", []string{"nohup"}, true, []string{"nohup", "ls"}, false},
	{"timeout 5 ls", []string{"timeout"}, true, []string{"timeout", "ls"}, false},
	{"\\time rm x", []string{"time"}, true, []string{"time", "rm"}, false},
	{"ssh host rm x", []string{"ssh"}, true, []string{"ssh"}, false},
	{"npx rimraf x", []string{"npx"}, true, []string{"npx"}, false},
	{"less '+!rm x' f", []string{"less"}, true, []string{"less"}, false},
	{"vim -c ':!rm x'", []string{"vim"}, true, []string{"vim"}, false},
	{"sqlite3 db .shell", []string{"sqlite3"}, true, []string{"sqlite3"}, false},

	// Programs with options that run programs.
	{"find . -exec rm {} \\;", []string{"find"}, true, []string{"find", "rm"}, false},
	{"find . -name '*.go' -delete", []string{"find"}, true, []string{"find"}, false},
	{"find . -name '*.go'", []string{"find"}, false, []string{"find"}, true},
	{"find . $opts", []string{"find"}, true, []string{"find"}, false},
	{"awk 'BEGIN{system(\"rm x\")}'", []string{"awk"}, true, []string{"awk"}, false},
	{"awk '{print | \"sh\"}' f", []string{"awk"}, true, []string{"awk"}, false},
	{"awk '{\"date\" | getline d}' f", []string{"awk"}, true, []string{"awk"}, false},
	{"awk -f prog.awk f", []string{"awk"}, true, []string{"awk"}, false},
	{"awk -F: '{print $1}' /etc/passwd", []string{"awk"}, false, []string{"awk"}, true},
	{"gawk -l ./x.so 'BEGIN{}'", []string{"gawk"}, true, []string{"gawk"}, false},
	{"sed -n '1,5p' f", []string{"sed"}, false, []string{"sed"}, true},
	{"sed -i 's/a/b/g' f", []string{"sed -i"}, false, []string{"sed"}, false},
	{"sed -i 's/a/b/g' f", []string{"sed -i"}, false, []string{"sed -i"}, true},
	{"sed 's/x/rm y/e' f", []string{"sed"}, true, []string{"sed"}, false},
	{"sed '1e rm x' f", []string{"sed"}, true, []string{"sed"}, false},
	{"sed -n 'w /tmp/out' f", []string{"sed"}, true, []string{"sed"}, false},
	{"sed 'r x\\\ne rm x' f", []string{"sed"}, true, []string{"sed"}, false},
	{"sed -f s.sed f", []string{"sed"}, true, []string{"sed"}, false},
	{"git -c core.pager='rm x' log", []string{"git"}, true, []string{"git"}, false},
	{"git --config-env=core.pager=X log", []string{"git"}, true, []string{"git"}, false},
	{"git --exec-path=/tmp log", []string{"git"}, true, []string{"git"}, false},
	{"git config alias.st '!rm x'", []string{"git config"}, true, []string{"git config"}, false},
	{"git config --get user.name", []string{"git config"}, false, []string{"git"}, false},
	{"git config --get user.name", []string{"git config"}, false, []string{"git config"}, true},
	{"git rebase --exec 'rm x' main", []string{"git"}, true, []string{"git"}, false},
	{"git submodule foreach 'rm x'", []string{"git"}, true, []string{"git"}, false},
	{"git clone 'ext::sh -c rm% x' d", []string{"git"}, true, []string{"git"}, false},
	{"git fetch --upload-pack='rm x' .", []string{"git"}, true, []string{"git"}, false},
	{"git -C sub log --oneline -5", []string{"git"}, true, []string{"git"}, false},
	{"git push -u origin main", []string{"git"}, true, []string{"git"}, false},
	{"tar --to-command='rm x' -xf a.tar", []string{"tar"}, true, []string{"tar"}, false},
	{"tar -I 'sh -c x' -xf a.tar", []string{"tar"}, true, []string{"tar"}, false},
	{"tar --checkpoint=1 --checkpoint-action=exec='rm x' -cf a.tar .", []string{"tar"}, true, []string{"tar"}, false},
	{"tar -czf out.tgz src", []string{"tar"}, false, []string{"tar"}, true},
	{"rsync -e 'sh -c x' a b", []string{"rsync"}, true, []string{"rsync"}, false},
	{"rsync -av src/ dst/", []string{"rsync"}, false, []string{"rsync"}, true},
	{"zip -T -TT 'rm x' a.zip f", []string{"zip"}, true, []string{"zip"}, false},
	{"go test -exec 'rm x' ./...", []string{"go"}, true, []string{"go"}, false},
	{"go test ./...", []string{"go"}, true, []string{"go"}, false},
	{"make CC='rm x'", []string{"make"}, true, []string{"make"}, false},

	// Environment and variables.
	{"LD_PRELOAD=x ls", []string{"ls"}, true, []string{"ls"}, false},
	{"GIT_PAGER='rm x' git log", []string{"git log"}, true, []string{"git log"}, false},
	{"PATH=/tmp/x:$PATH; ls", []string{"ls"}, true, []string{"ls"}, false},
	{"export PATH=/tmp/x; ls", []string{"export", "ls"}, true, []string{"export", "ls"}, false},
	{"declare -n r=PATH; r=/tmp; ls", []string{"declare", "ls"}, true, []string{"declare", "ls"}, false},
	{"export dir=src; ls $dir", []string{"export", "ls"}, false, []string{"export", "ls"}, true},
	{"read PATH < f; ls", []string{"read", "ls"}, true, []string{"read", "ls"}, false},
	{"read -r line < f; echo $line", []string{"read", "echo"}, false, []string{"read", "echo"}, true},
	{"printf -v PATH /tmp; ls", []string{"printf", "ls"}, true, []string{"printf", "ls"}, false},
	{"printf -v 'a[$(rm x)]' %s y", []string{"printf"}, true, []string{"printf"}, false},
	{"x='a[$(rm y)]'; echo $((x))", []string{"echo"}, true, []string{"echo"}, false},
	{"echo $((2 + 3))", []string{"echo"}, false, []string{"echo"}, true},
	{"echo ${!x}", []string{"echo"}, true, []string{"echo"}, false},
	{"echo ${x@P}", []string{"echo"}, true, []string{"echo"}, false},
	{"[[ $x -eq 1 ]] && ls", []string{"ls"}, true, []string{"ls"}, false},
	{"[ $x = y ] && ls", []string{"[", "ls"}, true, []string{"[", "ls"}, false},
	{"[ \"$x\" = y ] && ls", []string{"[", "ls"}, false, []string{"[", "ls"}, true},
	{"test -v 'a[$(rm x)]'", []string{"test"}, true, []string{"test"}, false},

	// Redirections.
	{"ls > out.txt", []string{"ls"}, true, []string{"ls"}, false},
	{"ls >> out.txt", []string{"ls"}, true, []string{"ls"}, false},
	{"ls &> out.txt", []string{"ls"}, true, []string{"ls"}, false},
	{"ls >| out.txt", []string{"ls"}, true, []string{"ls"}, false},
	{"ls <> out.txt", []string{"ls"}, true, []string{"ls"}, false},
	{"ls >&out.txt", []string{"ls"}, true, []string{"ls"}, false},
	{"ls 2>&1 >/dev/null", []string{"ls"}, false, []string{"ls"}, true},
	{"ls &>/dev/null 3>&-", []string{"ls"}, false, []string{"ls"}, true},
	{"{ ls; } > out.txt", []string{"ls"}, true, []string{"ls"}, false},
	{"exec {fd}>out.txt", []string{"exec"}, true, []string{"exec"}, false},

	// What cannot be read.
	{"", nil, true, nil, false},
	{"   \n\t", nil, true, nil, false},
	{"# just a comment", nil, true, nil, false},
	{"ls &&", nil, true, []string{"ls"}, false},
	{"echo 'unterminated", nil, true, []string{"echo"}, false},
	{"ls @(a|b)", []string{"ls"}, true, []string{"ls"}, false},
}

func TestGrantable(t *testing.T) {
	tests := []struct {
		command string
		granted []string
		want    []string
	}{
		{"git status && rm -rf x", []string{"git status"}, []string{"rm"}},
		{"git status && rm -rf x", []string{"git"}, []string{"git status", "rm"}},
		{"git status && rm -rf x && git diff", nil, []string{"git status", "rm", "git diff"}},
		{"cat <<EOF\nhello $(rm x)\nEOF", []string{"cat"}, []string{"rm"}},
		{"ls && ls", []string{"ls"}, nil},
		{"sudo ls", nil, nil},
		{"ls > out.txt", nil, nil},
	}
	for _, tt := range tests {
		got := check(tt.command).Grantable(grant(tt.granted...))
		if !slices.Equal(got, tt.want) {
			t.Errorf("Grantable(%q) with %q = %q, want %q", tt.command, tt.granted, got, tt.want)
		}
	}
}

func TestAlwaysAskIsReadable(t *testing.T) {
	for _, command := range []string{"sudo ls", "ls > out.txt", "ls &&", "", "$(rm x)", "LD_PRELOAD=x ls"} {
		a := check(command)
		if len(a.AlwaysAsk) == 0 {
			t.Fatalf("%q: no AlwaysAsk", command)
		}
		for _, line := range a.AlwaysAsk {
			if line == "" || strings.Contains(line, "\n") {
				t.Errorf("%q: AlwaysAsk line %q is not one readable line", command, line)
			}
		}
	}
}

func TestNilGrant(t *testing.T) {
	a := check("ls")
	if a.Covered(nil) {
		t.Error("Covered(nil) = true")
	}
	if got := a.Grantable(nil); !slices.Equal(got, []string{"ls"}) {
		t.Errorf("Grantable(nil) = %q", got)
	}
}
