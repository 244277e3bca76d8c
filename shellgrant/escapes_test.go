package shellgrant

import "testing"

// TestDocumentedEscapes: every example in docs/approvals.md, "Escapes a grant
// never covers", always asks.
func TestDocumentedEscapes(t *testing.T) {
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
