#!/usr/bin/env python3
"""Power cuts at random moments: `tern run` is killed (SIGKILL) N times while it carries out
`go`, `save` and `cancel` from `tern ctl`, and the state file is checked after each kill.

Printed: how many kills, how many found the file whole (parsing as JSON with the fields the
appliance writes), how many held a trip that the next start resumed (its `status` names the
destination before any GPS fix), and how many were torn or not resumed (the target: none).

Reproduce:  python3 bench/state_kills.py [--kills 200] [--tern .build/release/tern] [--map .bench/liechtenstein.tmap]
(the map needs a search index for `go vaduz`; any .tmap imported by this tern has one)
"""
import argparse, json, os, random, signal, subprocess, sys, tempfile, time

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--kills", type=int, default=200)
ap.add_argument("--tern", default=".build/release/tern")
ap.add_argument("--map", default=".bench/liechtenstein.tmap")
ap.add_argument("--seed", type=int, default=1)
a = ap.parse_args()
rng = random.Random(a.seed)
work = tempfile.mkdtemp(prefix="tern-kills-")
sock, state = os.path.join(work, "control"), os.path.join(work, "state")
path = os.path.join(state, "destinations.json")
commands = ["go 47.1410,9.5215", "go 47.0755,9.5121", "save fav", "cancel", "go vaduz", "save home"]


def ctl(*words, timeout=5):
    return subprocess.run([a.tern, "ctl", "--socket", sock, *words], capture_output=True, text=True, timeout=timeout).stdout


def read_state():
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        doc = json.load(f)  # a torn file raises here
    assert doc.get("version") == 1 and isinstance(doc.get("favourites"), dict) and isinstance(doc.get("recent"), list)
    return doc


whole = torn = resumed = not_resumed = 0
previous = {}
t0 = time.time()
for k in range(a.kills):
    if os.path.exists(sock):
        os.unlink(sock)
    run = subprocess.Popen([a.tern, "run", "--map", a.map, "--gpsd", "127.0.0.1:9", "--console", "none", "--speech", "none",
                            "--log-dir", os.path.join(work, "drives"), "--control", sock, "--state-dir", state],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 10
    while not os.path.exists(sock) and time.time() < deadline:
        time.sleep(0.005)
    if "trip" in previous:
        label = previous["trip"]["waypoints"][-1]["label"]
        reply = ""
        for _ in range(50):
            reply = ctl("status")
            if "Connection refused" not in reply and reply:
                break
            time.sleep(0.02)
        if f"; going to {label}" in reply:
            resumed += 1
        else:
            not_resumed += 1
            print(f"kill {k}: trip to {label} not resumed: {reply.strip()}")
    command = rng.choice(commands)
    c = subprocess.Popen([a.tern, "ctl", "--socket", sock, *command.split()], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(rng.uniform(0, 0.06))
    run.send_signal(signal.SIGKILL)
    run.wait()
    c.kill()
    c.wait()
    try:
        previous = read_state()
        whole += 1
    except Exception as e:  # noqa: BLE001 - any failure to read is a torn file
        torn += 1
        print(f"kill {k} during `{command}`: torn state file: {e}")
        previous = {}
print(f"{a.kills} kills in {time.time() - t0:.0f} s: state file whole {whole}, torn {torn}; "
      f"trips resumed at the next start {resumed}, not resumed {not_resumed}")
sys.exit(1 if torn or not_resumed else 0)
