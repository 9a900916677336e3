#!/usr/bin/env python3
"""OSRM 26.10 CH baseline for Tern: time route queries in-process with the osrm-bindings wheel.

Install (Python 3.12 or later; bench/osrm_peer.py says more):

    python3.12 -m venv .bench/osrm-venv
    .bench/osrm-venv/bin/pip install osrm-bindings==26.10.0

Run (the OSRM venv's python; bench/run.py does this for each extract unless --no-osrm):

    .bench/osrm-venv/bin/python bench/osrm_baseline.py --extract heidelberg \
        --queries ../shared/data/bench/heidelberg-queries.json --passes 5 --json .bench/osrm-heidelberg.json

What it does:
  1. Data: .bench/osrm/<extract>/<extract>.osrm*, OSRM's shipped car.lua, osrm-extract +
     osrm-contract (contraction hierarchies), built on first use from --pbf-dir and shared with
     bench/valhalla_turns.py and bench/turns_three_way.py (bench/osrm_peer.py builds it).
  2. osrm.OSRM(algorithm CH, no shared memory, no mmap: the files read into this process, as
     osrm-routed does by default), timed: "map open".
  3. One RouteParameters per query, built beforehand: the query's locations in order, steps on
     (OSRM's guidance: maneuver type, modifier, exit, names), full overview geometry in polyline6,
     no hints: what a Tern route holds (shape and maneuvers).
  4. A warm-up pass over all queries, not counted (as `tern bench`'s pass 0), then --passes passes;
     time.perf_counter_ns around each OSRM.Route(params) call alone: libosrm snapping the
     locations, the CH search, unpacking the path, assembling the steps and building the answer
     as the bindings' JSON object on the C++ side. No HTTP, no request parsing (the parameters
     are built beforehand) and no JSON text (the bindings do not serialise); the answer is read
     into Python outside the timer. Per-query figure = median over passes; median, p95 and p99
     over the queries by nearest rank, as `tern bench` computes them, so the ratios compare like
     with like.
  5. Prints ok/failed, the route times, engine init and peak RSS (ru_maxrss, the interpreter
     included, as for Valhalla), and writes --json {"summary": {...}, "results": [...]}.

Standard library + osrm only.
"""

import argparse
import json
import math
import os
import platform
import resource
import statistics
import sys
import time
from pathlib import Path

import osrm

sys.path.insert(0, str(Path(__file__).resolve().parent))
from osrm_peer import build_osrm  # noqa: E402

SHARED = (Path(__file__).resolve().parent.parent / ".." / "shared").resolve()


def rss_kb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def nearest_rank(sorted_values, p):
    """As `tern bench` (BenchCommand.percentile): the value of rank ceil(p/100 * n)."""
    rank = math.ceil(p / 100 * len(sorted_values)) - 1
    return sorted_values[min(len(sorted_values) - 1, max(0, rank))]


def stats(values):
    if not values:
        return {"n": 0}
    v = sorted(values)
    return {"n": len(v), "min": round(v[0], 1), "median": round(statistics.median(v), 1),
            "p95": round(nearest_rank(v, 95), 1), "p99": round(nearest_rank(v, 99), 1),
            "max": round(v[-1], 1), "mean": round(statistics.fmean(v), 1)}


def route_parameters(q):
    return osrm.RouteParameters(coordinates=[(lon, lat) for lat, lon in q["locations"]], steps=True,
                                overview="full", geometries="polyline6", generate_hints=False)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--extract", required=True, help="name of ../shared/data/osm/<extract>.osm.pbf")
    ap.add_argument("--queries", required=True, type=Path)
    ap.add_argument("--pbf-dir", default=str(SHARED / "data" / "osm"), help="OSRM's data is built from <dir>/<extract>.osm.pbf")
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--json", type=Path, help="write summary + per-query results here")
    a = ap.parse_args(argv)

    base = build_osrm(a.extract, a.pbf_dir)
    data_bytes = sum(f.stat().st_size for f in base.parent.glob(f"{base.name}*"))
    queries = json.loads(a.queries.read_text())["queries"]
    params = [route_parameters(q) for q in queries]

    rss_before = rss_kb()
    t0 = time.perf_counter_ns()
    engine = osrm.OSRM(storage_config=str(base), algorithm="CH", use_shared_memory=False, use_mmap=False)
    init_ms = (time.perf_counter_ns() - t0) / 1e6
    rss_after = rss_kb()

    n = len(queries)
    times_ns = [[] for _ in range(n)]
    answers, errors = [None] * n, [None] * n
    load_before = os.getloadavg()[0]
    loop_t0 = time.perf_counter_ns()
    for p in range(a.passes + 1):  # pass 0 warms the caches and is not counted
        for i, par in enumerate(params):
            t = time.perf_counter_ns()
            try:
                r = engine.Route(par)
            except RuntimeError as e:  # NoRoute, NoSegment and the like
                r, errors[i] = None, str(e)
            dt = time.perf_counter_ns() - t
            if p == 0:
                answers[i] = r
            else:
                times_ns[i].append(dt)
    loop_wall_s = (time.perf_counter_ns() - loop_t0) / 1e9
    load_after = os.getloadavg()[0]

    results, ok_us = [], []
    for i, q in enumerate(queries):
        micros = statistics.median(times_ns[i]) / 1e3
        res = {"id": q["id"], "ok": False, "length_m": None, "micros": round(micros, 1)}
        r = answers[i]
        if r is not None and r["code"] == "Ok":
            route = r["routes"][0]
            res.update(ok=True, length_m=round(route["distance"], 1), time_s=route["duration"],
                       steps=sum(len(leg["steps"]) for leg in route["legs"]))
            ok_us.append(micros)
        else:
            res["error"] = errors[i] or (r["code"] if r is not None else None)
        results.append(res)

    s = stats(ok_us)
    summary = {
        "engine": "osrm", "algorithm": "CH", "osrm_bindings_version": "26.10.0",
        "python": platform.python_version(), "cpus": os.cpu_count(), "data": str(base), "data_bytes": data_bytes,
        "queries_file": str(a.queries), "n_queries": n, "n_ok": len(ok_us), "n_failed": n - len(ok_us),
        "passes": a.passes,
        "timer": "time.perf_counter_ns around OSRM.Route(RouteParameters) only (snapping, CH search, unpacking, "
                 "steps, the answer as the bindings' C++ JSON object); parameters built beforehand, no HTTP, no JSON "
                 "text; one uncounted warm-up pass; per-query = median over passes; percentiles by nearest rank",
        "route_us": s, "engine_init_ms": round(init_ms, 2), "use_mmap": False,
        "rss_mb_before_engine": round(rss_before / 1024, 1), "rss_mb_after_engine": round(rss_after / 1024, 1),
        "peak_rss_mb": round(rss_kb() / 1024, 1), "loop_wall_s": round(loop_wall_s, 3),
        "loadavg_1m_before_after": [load_before, load_after],
    }
    print(f"queries: {summary['n_ok']} ok, {summary['n_failed']} failed ({a.passes} passes + 1 warm-up)")
    print(f"OSRM.Route per query (median over passes): median {s.get('median')} us, p95 {s.get('p95')} us, "
          f"p99 {s.get('p99')} us (min {s.get('min')}, max {s.get('max')}, mean {s.get('mean')})")
    print(f"engine init {init_ms:.2f} ms; data {data_bytes / 1e6:.1f} MB; peak RSS {summary['peak_rss_mb']} MB "
          f"(before the engine {rss_before / 1024:.1f} MB); loadavg 1m {load_before:.2f} -> {load_after:.2f}")
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps({"summary": summary, "results": results}, indent=1))
        print(f"wrote {a.json}")
    return 0 if ok_us else 1


if __name__ == "__main__":
    sys.exit(main())
