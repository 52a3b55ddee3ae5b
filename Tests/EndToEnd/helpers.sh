# Sourced by the scripts that drive the real binaries (EndToEnd/run.sh, offline.sh and screenshots.sh,
# Accessibility/run.sh, Translation/run.sh, Install/smoke.sh): a scratch folder with its clean-up, fail, bounds
# on every process, the demo server, the app's window, the steps several scripts share (a search, the large
# view, downloads compared with the originals), quitting the app and its log. Call scratch_and_cleanup first.

# Bounds. Each only matters when something hangs: the scripts wait for conditions, never for fixed times. A
# debug build on one loaded core can take tens of seconds to show a window or answer a key, and a bound that
# fires there is a false failure, so each is far above what a run on such a machine takes.
patience=${E2E_PATIENCE:-120}      # seconds for a condition on screen, on disk or in a log to come true
run_limit=${E2E_RUN_LIMIT:-300}    # seconds a one-shot command may run (--list, --download, an AT-SPI check)
life_limit=${E2E_LIFE_LIMIT:-1800} # seconds a server or a window may live: longer than a whole script takes
# For processes started in the background: `"${bounded_life[@]}" COMMAND &`. timeout passes TERM and INT on to
# COMMAND and exits with its status, so $! can be killed and waited for as COMMAND itself would be.
# --foreground: without it timeout sends a signal it receives to COMMAND and then to its whole process group,
# so COMMAND gets it twice, and the app takes a second Ctrl+C as "leave at once" (no summary printed).
bounded_life=(timeout --foreground --kill-after=10 "$life_limit")

# bounded COMMAND...: runs COMMAND (in the foreground) for at most $run_limit seconds, and says so when the
# limit stopped it; returns COMMAND's status (124 when stopped).
bounded() {
  local status=0
  timeout --kill-after=10 "$run_limit" "$@" || status=$?
  [ "$status" -ne 124 ] || echo "${test_name:-test}: '${1##*/}' still ran after $run_limit s and was stopped" >&2
  return "$status"
}

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
# shows the app's logs ($work/app*.log), keeps what a rare failure needs to be understood after the scratch
# folder is gone (see keep_failure_evidence) and exits 1.
fail() {
  echo "$test_name: FAIL: $*" >&2
  if declare -F on_fail >/dev/null; then on_fail || true; fi
  local log
  for log in "$work"/app*.log; do [ -s "$log" ] && { echo "--- ${log##*/}:" >&2; cat "$log" >&2; }; done
  keep_failure_evidence
  exit 1
}

# Copies the scratch folder's logs (the app's, the demo servers' requests) and the app's state file into
# $shots/NAME-failure/, and, where gdb is installed, every thread's stack of the app still running: a window
# that waits for ever shows there what it waits on.
keep_failure_evidence() {
  [ -n "${shots:-}" ] || return 0
  local kept=$shots/${test_name// /-}-failure
  rm -rf "$kept" && mkdir -p "$kept" || return 0
  cp "$work"/*.log "$work"/*.err "$work"/*.out "$kept"/ 2>/dev/null || true
  cp "${XDG_CONFIG_HOME:-/nonexistent}"/gallery-viewer/state.ini "$kept"/ 2>/dev/null || true
  local pid
  pid=$(app_process 2>/dev/null) || pid=${app_pid:-}
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && command -v gdb >/dev/null; then
    timeout 60 gdb -p "$pid" -batch -ex 'thread apply all bt' >"$kept/app-stacks.txt" 2>&1 || true
  fi
  echo "$test_name: logs kept in $kept" >&2
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
  "${bounded_life[@]}" "$GALLERY_DEMO_SERVER" "${port[@]}" "$@" >"$work/$name.out" 2>"$work/$name.err" &
  server_pid=$!
  # Also on the list the exit trap stops by itself: a caller that swaps server_pid (start_other_server)
  # would otherwise leave this server running if the wait below fails, and the test's `wait` would hang.
  extra_pids="$extra_pids $server_pid"
  echo "$server_pid" >"$work/$name.pid"
  # A debug build starting on a loaded 2-core machine has taken more than 20 s.
  wait_for "$patience" grep -qs '^http://' "$work/$name.out" \
    || fail "the $name demo server printed no URL ($(cat "$work/$name.err"))"
  base_url=$(head -n 1 "$work/$name.out")
}

# wait_for_window TITLE-REGEX [XDOTOOL-SEARCH-OPTION...]: waits for a visible window whose title matches (and
# the options, e.g. --pid PID); sets $window.
find_window() {
  window=$(xdotool search --all --onlyvisible "${@:2}" --name "$1" 2>/dev/null | head -n 1) && [ -n "$window" ]
}
wait_for_window() { window=; wait_for "$patience" find_window "$@"; }

# launch_app LOG [ARG...]: gallery-viewer with ARGs in the background, its output in $work/LOG; sets app_pid.
# Variables set before the call (VAR=… launch_app …) are in the app's environment.
launch_app() {
  local log=$1; shift
  "${bounded_life[@]}" "$GALLERY_VIEWER" "$@" >"$work/$log" 2>&1 &
  app_pid=$!
}
# app_process: the pid of the app itself, which runs under timeout (the pid in $app_pid).
app_process() {
  local children
  children=$(cat "/proc/$app_pid/task/$app_pid/children" 2>/dev/null) && [ -n "$children" ] && echo "${children%% *}"
}
# wait_for_app_window [TITLE-REGEX]: waits for the window of the app in $app_pid (default title Gallery Viewer).
find_app_window() { local pid; pid=$(app_process) && [ -n "$pid" ] && find_window "$1" --pid "$pid"; }
wait_for_app_window() { window=; wait_for "$patience" find_app_window "${1:-^Gallery Viewer\$}"; }

# place_window WIDTH HEIGHT: $window at the top left with that size, once the X server reports it so (the
# scripts click at coordinates and read regions of the window).
window_size_is() { [ "$(xdotool getwindowgeometry "$window" 2>/dev/null | sed -n 's/^ *Geometry: //p')" = "$1" ]; }
place_window() {
  xdotool windowmove "$window" 0 0 windowsize "$window" "$1" "$2"
  wait_for "$patience" window_size_is "$1x$2" || fail "the window did not take the size $1x$2"
}

# quit_app [WHO]: Ctrl+Q in $window; the app in $app_pid must quit, with status 0. Quitting promptly is checked
# by `make bench`; here the app must quit rather than hang, and a slow machine may take a while.
quit_app() {
  local who=${1:-the app} status=0
  xdotool windowfocus --sync "$window"
  xdotool key ctrl+q
  wait_for 60 bash -c "! kill -0 $app_pid 2>/dev/null" || fail "$who did not quit within 60 s of Ctrl+Q"
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
# save_region GEOMETRY NAME: that region of $window in $work/NAME.png, to compare with later.
save_region() {
  import -window "$window" "$work/window.png" 2>/dev/null \
    && convert "$work/window.png" -crop "$1" +repage "$work/$2.png" 2>/dev/null
}
# pixels_changed GEOMETRY NAME [FUZZ]: how many pixels of that region of $window differ by more than FUZZ
# (default 10 %) from the ones save_region saved under NAME.
pixels_changed() {
  save_region "$1" now || return 1
  compare -metric AE -fuzz "${3:-10%}" "$work/$2.png" "$work/now.png" null: 2>&1 | cut -d' ' -f1
}
window_name() { xdotool getwindowname "$window" 2>/dev/null; }
name_is() { [ "$(window_name)" = "$1" ]; }

# --- steps shared by run.sh and Install/smoke.sh, on a window placed at 800×760 -------------------------------

thumbnails=96x300+12+80  # the thumbnail column: x 12–108 of each row, below the header bar

# search_in_window USERNAME: Ctrl+L, type the username, Enter; thumbnails are painted. Bare Xvfb has no window
# manager: the window is focused explicitly.
search_in_window() {
  xdotool windowfocus --sync "$window"
  xdotool key ctrl+l
  xdotool type --delay 40 "$1"
  xdotool key Return
  wait_for "$patience" is_colourful "$thumbnails" 0.20 \
    || fail "no thumbnails were painted for $1 (saturation $(saturation "$thumbnails"))"
}

# open_first_row TITLE: a double-click on the first row opens the large view: the window title becomes the
# image's TITLE, and the image is painted in the middle of the window.
open_first_row() {
  xdotool mousemove --window "$window" 400 120 click --repeat 2 --delay 120 1
  wait_for "$patience" name_is "$1" || fail "the large view did not open (window title: '$(window_name)', expected '$1')"
  wait_for "$patience" is_colourful 300x300+250+230 0.20 \
    || fail "the large view painted no image (saturation $(saturation 300x300+250+230))"
}

# list_first_title ARG...: sets first_title, the title of the first item `gallery-viewer --list ARG...` prints.
list_first_title() {
  # Whole, then the first line: `| head -n 1` could cut the listing off with SIGPIPE, a failure under pipefail.
  bounded "$GALLERY_VIEWER" --list "$@" >"$work/first-title.txt" || fail "gallery-viewer --list $* failed"
  first_title=$(head -n 1 "$work/first-title.txt" | cut -f 1)
  [ -n "$first_title" ] || fail "gallery-viewer --list $* printed nothing"
}

# same_as_originals DIR ORIGINALS: every final file in DIR (if any) is byte for byte the file of that name in
# ORIGINALS (the images the demo server serves).
same_as_originals() {
  local f
  for f in "$1"/*; do
    [ -e "$f" ] || continue
    cmp -s "$f" "$2/$(basename "$f")" || { echo "$f differs"; return 1; }
  done
}
