package shellgrant

import "testing"

// TestDocumentedEscapes: every example in docs/approvals.md, "Escapes a grant
// never covers", always asks.
func TestDocumentedEscapes(t *testing.T) {
	for _, command := range []string{
		// Programs that run code by design.
		"python3 /dev/stdin <<< 'x'", "node --title x -e 'x'", "make", "make -f- all", "make -n",
		"cargo --version", "pytest", "yarn --version", "uv run x", "poetry run x", "npm exe x",
		"npm run t", "npm test", "npm install", "npm --prefix x ls", "npm ls --userconfig=x",
		"pip install x", "pip list --python ./x", "pip list --py=./x", "pip freeze --log x",
		"go env -w GOFLAGS=-toolexec=x", "go env -u GOFLAGS", "go list -export ./...",
		"go build", "go test ./...", "go run .", "go generate", "go vet", "go mod tidy",
		"brew install x", "systemctl start x", "systemctl --user start x", "kubectl exec x sh",
		"kubectl get pods --kubeconfig=x", "defaults write x y z", "tclsh --version",
		// git.
		"git push", "git commit -m x", "git checkout x", "git fetch", "git pull", "git stash",
		"git submodule update", "git clone ext::x", "git st", "git -c core.fsmonitor=x status",
		"git --config-env=core.pager=X log", "git --exec-path=x status", "git --git-dir=x status",
		"git --work-tree=x status", "git --bare status", "git -C sub status", "git log --output=x",
		"git log --out=x", "git grep -O x", "git grep --open x", "git branch new", "git branch -D x",
		"git branch -m a b", "git tag v1", "git tag -d v1", "git remote add x u",
		"git remote set-url origin x", "git reflog expire --all", "git config user.name x",
		"git config -e", "git config --global core.pager x",
		// Text Bash and the parser could read differently.
		"ls # x \\\nrm a", "cat <<EOF\nx\nEO\\\nF\nrm a\nEOF", "echo \"a\\\nb\"", "ls \\\r\nrm a",
		"ls\x00", "ls \x01", "ls \x7f", "ls \xff", "ls \u200b", "ls \u202e", "ls\u00a0-la",
		"echo é|rm x", "cat <<$x\ny\n$x", "cat <<''\ny\n", "cat <<\"E F\"\nx\nE F", "ls !(x)",
		"ls +(a|b)", "echo ${ ls; }", "echo ${|ls;}", "ls $(case x in x) echo a;; esac)",
		"echo $\"x\"", "'git status'", "l\u0455", "!ls", "ls'#'", "Sudo ls", "PYTHON3 x.py",
		"GIT push", "echo $((ls) )", "time ! ls",
		// Too complex.
		"ls " + string(make([]byte, maxInput)), "echo ${a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[a[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
		// What cannot be read, or stands in for a command.
		"a=rm; $a x", "$(rm x)", "l* x", "{rm,x}", "$'rm'", "/tmp/x/git status", "cd bin && ./ls",
		"ls() { rm -rf ~; }; ls", `eval "$x"`, "exec 3>out.txt", "exec 2>&1",
		"compgen -C 'rm x' w", "trap - EXIT", "enable -n ls", "command ls", "command -p ls",
		"command -pv ls", "hash -p /tmp/x ls; ls", "hash -r", "jobs -x rm x",
		"mapfile -C 'rm x' -c 1 a < f", "getopts ab x", "history -w x", "ls &&", "",
		// Shell state.
		"LD_PRELOAD=/tmp/x.so ls", "GIT_PAGER='rm x' git log", "HOME=x git status",
		"IFS=: read a b", "PATH=/tmp/x:$PATH; ls", "https_proxy=x", "export LD_PRELOAD=x",
		"for PATH in ./bin; do ls; done", "for HOME in \"$PWD\"; do git status; done",
		"select PATH in a; do ls; done", "read PATH < f", "printf -v BASH_ENV x", "mapfile ARR < f",
		"unset PATH", "wait -p PID", "coproc PATH { ls; }", ": ${PATH:=x}; ls", "echo $((PATH=1))",
		"declare -n r=PATH; r=/tmp", "declare -p x", "'export' PATH=x; ls", "\\declare PATH=x", "\"let\" PATH=1", "set -k; ls", "set -a", "set -x", "set -o xtrace",
		"set -m; ls &", "set -o posix", "set +B", "set -T", "set -E", "set -H", "set -v",
		"shopt -s extglob", "shopt -s expand_aliases",
		"read 'a[$(rm x)]'", "printf -v 'a[$(rm x)]' %s y", "test -v 'a[$(rm x)]'", "[[ -v a[$i] ]]",
		"x='a[$(rm x)]'; echo $((x))", "(( i++ ))", "for ((i=0; i<3; i++)); do :; done",
		"echo ${a[i]}", "echo ${s:n}", "[[ $x -eq 1 ]]", "let x=y", "echo ${!x}", "echo ${x@P}",
		"[ $x ]",
		// Redirections.
		"ls > ~/.bashrc", "ls >&out.txt", "cat < /dev/tcp/h/80", "cat < /dev/$x", "cat < \"$f\"",
		"ls {PATH}>/dev/null",
		// Programs no grant covers.
		"sudo ls", "docker run -v /:/h alpine", "bash -c 'rm x'", "sh script.sh", "curl x | sh",
		"irb", "ls | xargs rm", "env rm x", "\\time rm x", "hyperfine 'rm x'", "uvx ruff",
		"sftp h", "ldd x", "openssl x509", "gpg --photo-viewer x", "patch -p1", "convert a b",
		"dc", "m4 f", "less '+!rm x' f", "vim -c ':!rm x'", "ed f", "man ls", "info ls", "zless f",
		"sqlite3 db '.shell rm x'", "psql", "mysql", "ftp h", "telnet h", "mail x",
		"find . $opts", "git $args log", "python3 $args",
		// Harmless-looking programs' options.
		"find . -exec rm {} \\;", "find . -delete", "fd -x rm", "rg --pre sh x",
		"sed 's/.*/rm x/e' f", "sed w f", "sed -f s.sed", "sed '#x\ne rm x' f",
		"awk 'BEGIN{system(\"rm x\")}'", "awk 'BEGIN{system\\\n(\"rm x\")}'", "awk '{print | \"sh\"}'",
		"awk '@load \"x\"; BEGIN{}'", "awk '{print > \"f\"}'", "awk -f x.awk", "awk -W exec x",
		"sort -o out f", "sort --compress=sh f", "split --filter=x f", "uniq a out", "xxd -r f",
		"tree -o x", "tree -R", "iconv -o x f", "file -C -m x", "yq -i x f", "diff3 --diff-program=x a b c",
		"sdiff -o x a b", "install --strip-program=x a b", "curl -o x u", "curl -K x u",
		"curl --unix-socket s u", "wget -e use_askpass=x u", "tar --to-comm=x -xf a.tar",
		"tar -I x -xf a.tar", "tar -xf host:a.tar", "rsync -e 'sh -c x' a b", "zip -T -TT 'rm x' a.zip f",
		"scp -o ProxyCommand=x a h:b", "gh alias set x '!rm'", "crontab f",
	} {
		if a := check(command); len(a.AlwaysAsk) == 0 {
			t.Errorf("%q does not always ask (bases %q)", command, a.Bases)
		}
	}
}

// TestEarlierEscapes: the examples the rules documented before code runners
// got read-only bases still ask.
func TestEarlierEscapes(t *testing.T) {
	for _, command := range []string{
		"a=rm; $a x", "$(rm x)", "l* x", "{rm,x}", "$'rm'", "/tmp/x/git status",
		"ls() { rm -rf ~; }; ls", `eval "$x"`, "compgen -C 'rm x' w", "hash -p /tmp/x ls; ls",
		"jobs -x rm x", "mapfile -C 'rm x' -c 1 a < f", "ls &&", "",
		"LD_PRELOAD=/tmp/x.so ls", "GIT_PAGER='rm x' git log", "PATH=/tmp/x:$PATH; ls",
		"read PATH < f", "printf -v BASH_ENV x", "declare -n r=PATH; r=/tmp",
		"read 'a[$(rm x)]'", "printf -v 'a[$(rm x)]' %s y", "test -v 'a[$(rm x)]'", "[[ -v a[$i] ]]",
		"x='a[$(rm x)]'; echo $((x))", "(( i++ ))", "for ((i=0; i<3; i++)); do :; done",
		"echo ${a[i]}", "echo ${s:n}", "[[ $x -eq 1 ]]", "let x=y", "echo ${!x}", "echo ${x@P}",
		"[ $x ]", "ls *(e:'rm x':)", "ls > ~/.bashrc", "ls >&out.txt", "ls {PATH}>/dev/null",
		"sudo ls", "docker run -v /:/h alpine", "bash -c 'rm x'", "sh script.sh", "curl x | sh",
		"python3 -c 1", "python3 -m timeit 1", "echo 1 | python3", "node -p 1", "node --import x a.js",
		"perl -MPOSIX x.pl", "ruby -rx a.rb", "php -d auto_prepend_file=x a.php", "lua -l x a.lua",
		"Rscript -e 1", "osascript -e 1", "julia -e 1", "deno eval 1", "deno repl", "bun -e 1", "bun x y",
		"irb", "find . $opts", "git $args log",
		"ls | xargs rm", "env rm x", "\\time rm x", "hyperfine 'rm x'", "uvx ruff",
		"find . -exec rm {} \\;", "find . -delete", "fd -x rm", "awk 'BEGIN{system(\"rm x\")}'",
		"awk '{print | \"sh\"}'", "awk '@load \"x\"; BEGIN{}'", "awk -f x.awk", "awk -W exec x",
		"sed 's/.*/rm x/e' f", "sed w f", "sed -f s.sed", "git -c core.pager='sh -c x' log",
		"git --config-env=core.pager=X log", "git --exec-path=/tmp log", "git --git-dir=x log",
		"git config alias.st '!rm x'", "git rebase -x 'rm x' main", "git merge -s x b",
		"git submodule foreach 'rm x'", "git bisect run rm x", "git filter-branch x",
		"git difftool -x rm", "git hook run x", "git grep -O x", "git fetch --upload-pack=x .",
		"git push --receive-pack=x o", "git clone --template=x u", "git clone -c a=b u",
		"git archive --remote=x HEAD", "git clone 'ext::sh -c rm% x'",
		"tar --to-command='sh -c x' -xf a.tar", "tar --checkpoint-action=exec=x -cf a.tar .",
		"tar -I x -xf a.tar", "tar --use-compress-program=x -xf a.tar", "tar -F x -cf a.tar .",
		"tar -xf host:a.tar", "rsync -e 'sh -c x' a b", "rsync --rsync-path=x a h:b",
		"zip -T -TT 'rm x' a.zip f", "scp -o ProxyCommand=x a h:b", "scp -S x a h:b",
		"wget -e use_askpass=x u", "wget --use-askpass=x u", "rg --pre sh x", "gh alias set x '!rm'",
		"gh config set pager x", "make --eval='$(shell rm x)'", "make CC='rm x'", "make -f - all",
		"go test -exec rm ./...", "go build -toolexec rm", "go vet -vettool=x", "go build -ldflags=-extld=x",
		"go env -w GOFLAGS=-toolexec=x", "cargo --config x run", "crontab f",
		"npm exec rm", "npm x rm", "npm --script-shell=x run t", "pnpm dlx x", "yarn node -e 1",
		"pnpm --filter install sh", "uv run rm x", "poetry run rm x", "bundle exec rm x",
		"less '+!rm x' f", "vim -c ':!rm x'", "ed f", "man ls", "sqlite3 db '.shell rm x'", "psql",
	} {
		if a := check(command); len(a.AlwaysAsk) == 0 {
			t.Errorf("%q does not always ask (bases %q)", command, a.Bases)
		}
	}
}
