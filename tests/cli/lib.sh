# Shared by the CLI test scripts: sourced after PS (the binary) is set.
# Counters, a scratch directory removed on exit, and expect_err.
fail=0
pass=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# expect_err NEEDLE ARGS...: exit 2, one line on stderr naming NEEDLE, no stdout
expect_err() {
	needle=$1; shift
	"$PS" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" -ne 2 ]; then bad "exit $rc, not 2: $*"; return; fi
	if [ "$lines" -ne 1 ]; then bad "$lines lines on stderr: $*"; cat "$tmp/err"; return; fi
	if ! grep -qF -- "$needle" "$tmp/err"; then bad "error does not name '$needle': $(cat "$tmp/err")"; return; fi
	if [ -s "$tmp/out" ]; then bad "stdout not empty on error: $*"; return; fi
	ok
}

# wait_until SECONDS CMD...: run CMD every 0.1 s until it succeeds (0) or
# SECONDS pass (1). One generous deadline for a step of unbounded length
# (a daemon's interval, a quiet interval, a process that starts late on a
# loaded machine), in place of a fixed sleep that races it.
wait_until() {
	_wu_end=$(($(date +%s) + $1)); shift
	while ! "$@"; do
		[ "$(date +%s)" -ge "$_wu_end" ] && return 1
		sleep 0.1
	done
	return 0
}

# show_log LABEL FILE: a log's first 12 and last 15 lines, indented, for a
# failure (how it began, and where it was)
show_log() {
	echo "  --- $1 ($2):"
	if [ "$(wc -l <"$2" 2>/dev/null || echo 0)" -le 27 ]; then
		sed 's/^/  | /' "$2" 2>/dev/null
	else
		head -n 12 "$2" | sed 's/^/  | /'
		echo "  | ..."
		tail -n 15 "$2" | sed 's/^/  | /'
	fi
}
