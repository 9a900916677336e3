#!/usr/bin/env python3
"""Map matching: Tern against Valhalla's trace_attributes on the same simulated drives.

`tern bench-match --export DIR` writes one JSON file per drive: the noisy 1 Hz fixes as a
Valhalla `shape` (lat, lon, time), the true position and OSM way of each fix, and Tern's decided
match for each fix (gate + Kalman filter + HMM, as in the car; null where the gate rejected the
fix). This script sends every drive to Valhalla (`Actor.trace_attributes`, costing auto,
shape_match map_snap, default gps_accuracy and search_radius) and scores both matchers per fix
with the same rules:

  same way    the matched OSM way is the way the car was on (strict: at a junction the
              neighbouring way counts as wrong for both);
  error       distance from the matched point to the true position (unmatched: not counted
              in the error, counted as wrong way).

Time per point: Valhalla's is the wall time of the trace_attributes call (request pre-serialised,
response parsed outside the timer), best of --passes calls, summed over the drives and divided
by all their points; Tern's is measured inside `tern bench-match` (the chain's time over whole
drives, best of its passes, divided by the fixes) and passed in with --tern-us.

    .bench/venv/bin/python bench/valhalla_match.py --tiles .bench/valhalla/heidelberg \
        --traces .bench/match/heidelberg --tern-us 12.5

Standard library + valhalla only. Tiles come from bench/valhalla_baseline.py.
"""

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

import valhalla


def distance_m(a_lat, a_lon, b_lat, b_lon):
    """Equirectangular distance, metres (good to well under 1% over a few hundred metres)."""
    k = math.pi / 180
    x = (b_lon - a_lon) * k * math.cos((a_lat + b_lat) / 2 * k)
    y = (b_lat - a_lat) * k
    return 6371008.8 * math.hypot(x, y)


def percentile(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(p / 100 * len(s)) - 1))]


class Score:
    def __init__(self):
        self.points = 0
        self.same_way = 0
        self.errors = []

    def add(self, matched, truth):
        """matched: (lat, lon, way_id) or None; truth: dict with lat, lon, way_id."""
        self.points += 1
        if matched is None:
            return
        lat, lon, way = matched
        if way == truth["way_id"]:
            self.same_way += 1
        self.errors.append(distance_m(lat, lon, truth["lat"], truth["lon"]))

    def summary(self):
        return {
            "points": self.points,
            "same_way": round(self.same_way / max(1, self.points), 4),
            "matched": len(self.errors),
            "median_error_m": round(statistics.median(self.errors), 2) if self.errors else None,
            "p95_error_m": round(percentile(self.errors, 95), 2) if self.errors else None,
        }


def valhalla_points(response, n):
    """Per input point (lat, lon, way_id) or None, from a trace_attributes response."""
    edges = response.get("edges", [])
    out = []
    for mp in response.get("matched_points", []):
        idx = mp.get("edge_index")
        if mp.get("type") == "unmatched" or idx is None or idx >= len(edges) or idx < 0:
            out.append(None)
            continue
        out.append((mp["lat"], mp["lon"], edges[idx].get("way_id")))
    out += [None] * (n - len(out))
    return out[:n]


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--tiles", required=True, help="directory with valhalla_tiles.tar (bench/valhalla_baseline.py)")
    ap.add_argument("--pbf", help="build the tiles from this extract when the directory has none")
    ap.add_argument("--traces", required=True, help="directory written by tern bench-match --export")
    ap.add_argument("--tern-us", type=float, required=True, help="Tern's mean µs per fix from the same run (total time / fixes, like Valhalla's)")
    ap.add_argument("--passes", type=int, default=3, help="time each drive this many times, keep the best")
    ap.add_argument("--json", help="write the summary here")
    a = ap.parse_args(argv)

    tiles = Path(a.tiles)
    if not (tiles / "valhalla_tiles.tar").is_file():
        if not a.pbf:
            sys.exit(f"no tiles in {tiles}: give --pbf to build them")
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from valhalla_baseline import build_tiles
        build_tiles(Path(a.pbf), tiles, os.cpu_count() or 1, False)
    config = valhalla.get_config(tile_extract=tiles / "valhalla_tiles.tar", tile_dir="")
    actor = valhalla.Actor(config)
    files = sorted(Path(a.traces).glob("*.json"))
    if not files:
        sys.exit(f"no traces in {a.traces}: run tern bench-match --export {a.traces} first")

    tern, val = Score(), Score()
    per_point_us = []
    total_ns, total_points = 0, 0
    failed = 0
    warmed = False
    for f in files:
        doc = json.loads(f.read_text())
        shape, truth, ours = doc["shape"], doc["truth"], doc["tern"]
        request = json.dumps({
            "shape": shape, "costing": "auto", "shape_match": "map_snap",
            "filters": {"attributes": ["edge.way_id", "matched.point", "matched.type", "matched.edge_index"],
                        "action": "include"},
        })
        if not warmed:
            try:
                actor.trace_attributes(request)
            except RuntimeError:
                pass
            warmed = True
        best = None
        raw = None
        for _ in range(max(1, a.passes)):
            t0 = time.perf_counter_ns()
            try:
                raw = actor.trace_attributes(request)
            except RuntimeError as e:  # Valhalla raises when it cannot match a trace at all
                raw = None
                print(f"{f.name}: valhalla failed: {e}", file=sys.stderr)
                break
            t1 = time.perf_counter_ns()
            best = t1 - t0 if best is None else min(best, t1 - t0)
        if raw is None:
            failed += 1
            matched = [None] * len(shape)
        else:
            per_point_us.append(best / 1000 / len(shape))
            total_ns += best
            total_points += len(shape)
            matched = valhalla_points(json.loads(raw) if isinstance(raw, str) else raw, len(shape))
        for k, t in enumerate(truth):
            val.add(matched[k], t)
            o = ours[k]
            tern.add(None if o is None else (o["lat"], o["lon"], o["way_id"]), t)

    vs, ts = val.summary(), tern.summary()
    # like Tern's figure: the whole time over all points (the per-drive median is also given)
    v_us = total_ns / 1000 / total_points if total_points else float("nan")
    summary = {"drives": len(files), "valhalla_failed": failed, "tern": ts, "valhalla": vs,
               "tern_us_per_point": a.tern_us, "valhalla_us_per_point": round(v_us, 1),
               "valhalla_us_per_point_median_drive": round(statistics.median(per_point_us), 1) if per_point_us else None,
               "cost_ratio": round(v_us / a.tern_us, 1) if a.tern_us > 0 else None}
    print(f"{len(files)} drives, {ts['points']} points (valhalla failed on {failed} drives)")
    print(f"{'':24}{'tern':>12}{'valhalla':>12}")
    print(f"{'same way as the car':24}{ts['same_way'] * 100:>11.2f}%{vs['same_way'] * 100:>11.2f}%")
    print(f"{'matched points':24}{ts['matched']:>12}{vs['matched']:>12}")
    print(f"{'error median':24}{ts['median_error_m']:>10.2f} m{vs['median_error_m']:>10.2f} m")
    print(f"{'error p95':24}{ts['p95_error_m']:>10.2f} m{vs['p95_error_m']:>10.2f} m")
    print(f"{'time per point':24}{a.tern_us:>9.1f} µs{v_us:>9.1f} µs   Valhalla/Tern = {summary['cost_ratio']}")
    if a.json:
        Path(a.json).write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
