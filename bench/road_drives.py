#!/usr/bin/env python3
"""The road drive set: a fixed, seeded set of drives harder than the bench's own, judged by the
targets of issue #24.

Per extract, the first N benchmark queries; the simulated car drives the route OSRM or Valhalla
gives (bench/peer_routes.py), not Tern's, with the road receiver and driver of
`tern simulate --model road` (bias wandering 2-5 m over 1-5 min, multipath bursts, 1% outliers of
30-60 m, course noise growing as the car slows, stops and crawls). Query i is, by i % 4:
  0 follow   the peer's route, start to end;
  1 detour   the peer's route with a detour of a few hundred metres off it a third of the way,
             the driver ignoring Tern's new route until back on the peer's;
  2 divided  the peer's route, the destination asked for 20 m to one side of where the car stops
             (across a divided road, or beside it);
  3 twice    out along the peer's route and back along the same streets to a point nearer the
             start (a waypoint at the far end): a route that uses a street twice.
Each drive goes through `tern replay --direct` (the appliance's engine) and is judged on what the
car really did (`--truth`):
  - arrival at the destination;
  - false off-routes: the car stays within 20 m of the route Tern was following for the 10 s after;
  - detection: where the car goes 10 m clear of Tern's route (and stays clear 5 s), the first
    off-route (or quiet re-plan) within 5 s and 50 m of that moment;
  - reroutes: the most in any 20 s (at most one is the target).

Usage: python3 bench/road_drives.py [--extracts ...] [--drives 50] [--verbose] [--only KIND] [--names X-i,...]
       [--rate 20: through gpsfake and gpsd, as the car reads fixes, instead of --direct]
Needs .build/release/tern, .bench/<extract>.tmap and .bench/road/<extract>-peers.json."""
import argparse, bisect, datetime, glob, json, math, os, pathlib, re, shutil, subprocess, sys, tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from polyline import along, decode, point_at, vias_along, xy  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--extracts", default="heidelberg,monaco,andorra,liechtenstein")
ap.add_argument("--drives", type=int, default=50)
ap.add_argument("--only", choices=["follow", "detour", "divided", "twice"])
ap.add_argument("--verbose", action="store_true")
ap.add_argument("--keep", help="keep the drives' folders here")
ap.add_argument("--replay-with", help="another tern binary to replay the same drives with (an older build, for comparison)")
ap.add_argument("--rate", type=float, help="replay through gpsfake and gpsd at this rate (as the car reads fixes) instead of --direct")
ap.add_argument("--names", help="only these drives, e.g. andorra-6,heidelberg-21 (extract-query)")
a = ap.parse_args()
KINDS = ["follow", "detour", "divided", "twice"]
tern = str(ROOT / ".build/release/tern")


def when(iso):
    return datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def dist_to_line(p, line, course=None):
    """Metres from p to the polyline (local plane); with `course`, only to segments within 60°
    of it (a car driving a street the wrong way, or back along a street the route takes twice,
    is not on the route there)."""
    lat0 = p[0]
    px, py = xy(p, lat0)
    best = float("inf")
    pts = [xy(q, lat0) for q in line]
    for (ax, ay), (bx, by) in zip(pts, pts[1:]):
        dx, dy = bx - ax, by - ay
        L = dx * dx + dy * dy
        if course is not None and L > 0.25:
            bearing = math.degrees(math.atan2(dx, dy)) % 360
            if abs((bearing - course + 180) % 360 - 180) > 60:
                continue
        f = 0 if L == 0 else max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / L))
        best = min(best, math.hypot(px - ax - f * dx, py - ay - f * dy))
    return best


def off_line(p, shape):
    """The car's distance from the route, its direction counting while it moves."""
    return dist_to_line([p["lat"], p["lon"]], shape, p["course"] if p["speed"] > 2 else None)


def offset(p, bearing_from, bearing_to, metres, side):
    """p moved `metres` square to the direction from->to, to the left (side -1) or right (+1)."""
    lat0 = p[0]
    (ax, ay), (bx, by) = xy(bearing_from, lat0), xy(bearing_to, lat0)
    dx, dy = bx - ax, by - ay
    n = math.hypot(dx, dy) or 1
    nx, ny = dy / n * side, -dx / n * side
    k = math.cos(math.radians(lat0))
    return [p[0] + math.degrees(ny * metres / 6371008.8), p[1] + math.degrees(nx * metres / 6371008.8 / k)]


def fmt(p):
    return f"{p[0]:.7f},{p[1]:.7f}"


def plan(kind, route, seed):
    """(simulate's points, replay's vias, replay's destination) for a drive of this kind."""
    shape = route["shape"]
    cum = along(shape)
    total = cum[-1]
    start, end = shape[0], shape[-1]
    if kind == "follow" or total < 1200:
        return [start] + vias_along(shape, cum, 0, total) + [end], [], end
    if kind == "detour":
        s0 = total * 0.33
        p, i = point_at(shape, cum, s0)
        side = 1 if seed % 2 else -1
        away = offset(p, shape[i], shape[i + 1], 350, side)
        back = total * 0.5
        return ([start] + vias_along(shape, cum, 0, s0) + [away] + [point_at(shape, cum, back)[0]]
                + vias_along(shape, cum, back, total) + [end]), [], end
    if kind == "divided":
        side = 1 if seed % 2 else -1
        return [start] + vias_along(shape, cum, 0, total) + [end], [], offset(end, shape[-2], shape[-1], 20, side)
    # twice: out to 55%, and back to 25% the way the router goes (on two-way streets, the same
    # ones; points along the outward line, taken backwards, would send the car round every
    # one-way carriageway's next junction)
    far, back = total * 0.55, total * 0.25
    far_p = point_at(shape, cum, far)[0]
    outward = vias_along(shape, cum, 0, far)
    back_p = point_at(shape, cum, back)[0]
    return [start] + outward + [far_p] + [back_p], [far_p], back_p


def judge(events, truth):
    """The figures of one drive."""
    routes = []  # (time, shape) of each route Tern followed
    offs, detections, reroutes, arrived, arrived_at = [], [], [], False, None
    starts = 0
    for line in events.splitlines():
        e = json.loads(line)
        t = when(e["t"])
        if e["event"] == "routeComputed":
            routes.append((t, decode(e["shape"])))
            if e["reason"] == "start":
                starts += 1
                if starts > 1:
                    detections.append(t)  # a quiet re-plan from a standing car
        elif e["event"] == "offRoute":
            offs.append((t, e.get("reason")))
            detections.append(t)
        elif e["event"] == "rerouteStarted":
            reroutes.append(t)
        elif e["event"] == "arrived":
            arrived = True
            arrived_at = t
    times = [r[0] for r in routes]

    def active(t):
        # (after the final arrival there is no route to follow, nor to leave)
        if arrived and t >= arrived_at:
            return None
        k = bisect.bisect_right(times, t) - 1
        return routes[k][1] if k >= 0 else None

    tt = [p["t"] for p in truth]
    false_offs = []
    for t, reason in offs:
        shape = active(t - 1e-6)
        window = [p for p in truth if t <= p["t"] <= t + 10]
        if shape and window and max(off_line(p, shape) for p in window) <= 20:
            false_offs.append((t, reason))
    # departures: 10 m clear of the active route, staying clear 5 s, the car moving
    d = []
    for p in truth:
        shape = active(p["t"])
        d.append(off_line(p, shape) if shape else 0.0)
    departures, caught = [], []
    for k in range(1, len(truth) - 5):
        if d[k - 1] <= 10 < d[k] and all(x > 10 for x in d[k:k + 5]) and truth[k]["speed"] > 1:
            t_clear = tt[k]
            seen = [x for x in detections if t_clear - 8 <= x <= t_clear + 60]
            if not seen:
                departures.append((t_clear, None, None))
                continue
            t_seen = seen[0]
            j = min(len(truth) - 1, bisect.bisect_left(tt, t_seen))
            metres = 0.0
            if t_seen > t_clear:
                (ax, ay), (bx, by) = xy([truth[k]["lat"], truth[k]["lon"]], truth[k]["lat"]), xy([truth[j]["lat"], truth[j]["lon"]], truth[k]["lat"])
                metres = math.hypot(bx - ax, by - ay)
            departures.append((t_clear, max(0.0, t_seen - t_clear), metres))
    most_in_20s = max((sum(1 for y in reroutes if x <= y < x + 20) for x in reroutes), default=0)
    off_seconds = sum(1 for x in d if x > 20)
    return dict(arrived=arrived, offs=len(offs), false_offs=false_offs, departures=departures, reroutes=len(reroutes),
                most_in_20s=most_in_20s, off_seconds=off_seconds)


tot = dict(drives=0, arrived=0, off_routes=0, false_off_routes=0, departures=0, caught_5s_50m=0, not_caught=0,
           reroutes=0, off_route_seconds=0, worst_reroutes_in_20s=0, simulate_failed=0)
by_kind = {k: dict(drives=0, arrived=0, false=0, caught=0, departures=0) for k in KINDS}
delays = []
work = a.keep or tempfile.mkdtemp(prefix="tern-road-")
os.makedirs(work, exist_ok=True)
for name in a.extracts.split(","):
    tmap = str(ROOT / ".bench" / f"{name}.tmap")
    peers_file = ROOT / ".bench" / "road" / f"{name}-peers.json"
    if not os.path.exists(tmap) or not peers_file.exists():
        sys.exit(f"{name}: needs {tmap} (bash scripts/bench.sh) and {peers_file} "
                 "(.bench/venv/bin/python bench/peer_routes.py)")
    peers = json.load(open(peers_file))["routes"][: a.drives]
    for i, route in enumerate(peers):
        kind = KINDS[i % 4]
        if not route["shape"] or (a.only and kind != a.only) or (a.names and f"{name}-{i}" not in a.names.split(",")):
            continue
        seed = 1000 + i
        points, vias, dest = plan(kind, route, seed)
        base = os.path.join(work, f"{name}-{i}")
        cmd = [tern, "simulate", "--map", tmap, "--from", fmt(points[0]), "--to", fmt(points[-1]), "--model", "road",
               "--seed", str(seed), "--truth", base + ".truth", "-o", base + ".nmea"]
        for v in points[1:-1]:
            cmd += ["--via", fmt(v)]
        sim = subprocess.run(cmd, capture_output=True, text=True)
        km = re.search(r", ([\d.]+) km", sim.stderr)
        if sim.returncode == 0 and km and float(km.group(1)) * 1000 > 3 * along(route["shape"])[-1] + 2000:
            # the points sent the simulated car round in loops (a waypoint it cannot turn at):
            # not a drive anyone makes
            tot["simulate_looped"] = tot.get("simulate_looped", 0) + 1
            continue
        if sim.returncode != 0:
            tot["simulate_failed"] += 1
            if a.verbose:
                print(name, i, kind, "simulate failed:", sim.stderr.strip()[-200:])
            continue
        pace = ["--rate", str(a.rate)] if a.rate else ["--direct"]
        cmd = [a.replay_with or tern, "replay", base + ".nmea", "--map", tmap, "--to", fmt(dest)] + pace + ["--mute", "--quiet", "--log-dir", base]
        for v in vias:
            cmd += ["--via", fmt(v)]
        # (a drive folder kept from an earlier run would hold that run's log too)
        shutil.rmtree(base, ignore_errors=True)
        if a.keep:  # (the command, to replay one drive again by hand)
            open(base + ".cmd", "w").write(" ".join(cmd) + "\n")
        subprocess.run(cmd, capture_output=True)
        events = open(glob.glob(base + "/*/events.jsonl")[0]).read()
        truth = [json.loads(l) for l in open(base + ".truth")]
        r = judge(events, truth)
        tot["drives"] += 1
        tot["arrived"] += r["arrived"]
        tot["off_routes"] += r["offs"]
        tot["false_off_routes"] += len(r["false_offs"])
        tot["reroutes"] += r["reroutes"]
        tot["off_route_seconds"] += r["off_seconds"]
        tot["worst_reroutes_in_20s"] = max(tot["worst_reroutes_in_20s"], r["most_in_20s"])
        k = by_kind[kind]
        k["drives"] += 1
        k["arrived"] += r["arrived"]
        k["false"] += len(r["false_offs"])
        for t_clear, s, m in r["departures"]:
            tot["departures"] += 1
            k["departures"] += 1
            if s is None:
                tot["not_caught"] += 1
            else:
                delays.append((s, m))
                if s <= 5 and m <= 50:
                    tot["caught_5s_50m"] += 1
                    k["caught"] += 1
        if a.verbose and (not r["arrived"] or r["false_offs"] or any(s is None or s > 5 or m > 50 for _, s, m in r["departures"]) or r["most_in_20s"] > 1):
            print(name, i, kind, route["peer"], "arrived" if r["arrived"] else "NOT ARRIVED",
                  "false:", [(datetime.datetime.utcfromtimestamp(t).strftime("%H:%M:%S"), why) for t, why in r["false_offs"]],
                  "departures:", [(datetime.datetime.utcfromtimestamp(t).strftime("%H:%M:%S"), s, None if m is None else round(m)) for t, s, m in r["departures"]],
                  "most reroutes in 20 s:", r["most_in_20s"], base)
if delays:
    s_sorted = sorted(x[0] for x in delays)
    m_sorted = sorted(x[1] for x in delays)
    tot["detect_s_median"], tot["detect_s_max"] = s_sorted[len(s_sorted) // 2], s_sorted[-1]
    tot["detect_m_median"], tot["detect_m_max"] = round(m_sorted[len(m_sorted) // 2], 1), round(m_sorted[-1], 1)
tot["by_kind"] = by_kind
print(json.dumps(tot))
