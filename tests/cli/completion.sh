#!/bin/bash
# The bash completion (dist/bash-completion/powersched), sourced into bash
# without the bash-completion package and asked as readline would ask it:
# subcommands, options, policies, backends, the built-in model names of the
# binary under test (the same as models/*.model), topology files; and
# exactly the subcommands and options the binary's --help texts print.
# usage: bash completion.sh PATH/TO/powersched
set -u
case $1 in /*) PS=$1 ;; *) PS=$PWD/$1 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/../../dist/bash-completion/powersched"

# comp EXPECTED WORD...: complete the last WORD (the command line as words;
# COMP_WORDS[0] is the binary under test) and compare the sorted answers
comp() {
	want=$1
	shift
	COMP_WORDS=("$PS" "$@")
	COMP_CWORD=$#
	COMP_LINE="$PS $*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_powersched
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort -u | tr '\n' ' ')
	got=${got% }
	if [ "$got" = "$want" ]; then ok; else bad "completing '$*': '$got', not '$want'"; fi
}

[ "$(complete -p powersched)" = "complete -F _powersched powersched" ] && ok ||
	bad "not registered for powersched: $(complete -p powersched 2>&1)"
comp "plan" pl
comp "--policy" plan --pol
comp "daemon" d
comp "auto performance power" plan --policy ""
comp "performance power" plan -p p
comp "power" run --policy=po
comp "power" run --policy = po
comp "--help --json --state-dir" status --
comp "--backend" run --ba
comp "affinity auto cgroup scx" run -b ""
comp "auto kernel legacy:mc= performance power" sim -p ""
comp "power,auto power,kernel power,legacy:mc= power,performance power,power" sim --compare power,
comp "power,kernel" sim --compare power,k
comp "--dry-run" daemon --dry
comp "affinity auto scx" daemon -b ""
comp "--scx-fallback" daemon --scx
# the built-in models: what the binary says, and what models/ holds
models=$(cd "$here/../../models" && ls *.model | sed 's/\.model$//' | sort | tr '\n' ' ')
models=${models% }
mkdir "$tmp/empty"
cd "$tmp/empty" || exit 1
comp "$models" plan --model ""
comp "generic" sim -m gen
# topology: directories and .xml files, not other files
mkdir -p "$tmp/topos/sub"
: >"$tmp/topos/two.xml"
: >"$tmp/topos/notes.txt"
comp "$tmp/topos/sub $tmp/topos/two.xml" plan --topology "$tmp/topos/"
# and model files by name
: >"$tmp/topos/mine.model"
comp "$tmp/topos/mine.model $tmp/topos/sub" run -m "$tmp/topos/"
# nothing offered for a value of the user's; after run's --, commands
comp "" plan --load ""
mkdir "$tmp/bin" && : >"$tmp/bin/zzq-tool" && chmod +x "$tmp/bin/zzq-tool"
PATH=$tmp/bin:$PATH
comp "zzq-tool" run -p power -- zzq
comp "" plan -p zzq

# --- every subcommand of powersched --help, and every option each
# subcommand's --help prints, is offered, and nothing else (the lists in
# the completion file are written by hand: this keeps them from drifting)
# offers WORD...: what completing the last WORD offers, one a line
offers() {
	COMP_WORDS=("$PS" "$@")
	COMP_CWORD=$#
	COMP_LINE="$PS $*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_powersched
	[ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}" | sort -u
}
# help_opts CMD...: the options a --help prints at the start of its lines
help_opts() {
	"$PS" "$@" --help | grep -oE '^ +(-[A-Za-z0-9], )?--[a-z][a-z0-9-]*' |
		grep -oE -- '-{1,2}[A-Za-z0-9][a-z0-9-]*' | sort -u
}
# same WHAT WANT GOT: the two lists (one a line) are the same
same() {
	if [ "$2" = "$3" ]; then
		ok
	else
		bad "$1: --help and the completion differ: $(diff <(echo "$2") <(echo "$3") | grep '^[<>]' | sed 's/^</help only:/; s/^>/completion only:/' | tr '\n' ' ')"
	fi
}
cmds=$("$PS" --help | sed -n '/^Commands:/,/^$/s/^ \([a-z][a-z]*\) .*/\1/p' | sort -u)
[ -n "$cmds" ] && ok || bad "no commands in powersched --help"
same "commands" "$( (echo "$cmds"; help_opts) | sort -u)" "$(offers "")"
for c in $cmds; do
	got=$(offers "$c" - | grep -vx -- '--')
	same "powersched $c" "$(help_opts "$c")" "$got"
done

echo "completion: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
