#!/usr/bin/env python3
"""Navigation on simulated drives: off-route events, reroutes and arrivals.

For the first N benchmark queries of an extract, `tern simulate` drives the route with receiver
noise (3 m, seed = query number) and a 40 s outage (a tunnel) two minutes in, and
`tern replay --direct` runs the whole appliance pipeline on it (gate, filter, matcher,
navigator). Clean drives should give no off-route event and arrive every time; with
`--wrong-turn K` each drive misses its K-th turn and should reroute once and still arrive.

Usage: python3 bench/nav_drives.py [--extract heidelberg] [--drives 60] [--wrong-turn K]
Needs .build/release/tern and .bench/<extract>.tmap (bash scripts/bench.sh makes both)."""
import argparse, glob, json, os, pathlib, subprocess, tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser()
ap.add_argument("--extract", default="heidelberg")
ap.add_argument("--drives", type=int, default=60)
ap.add_argument("--wrong-turn", type=int, default=0)
a = ap.parse_args()
tern = str(ROOT / ".build/release/tern")
tmap = str(ROOT / ".bench" / f"{a.extract}.tmap")
queries = json.load(open(ROOT / ".." / "shared/data/bench" / f"{a.extract}-queries.json"))["queries"][: a.drives]
tot = dict(drives=0, off_route=0, reroutes=0, arrived=0, quiet_replans=0, simulate_failed=0)
with tempfile.TemporaryDirectory() as work:
    for i, q in enumerate(queries):
        s, t = q["locations"][0], q["locations"][-1]
        nmea = os.path.join(work, f"{i}.nmea")
        cmd = [tern, "simulate", "--map", tmap, "--from", f"{s[0]},{s[1]}", "--to", f"{t[0]},{t[1]}", "--noise", "3",
               "--seed", str(i + 1), "--outage", "40@120", "-o", nmea]
        if a.wrong_turn:
            cmd += ["--wrong-turn", str(a.wrong_turn)]
        if subprocess.run(cmd, capture_output=True).returncode != 0:
            tot["simulate_failed"] += 1
            continue
        logs = os.path.join(work, f"log{i}")
        subprocess.run([tern, "replay", nmea, "--map", tmap, "--to", f"{t[0]},{t[1]}", "--direct", "--mute", "--quiet",
                        "--log-dir", logs], capture_output=True)
        events = open(glob.glob(logs + "/*/events.jsonl")[0]).read()
        tot["drives"] += 1
        tot["off_route"] += events.count('"event":"offRoute"')
        tot["reroutes"] += events.count('"event":"rerouteStarted"')
        tot["arrived"] += events.count('"event":"arrived"')
        tot["quiet_replans"] += max(0, events.count('"reason":"start"') - 1)
print(json.dumps(tot))
