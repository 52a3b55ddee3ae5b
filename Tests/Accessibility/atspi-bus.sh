# Sourced by the tests that read the window over AT-SPI (Tests/Accessibility/run.sh, Tests/EndToEnd/offline.sh,
# Tests/Translation/run.sh). .ci/headless turns GTK's accessibility bridge off (NO_AT_BRIDGE=1) so that the
# other tests need no accessibility bus; these start their own.

# start_atspi_bus LOG: starts at-spi-bus-launcher (its pid in atspi_bus_pid) and turns the bridge back on
# for the apps started after it.
start_atspi_bus() {
  local launcher= candidate
  for candidate in /usr/libexec/at-spi-bus-launcher /usr/lib/at-spi2-core/at-spi-bus-launcher; do
    [ -x "$candidate" ] && launcher=$candidate && break
  done
  [ -n "$launcher" ] || { echo "at-spi-bus-launcher not found; run 'make test-deps'" >&2; return 1; }
  /usr/bin/python3 -c 'import gi; gi.require_version("Atspi", "2.0")' 2>/dev/null \
    || { echo "python3-gi or gir1.2-atspi-2.0 missing; run 'make test-deps'" >&2; return 1; }
  unset NO_AT_BRIDGE
  "$launcher" --launch-immediately >"$1" 2>&1 &
  atspi_bus_pid=$!
}

# scratch_and_cleanup NAME: $work, a scratch folder removed on exit once the processes in $app_pid, $server_pid
# and $atspi_bus_pid are stopped; and fail MESSAGE, which says "NAME: FAIL: MESSAGE", shows $work/app.log and
# exits 1 (a script may define its own fail after this).
scratch_and_cleanup() {
  test_name=$1
  work=$(mktemp -d)
  atspi_bus_pid= server_pid= app_pid=
  trap 'for pid in $app_pid $server_pid $atspi_bus_pid; do kill "$pid" 2>/dev/null || true; done
        wait 2>/dev/null || true
        rm -rf "$work"' EXIT
}
fail() {
  echo "$test_name: FAIL: $*" >&2
  [ -s "$work/app.log" ] && { echo "--- gallery-viewer output:" >&2; cat "$work/app.log" >&2; }
  exit 1
}

# atspi_expect STATE ARGUMENT...: reads the app $app_id with atspi_check.py and those arguments (--expect NAME,
# --expect-text TEXT, --expect-no-text TEXT); the controls it saw go to $work/tree. On a failure it shows them
# and calls fail with STATE. Needs scratch_and_cleanup first.
atspi_expect() {
  local state=$1; shift
  echo "$test_name: $state"
  /usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/atspi_check.py" "$app_id" "$@" >"$work/tree" 2>"$work/problems" || {
    cat "$work/tree" "$work/problems" >&2
    fail "$state"
  }
}

# start_demo_server: $GALLERY_DEMO_SERVER on a free port; sets server_pid and base_url (its first line).
start_demo_server() {
  "$GALLERY_DEMO_SERVER" --port 0 >"$work/server.out" 2>"$work/server.err" &
  server_pid=$!
  for _ in $(seq 100); do grep -q '^http://' "$work/server.out" && break; sleep 0.2; done
  base_url=$(head -n 1 "$work/server.out")
  [ -n "$base_url" ]
}

# wait_for_window TITLE-REGEX: waits up to 30 s for a visible window whose title matches; sets $window.
wait_for_window() {
  window=
  for _ in $(seq 150); do
    window=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -n 1) && [ -n "$window" ] && return 0
    sleep 0.2
  done
  return 1
}
