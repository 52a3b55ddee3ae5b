# Sourced by the scripts that drive the real binaries (EndToEnd/run.sh, offline.sh and screenshots.sh,
# Accessibility/run.sh, Translation/run.sh): a scratch folder with its clean-up,
# fail, the demo server, the app's window, quitting the app and its log. Call scratch_and_cleanup first.

# scratch_and_cleanup NAME: $work, a scratch folder removed on exit once the processes in $app_pid,
# $server_pid, $atspi_bus_pid and $extra_pids are stopped. NAME prefixes what fail says.
scratch_and_cleanup() {
  test_name=$1
  work=$(mktemp -d)
  app_pid= server_pid= atspi_bus_pid= extra_pids=
  trap 'for pid in $app_pid $server_pid $atspi_bus_pid $extra_pids; do kill "$pid" 2>/dev/null || true; done
        wait 2>/dev/null || true
        rm -rf "$work"' EXIT
}

# fail MESSAGE: says "NAME: FAIL: MESSAGE", calls the script's on_fail if it defines one (a screenshot),
# shows the app's logs ($work/app*.log) and exits 1.
fail() {
  echo "$test_name: FAIL: $*" >&2
  if declare -F on_fail >/dev/null; then on_fail || true; fi
  local log
  for log in "$work"/app*.log; do [ -s "$log" ] && { echo "--- ${log##*/}:" >&2; cat "$log" >&2; }; done
  exit 1
}

# Polls `$@` every 0.2 s for up to $1 seconds.
wait_for() {
  local seconds=$1; shift
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.2
  done
}

# start_demo_server NAME [ARGS...]: $GALLERY_DEMO_SERVER with ARGS (on a free port unless they give --port),
# its output in $work/NAME.out and .err, its pid also in $work/NAME.pid; waits for the base URL it prints
# first. Sets server_pid (stopped on exit) and base_url. Not in a $(…) subshell: the server must be this
# shell's child.
start_demo_server() {
  local name=$1; shift
  local port=(--port 0)
  [[ " $* " == *" --port "* ]] && port=()
  "$GALLERY_DEMO_SERVER" "${port[@]}" "$@" >"$work/$name.out" 2>"$work/$name.err" &
  server_pid=$!
  # Also on the list the exit trap stops by itself: a caller that swaps server_pid (start_other_server)
  # would otherwise leave this server running if the wait below fails, and the test's `wait` would hang.
  extra_pids="$extra_pids $server_pid"
  echo "$server_pid" >"$work/$name.pid"
  # A debug build starting on a loaded 2-core machine has taken more than 20 s.
  wait_for 60 grep -qs '^http://' "$work/$name.out" || fail "the $name demo server printed no URL ($(cat "$work/$name.err"))"
  base_url=$(head -n 1 "$work/$name.out")
}

# wait_for_window TITLE-REGEX [XDOTOOL-SEARCH-OPTION...]: waits up to 30 s for a visible window whose title
# matches (and the options, e.g. --pid PID); sets $window.
find_window() {
  window=$(xdotool search --all --onlyvisible "${@:2}" --name "$1" 2>/dev/null | head -n 1) && [ -n "$window" ]
}
wait_for_window() { window=; wait_for 30 find_window "$@"; }

# quit_app [WHO]: Ctrl+Q in $window; the app in $app_pid must be gone within 5 s, with status 0.
quit_app() {
  local who=${1:-the app} status=0
  xdotool windowfocus --sync "$window"
  xdotool key ctrl+q
  wait_for 5 bash -c "! kill -0 $app_pid 2>/dev/null" || fail "$who did not quit within 5 s of Ctrl+Q"
  wait "$app_pid" || status=$?
  app_pid=
  [ "$status" -eq 0 ] || fail "$who exited with status $status"
}

# assert_no_warnings LOG...: GLib and GTK print their criticals and warnings to the app's output.
assert_no_warnings() {
  if grep -E 'CRITICAL|WARNING' "$@"; then fail "GLib/GTK warnings in ${*##*/}"; fi
}

# Mean HSL saturation (0–1) of a region of $window: thumbnails and photos are colourful, the theme's
# placeholders, text and backgrounds are grey. $1 = geometry WxH+X+Y relative to the window.
saturation() {
  import -window "$window" "$work/window.png" 2>/dev/null || return 1
  convert "$work/window.png" -crop "$1" +repage -colorspace HSL -channel G -separate +channel \
    -format '%[fx:mean]' info: 2>/dev/null
}
is_colourful() { local s; s=$(saturation "$1") && awk -v s="$s" -v min="$2" 'BEGIN { exit !(s > min) }'; }
window_name() { xdotool getwindowname "$window" 2>/dev/null; }
name_is() { [ "$(window_name)" = "$1" ]; }
