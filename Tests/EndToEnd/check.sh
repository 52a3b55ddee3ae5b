#!/usr/bin/env bash
# `gallery-viewer --check` end to end, with the real binaries and no window: follow a demo gallery, check (the
# baseline: nothing new, exit 2), follow another, make the demo galleries grow (SIGUSR1 to the demo server, so
# the script knows when), check (the new upload printed for the gallery never checked, exit 0; the one checked
# moments ago skipped), check again (nothing new, exit 2), a missing user (exit 3, "No such user"), offline
# (exit 75, nothing recorded). Needs no display.
set -euo pipefail

: "${GALLERY_VIEWER:?path of the gallery-viewer binary}"
: "${GALLERY_DEMO_SERVER:?path of the gallery-demo-server binary}"
# shellcheck source=helpers.sh
. "$(dirname "$0")/helpers.sh"
scratch_and_cleanup check

# --grow-every far above the test's length: the option is taken, and only SIGUSR1 makes galleries grow here.
start_demo_server server --grow-every 86400
viewer() { XDG_DATA_HOME="$work/data" bounded "$GALLERY_VIEWER" "$@"; }
check() {
  local status=0
  viewer --check --endpoint "$base_url" "$@" >"$work/check.out" 2>"$work/check.err" || status=$?
  echo "$status"
}

viewer --follow --source demo aurora >/dev/null || fail "--follow aurora failed"
[ "$(check)" = 2 ] || fail "the first check is the baseline, exit 2; got: $(cat "$work/check.err")"
[ ! -s "$work/check.out" ] || fail "the baseline printed items: $(cat "$work/check.out")"
grep -q "0 new items; galleries checked: 1" "$work/check.err" || fail "the summary said: $(cat "$work/check.err")"

viewer --follow --source demo atlas >/dev/null || fail "--follow atlas failed"
demo_server=$(pgrep -P "$server_pid") || fail "no demo server process under $server_pid"
kill -USR1 "$demo_server"
wait_for "$patience" grep -q "grew" "$work/server.err" || fail "the demo server did not grow: $(cat "$work/server.err")"

[ "$(check --json)" = 0 ] || fail "a check after growth exits 0; got: $(cat "$work/check.err")"
[ "$(wc -l <"$work/check.out")" -eq 1 ] || fail "one new upload expected: $(cat "$work/check.out")"
for key in '"gallery_source":"demo"' '"gallery_username":"atlas"' '"title":"New: ' '"full_url":"http' '/images/grown-00001-'; do
  grep -q "$key" "$work/check.out" || fail "--check --json lacks $key: $(cat "$work/check.out")"
done
grep -q "skipped (checked recently): 1" "$work/check.err" || fail "aurora, checked moments ago, was not skipped: $(cat "$work/check.err")"

[ "$(check)" = 2 ] || fail "a check right after is nothing new, exit 2; got: $(cat "$work/check.err")"
[ ! -s "$work/check.out" ] || fail "the check right after printed items: $(cat "$work/check.out")"
viewer --following --json | grep -q '"last_checked":"20' || fail "--following shows no check: $(viewer --following --json)"
viewer --following --json | grep '"username":"atlas"' | grep -q '"new":1' \
  || fail "--following does not count atlas's new upload: $(viewer --following --json)"

viewer --follow --source demo nobody >/dev/null || fail "--follow nobody failed"
[ "$(check)" = 3 ] || fail "a failed gallery exits 3; got: $(cat "$work/check.err")"
grep -q "No such user: nobody" "$work/check.err" || fail "the failure said: $(cat "$work/check.err")"
echo "check: baseline, growth found, skipped, nothing new, a failure ok"

# Offline: a fresh store, a server that is gone.
XDG_DATA_HOME="$work/offline" bounded "$GALLERY_VIEWER" --follow --source demo aurora >/dev/null || fail "--follow failed"
status=0
XDG_DATA_HOME="$work/offline" bounded "$GALLERY_VIEWER" --check --endpoint "http://127.0.0.1:9" >"$work/check.out" 2>"$work/check.err" \
  || status=$?
[ "$status" = 75 ] || fail "offline exits 75; got $status: $(cat "$work/check.err")"
grep -q "Offline" "$work/check.err" || fail "offline said: $(cat "$work/check.err")"
XDG_DATA_HOME="$work/offline" bounded "$GALLERY_VIEWER" --following | grep -q $'\t-\t$' \
  || fail "offline recorded a check: $(XDG_DATA_HOME="$work/offline" "$GALLERY_VIEWER" --following)"
echo "check: offline ok"
