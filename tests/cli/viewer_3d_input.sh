#!/usr/bin/env bash
# A 3D world's viewer driven by real events (xdotool) under a virtual X server (docs/viewer.md,
# "Three dimensions"): a left drag orbits by kOrbitDegreesPerPixel a pixel, a scroll step dollies
# by kZoomPerScrollStep, a Shift+drag moves the target as far as the plane through it slides
# under the cursor, F brings back the starting camera, O turns it by itself at the default
# speed, a click selects the boid drawn nearest to it, and Ctrl+drag steers one. The window
# title carries the camera; the checks project the boids (a still flock written here) through
# that camera with their own perspective arithmetic.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

require_tools viewer_3d_input xvfb-run xdotool python3

# docs/viewer.md, "Three dimensions": the controls' documented rates.
degrees_per_pixel=0.25
zoom_per_scroll_step=1.15
default_turn_degrees_per_second=6
pick_reach_pixels=24
width=640 height=360

# No rule moves a boid and none flies: what the test projects is what the viewer draws.
scenario=$work/still.toml
cat >"$scenario" <<'TOML'
[world]
dimensions = 3
width = 100
height = 80
depth = 60
seed = 1

[[species]]
name = "still"
count = 40
topology = "wrap"
perception_radius = 5
separation_radius = 1
align_weight = 0
cohesion_weight = 0
separation_weight = 0
min_speed = 0
max_speed = 1
TOML
python3 - "$work/still.csv" <<'PY'
import random, sys
rng = random.Random(7)
with open(sys.argv[1], "w") as out:
    out.write("id,species,x,y,z,vx,vy,vz,age,energy\n")
    for i in range(40):
        out.write(f"{1000 + 3 * i},0,{rng.uniform(5, 95):.3f},{rng.uniform(5, 75):.3f},"
                  f"{rng.uniform(5, 55):.3f},0,0,0,0,0\n")
PY

# The camera a title reports, and the boids projected through it, from first principles:
# the eye at target + distance (cos p sin y, sin p, cos p cos y), looking at the target with +y
# up, a vertical field of view, pixels from the top left.
cat >"$work/geometry.py" <<'PY'
import math, re, sys

def camera(title):
    m = re.search(r"camera target (\S+) (\S+) (\S+) distance (\S+) yaw (\S+) pitch (\S+)"
                  r" fov (\S+)", title)
    values = [float(v) for v in m.groups()]
    return {"target": values[:3], "distance": values[3], "yaw": values[4], "pitch": values[5],
            "fov": values[6]}

def dot(a, b): return sum(x * y for x, y in zip(a, b))
def minus(a, b): return [x - y for x, y in zip(a, b)]
def unit(a): return [x / math.sqrt(dot(a, a)) for x in a]
def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]

def project(cam, point, width, height):
    """The pixel (from the top left) and the depth along the view of a world point."""
    yaw, pitch = math.radians(cam["yaw"]), math.radians(cam["pitch"])
    eye = [t + cam["distance"] * e for t, e in zip(cam["target"], [
        math.cos(pitch) * math.sin(yaw), math.sin(pitch), math.cos(pitch) * math.cos(yaw)])]
    forward = unit(minus(cam["target"], eye))
    right = unit(cross(forward, [0.0, 1.0, 0.0]))
    up = cross(right, forward)
    offset = minus(point, eye)
    depth = dot(offset, forward)
    half_height = math.tan(math.radians(cam["fov"]) / 2)
    ndc_x = dot(offset, right) / (depth * half_height * width / height)
    ndc_y = dot(offset, up) / (depth * half_height)
    return ((ndc_x + 1) / 2 * width, (1 - ndc_y) / 2 * height), depth

if __name__ == "__main__":
    # click STATE TITLE W H: a pixel a few pixels off a boid well inside the frame, and the id
    # of the boid drawn nearest to that pixel (the nearer to the eye on a tie).
    _, state, title, width, height = sys.argv[1:6]
    width, height = int(width), int(height)
    rows = [line.split(",") for line in open(state).read().splitlines()[1:]]
    boids = [(int(r[0]), [float(v) for v in r[2:5]]) for r in rows]
    drawn = [(id, *project(camera(title), p, width, height)) for id, p in boids]
    margin = 40
    inside = [pixel for _, pixel, _ in drawn
              if margin < pixel[0] < width - margin and margin < pixel[1] < height - margin]
    click = (round(inside[0][0]) + 4, round(inside[0][1]) + 3)
    nearest = min(drawn, key=lambda d: (math.dist(d[1], click), d[2]))
    print(click[0], click[1], nearest[0])
PY

cat >"$work/drive.bash" <<'DRIVE'
set -u
murmur=$1 scenario=$2 state=$3 work=$4 width=$5 height=$6
"$murmur" view --scenario "$scenario" --in "$state" --size "${width}x$height" \
  --out-dir "$work" --frames 100000 >"$work/viewer.stdout" 2>"$work/viewer.stderr" &
viewer=$!
window=$(timeout 60 xdotool search --sync --onlyvisible --name '^murmur' | head -n 1)
title() { sleep 1; xdotool getwindowname "$window"; }  # the title refreshes twice a second
xdotool key --window "$window" h  # no panel: the whole frame takes the mouse
start=$(title)
echo "start: $start"
xdotool mousemove --window "$window" 300 200 mousedown 1
xdotool mousemove --window "$window" 340 180 mouseup 1
echo "after drag: $(title)"
xdotool mousemove --window "$window" 320 180 click --repeat 2 --delay 100 4
echo "after scroll: $(title)"
xdotool keydown shift mousemove --window "$window" 200 200 mousedown 1
xdotool mousemove --window "$window" 260 200 mouseup 1 keyup shift
echo "after pan: $(title)"
xdotool key --window "$window" f
echo "after fit: $(title)"
xdotool key --window "$window" o
echo "turning at: $(date +%s.%N) $(title)"
sleep 2
echo "turned at: $(date +%s.%N) $(title)"
xdotool key --window "$window" o f
echo "after stop: $(title)"
read -r x y expected < <(python3 "$work/geometry.py" click "$state" "$start" "$width" "$height")
echo "expected: $expected"
xdotool mousemove --window "$window" "$x" "$y" click 1
echo "after click: $(title)"
xdotool mousemove --window "$window" "$x" "$y" keydown ctrl mousedown 1
xdotool mousemove --window "$window" $((x + 20)) "$y"
echo "while steering: $(title)"
xdotool mouseup 1 keyup ctrl
echo "after steering: $(title)"
xdotool key --window "$window" Escape
wait $viewer
echo "exit status: $?"
DRIVE

set +e
xvfb-run -a -s "-screen 0 1280x720x24" bash "$work/drive.bash" "$murmur" "$scenario" \
  "$work/still.csv" "$work" "$width" "$height" >"$work/drive.out" 2>&1
set -e
out=$(cat "$work/drive.out")
err=$(cat "$work/viewer.stderr" 2>/dev/null || true)
last_command="xvfb-run bash drive.bash (murmur view on a 3D world driven by xdotool)"
rc=0

python3 - "$work/drive.out" "$work/geometry.py" "$degrees_per_pixel" "$zoom_per_scroll_step" \
  "$default_turn_degrees_per_second" "$pick_reach_pixels" "$height" <<'PY' ||
  { fail "see the checks above"; describe_run; }
import math, re, sys
sys.path.insert(0, sys.argv[2].rsplit("/", 1)[0])
from geometry import camera
lines = dict(line.split(": ", 1) for line in open(sys.argv[1]).read().splitlines() if ": " in line)
per_pixel, zoom, speed, reach, height = map(float, sys.argv[3:8])
failures = []
def check(ok, what):
    if not ok: failures.append(what)
def near(a, b, tolerance=1e-2): return abs(a - b) <= tolerance

start = camera(lines["start"])
dragged = camera(lines["after drag"])
# Right 40, up 20: the eye moves left (yaw down) and down (pitch down), a quarter degree a pixel.
check(near(dragged["yaw"], start["yaw"] - 40 * per_pixel), f"drag yaw {dragged['yaw']}")
check(near(dragged["pitch"], start["pitch"] - 20 * per_pixel), f"drag pitch {dragged['pitch']}")
check(near(dragged["distance"], start["distance"]), "a drag changed the distance")
scrolled = camera(lines["after scroll"])
check(near(scrolled["distance"], start["distance"] / zoom ** 2, 1e-3 * start["distance"]),
      f"two scroll steps: distance {scrolled['distance']} from {start['distance']}")
panned = camera(lines["after pan"])
moved = math.dist(panned["target"], scrolled["target"])
# 60 pixels in the plane through the target: 2 d tan(fov / 2) / height world units a pixel.
expected = 60 * 2 * scrolled["distance"] * math.tan(math.radians(scrolled["fov"]) / 2) / height
check(abs(moved - expected) < 0.01 * expected, f"pan moved the target {moved}, not {expected}")
check(near(panned["yaw"], scrolled["yaw"]) and near(panned["distance"], scrolled["distance"]),
      "a pan turned or dollied the camera")
check(lines["after fit"].split("camera ")[1] == lines["start"].split("camera ")[1],
      f"F: {lines['after fit']} is not the start {lines['start']}")
t0, title0 = lines["turning at"].split(" ", 1)
t1, title1 = lines["turned at"].split(" ", 1)
check("turning" in title0, "O did not start the turn")
turned = (camera(title1)["yaw"] - camera(title0)["yaw"]) % 360
elapsed = float(t1) - float(t0)
# Each title is up to half a second (its refresh) and a frame old.
check(abs(turned - speed * elapsed) <= speed * 1.0, f"turned {turned} deg in {elapsed} s")
check("turning" not in lines["after stop"], "O did not stop the turn")
check(lines["after stop"].split("camera ")[1] == lines["start"].split("camera ")[1],
      "F after the turn is not the start")
expected_id = lines["expected"].strip()
check(f"selected boid {expected_id} " in lines["after click"],
      f"a click selected: {lines['after click']}, not boid {expected_id}")
check("steering boid" in lines["while steering"], "Ctrl+drag does not steer")
check("steering" not in lines["after steering"], "releasing the button kept steering")
check(lines.get("exit status", "").strip() == "0", "Esc: exit status not 0")
for failure in failures: print("FAIL:", failure, file=sys.stderr)
sys.exit(1 if failures else 0)
PY
finish
