#!/usr/bin/env python3
"""Navigation on simulated drives: off-route events, reroutes and arrivals.

For the first N benchmark queries of an extract, `tern simulate` drives the route with receiver
noise (3 m, seed = query number) and a 40 s outage (a tunnel) two minutes in, and
`tern replay --direct` runs the whole appliance pipeline on it (gate, filter, matcher,
navigator). Clean drives should give no off-route event and arrive every time; with
`--wrong-turn K` each drive misses its K-th turn and should reroute once and still arrive; the
bench then measures, from where the simulated car really left the planned route (`tern simulate`
prints it), the seconds and metres to the off-route event and the milliseconds from it to the new
route's first prompt.

Usage: python3 bench/nav_drives.py [--extract heidelberg] [--drives 60] [--wrong-turn K] [--off-route tern|mapbox|osmand]
Needs .build/release/tern and .bench/<extract>.tmap (bash scripts/bench.sh makes both)."""
import argparse, datetime, glob, json, math, os, pathlib, re, subprocess, tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser()
ap.add_argument("--extract", default="heidelberg")
ap.add_argument("--drives", type=int, default=60)
ap.add_argument("--wrong-turn", type=int, default=0)
ap.add_argument("--off-route", default="tern")
ap.add_argument("--verbose", action="store_true")
a = ap.parse_args()


def when(iso):
    return datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def metres(p, q):
    k = math.cos(math.radians((p[0] + q[0]) / 2))
    return 6371008.8 * math.radians(math.hypot(p[0] - q[0], (p[1] - q[1]) * k))


def first_detection(events, since):
    """(time, last position) of the first off-route event, or re-plan from a standing car, at or
    after `since`; None when there is none."""
    last_pos, starts = None, 0
    for line in events.splitlines():
        e = json.loads(line)
        if e["event"] == "routeComputed" and e["reason"] == "start":
            starts += 1
            if starts == 1:
                continue  # the first route, not a detection
        if e["event"] == "position":
            last_pos = (e["lat"], e["lon"])
        elif (e["event"] == "offRoute" or (e["event"] == "routeComputed" and e["reason"] == "start")) \
                and when(e["t"]) >= since and last_pos:
            # (a route planned from a standing car is planned again quietly when the car shows it
            # drives the other way: that is the detection there)
            return when(e["t"]), last_pos
    return None


detect_s, detect_m, tunnel_s, not_detected = [], [], [], 0
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
        sim = subprocess.run(cmd, capture_output=True, text=True)
        if sim.returncode != 0:
            tot["simulate_failed"] += 1
            continue
        leave = re.search(r"turns off at (\S+), leaves the route at (\S+) ([-\d.]+),([-\d.]+)", sim.stderr)
        logs = os.path.join(work, f"log{i}")
        subprocess.run([tern, "replay", nmea, "--map", tmap, "--to", f"{t[0]},{t[1]}", "--direct", "--mute", "--quiet",
                        "--log-dir", logs, "--off-route", a.off_route], capture_output=True)
        events = open(glob.glob(logs + "/*/events.jsonl")[0]).read()
        if leave:
            # the car turns off the route (onto a road it does not take) at turned_t and is 10 m
            # clear of its line at left_t: an off-route event from turned_t on counts (backtracking
            # can see it before the car is clear), its delay measured from left_t
            turned_t = when(leave.group(1))
            left_t, left_at = when(leave.group(2)), (float(leave.group(3)), float(leave.group(4)))
            # left inside the tunnel (no fix): nothing can see it before the fixes return
            start_t = when(json.loads(events.split("\n", 1)[0])["t"])
            in_tunnel = any(start_t + 118 <= t < start_t + 160 for t in (turned_t, left_t))
            hidden = False
            back = re.search(r"back on it at (\S+)", sim.stderr)
            if in_tunnel and back and when(back.group(1)) < start_t + 160:
                # the whole detour happened without fixes: the car is on the route again when they
                # return, and there is nothing left to detect
                tot["detour_inside_tunnel"] = tot.get("detour_inside_tunnel", 0) + 1
                hidden = True
            elif in_tunnel:
                tot["left_in_tunnel"] = tot.get("left_in_tunnel", 0) + 1
                left_t = max(left_t, start_t + 160)
            if not hidden:
                seen = first_detection(events, min(turned_t, left_t - 1))
                if seen:
                    t_seen, at = seen
                    if in_tunnel:
                        tunnel_s.append(max(0, t_seen - left_t))
                    else:
                        detect_s.append(max(0, t_seen - left_t))
                        # seen before the car was 10 m clear (backtracking, the matcher): no distance
                        detect_m.append(metres(at, left_at) if t_seen > left_t else 0.0)
                not_detected += 0 if seen else 1
                if a.verbose:
                    print(i, leave.group(0), "detected" if seen else "NOT detected",
                          ("tunnel" if in_tunnel else f"{detect_s[-1]:.0f} s {detect_m[-1]:.0f} m") if seen else "",
                          "replans", max(0, events.count('"reason":"start"') - 1), "offRoute", events.count('"event":"offRoute"'))
        tot["drives"] += 1
        if a.verbose and not a.wrong_turn and '"event":"offRoute"' in events:
            print(i, [l for l in events.splitlines() if '"event":"offRoute"' in l])
        tot["off_route"] += events.count('"event":"offRoute"')
        tot["reroutes"] += events.count('"event":"rerouteStarted"')
        tot["arrived"] += events.count('"event":"arrived"')
        if '"event":"arrived"' not in events and '"event":"gpsLost"' in events.rsplit('"event":"gpsRecovered"', 1)[-1]:
            # the recording ends inside the simulated tunnel: arrival can only be estimated
            tot["ended_in_tunnel"] = tot.get("ended_in_tunnel", 0) + 1
        if a.verbose and '"event":"arrived"' not in events:
            print(i, "did not arrive:", [l[:160] for l in events.splitlines() if '"event":"offRoute"' in l or '"event":"rerouteFailed"' in l][-4:])
        tot["quiet_replans"] += max(0, events.count('"reason":"start"') - 1)
if detect_s:
    tot["wrong_turns_measured"] = len(detect_s)
    tot["within_5s_50m"] = sum(1 for s_, m_ in zip(detect_s, detect_m) if s_ <= 5 and m_ <= 50)
    detect_s.sort(); detect_m.sort()
    tot["detect_s_median"] = detect_s[len(detect_s) // 2]
    tot["detect_s_max"] = detect_s[-1]
    tot["detect_m_median"] = round(detect_m[len(detect_m) // 2], 1)
    tot["detect_m_max"] = round(detect_m[-1], 1)
    tot["left_route_not_detected"] = not_detected
if tunnel_s:
    tot["after_tunnel_s_max"] = max(tunnel_s)
tot["off_route_policy"] = a.off_route
print(json.dumps(tot))
