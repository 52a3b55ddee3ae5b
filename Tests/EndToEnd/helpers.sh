# Sourced by the end-to-end tests (run.sh, offline.sh). They set $work (a scratch directory) and $window
# (the X window id of the app's window) before calling the window helpers.

# Polls `$@` every 0.2 s for up to $1 seconds.
wait_for() {
  local seconds=$1; shift
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.2
  done
}

# Mean HSL saturation (0–1) of a region of the window: thumbnails and photos are colourful, the theme's
# placeholders, text and backgrounds are grey. $1 = geometry WxH+X+Y relative to the window.
saturation() {
  import -window "$window" "$work/window.png" 2>/dev/null || return 1
  convert "$work/window.png" -crop "$1" +repage -colorspace HSL -channel G -separate +channel \
    -format '%[fx:mean]' info: 2>/dev/null
}
is_colourful() { local s; s=$(saturation "$1") && awk -v s="$s" -v min="$2" 'BEGIN { exit !(s > min) }'; }
window_name() { xdotool getwindowname "$window" 2>/dev/null; }
name_is() { [ "$(window_name)" = "$1" ]; }
