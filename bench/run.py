#!/usr/bin/env python3
"""Tern's routing benchmarks, with Valhalla and OSRM measured in the same run on the same machine.

Prints, per extract: import time, file size and peak RSS; map open time and open-to-first-route;
per-query route time (median, p95, p99; snapping + search + unpacking + guidance, in-process);
peak RSS while routing; Valhalla's tile build time, per-query time and RSS; OSRM 26.10 CH's
per-query time, engine init and RSS on the same queries (bench/osrm_baseline.py: OSRM.Route
in-process, steps on, no HTTP); the ratios (Tern ÷ peer); and route length agreement with
Valhalla. Then a scale curve on heidelberg tiled N×N (N = 1, 2, 4, 8) with
../shared/tools/tile-osm.py, with queries spread over the tiles.

    python3 bench/run.py [--extracts heidelberg,...] [--scale 1,2,4,8] [--no-valhalla] [--no-osrm]
        [--passes 5] [--tern BIN]

Run through scripts/bench.sh (release build, venv with pyvalhalla 3.9.1 and pyosmium). OSRM runs
from .bench/osrm-venv (osrm-bindings 26.10.0, bench/osrm_peer.py says how to install it); without
it the OSRM column is left out with a note. Needs ../shared (data and tools) beside the repository.
"""
import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time

from tern_bench import peak_rss_kb
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = (ROOT / ".." / "shared").resolve()
WORK = ROOT / ".bench"
TERN = ROOT / ".build" / "release" / "tern"


def run(cmd, **kw):
    """Runs a command; returns (stdout, wall seconds, peak RSS KiB of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return out.stdout, wall, max(after, before)


def tern_import(pbf, out):
    _, wall, _ = run([str(TERN), "import", str(pbf), "-o", str(out), "--quiet"])
    rss = peak_rss_kb([str(TERN), "import", str(pbf), "-o", str(out) + ".rss", "--quiet"])
    os.unlink(str(out) + ".rss")
    return wall, os.path.getsize(out), rss


def tern_bench(tmap, queries, passes):
    out, _, _ = run([str(TERN), "bench", "--map", str(tmap), "--queries", str(queries), "--passes", str(passes), "--json"])
    return json.loads(out)


def valhalla(pbf, queries, name, passes, python):
    result = WORK / f"valhalla-{name}.json"
    run([python, str(ROOT / "bench" / "valhalla_baseline.py"), "--pbf", str(pbf), "--queries", str(queries),
         "--work", str(WORK / "valhalla" / name), "--passes", str(passes), "--json", str(result), "--rebuild"])
    return json.loads(result.read_text())


def osrm(name, queries, passes, python):
    result = WORK / f"osrm-{name}.json"
    run([python, str(ROOT / "bench" / "osrm_baseline.py"), "--extract", name, "--queries", str(queries),
         "--passes", str(passes), "--json", str(result)])
    return json.loads(result.read_text())


def ratio(ours, theirs):
    """Tern's figure against a peer's: "1/14" where the peer takes twice as long or more (as the
    tables in docs/benchmarks.md give it), else Tern ÷ peer ("0.81", "1.20")."""
    return f"1/{theirs / ours:.0f}" if theirs >= 2 * ours else f"{ours / theirs:.2f}"


def length_agreement(tmap, name):
    out, _, _ = run([str(TERN), "route", "--map", str(tmap), "--queries", str(SHARED / "data" / "bench" / f"{name}-queries.json"), "--json"])
    ours = {r["id"]: r for r in json.loads(out)}
    ref = {r["id"]: r for r in json.loads((SHARED / "data" / "bench" / f"valhalla-{name}.json").read_text())["results"]}
    within = sum(1 for k, r in ours.items() if r.get("ok") and k in ref and ref[k].get("length_m")
                 and abs(r["distance_m"] / ref[k]["length_m"] - 1) <= 0.10)
    return within, len(ours)


def tiled_queries(pbf, n, base_queries, out):
    """Heidelberg's queries, each moved into a random tile of the N×N map (seeded). Both ends stay in
    one tile: the border roads tile-osm.py links are clipped fragments of the extract, which the car
    profile does not connect to the network, so routes between tiles mostly do not exist."""
    import osmium
    lons, lats = [], []

    class H(osmium.SimpleHandler):
        def node(self, nd):
            lons.append(nd.location.lon)
            lats.append(nd.location.lat)
    H().apply_file(str(pbf))
    w, h = max(lons) - min(lons), max(lats) - min(lats)
    rng = random.Random(7)
    qs = []
    for q in json.loads(Path(base_queries).read_text())["queries"]:
        i, j = rng.randrange(n), rng.randrange(n)
        locs = [[lat + j * h, lon + i * w] for lat, lon in q["locations"]]
        qs.append({"id": q["id"], "locations": locs})
    Path(out).write_text(json.dumps({"queries": qs}))


def matching(names, python, no_valhalla, rounds=3):
    """Map matching on simulated drives: Tern's chain (gate + Kalman + HMM) and, on the same
    noisy fixes, Valhalla's trace_attributes (bench/valhalla_match.py). The two are timed in
    alternating rounds and the median of each is compared (this VM's speed wanders by ±20%)."""
    print(f"\n== map matching: 100 simulated 1 Hz drives per extract (3 m white noise + bias + outliers), {rounds} alternating rounds")
    for name in names:
        pbf = SHARED / "data" / "osm" / f"{name}.osm.pbf"
        tmap = WORK / f"{name}.tmap"
        if not tmap.exists():
            run([str(TERN), "import", str(pbf), "-o", str(tmap), "--quiet"])
        traces = WORK / "match" / name
        tern_us, val_us, b, v = [], [], None, None
        for r in range(rounds):
            cmd = [str(TERN), "bench-match", "--map", str(tmap), "--queries",
                   str(SHARED / "data" / "bench" / f"{name}-queries.json"), "--json"]
            out, _, _ = run(cmd + (["--export", str(traces)] if r == 0 else []))
            b = json.loads(out) if r == 0 else b
            tern_us.append(json.loads(out)["us_per_fix_mean"])
            if not no_valhalla:
                summary = WORK / "match" / f"valhalla-{name}.json"
                run([python, str(ROOT / "bench" / "valhalla_match.py"), "--tiles", str(WORK / "valhalla" / name),
                     "--pbf", str(pbf), "--traces", str(traces), "--tern-us", str(tern_us[-1]), "--json", str(summary)])
                v = json.loads(summary.read_text())
                val_us.append(v["valhalla_us_per_point"])
        t_med = statistics.median(tern_us)
        print(f"-- {name}: {b['fixes']} fixes; right road {b['right_road'] * 100:.2f}% (at once {b['right_road_provisional'] * 100:.2f}%), "
              f"matched vs truth median {b['median_error_m']} m p95 {b['p95_error_m']} m, "
              f"RMS raw {b['raw_rms_m']} m -> filtered {b['filtered_rms_m']} m "
              f"({(1 - b['filtered_rms_m'] / b['raw_rms_m']) * 100:.0f}% lower), flip-flops {b['road_flips']}, "
              f"per fix median {b['us_per_fix_median']} µs p99 {b['us_per_fix_p99']} µs")
        print(f"   tern µs per fix (mean over whole drives) by round: {tern_us}")
        if v:
            t, w = v["tern"], v["valhalla"]
            v_med = statistics.median(val_us)
            print(f"   valhalla µs per point by round: {val_us}")
            print(f"   {'':22}{'tern':>12}{'valhalla':>12}")
            print(f"   {'same way as the car':22}{t['same_way'] * 100:>11.2f}%{w['same_way'] * 100:>11.2f}%")
            print(f"   {'error median':22}{t['median_error_m']:>10.2f} m{w['median_error_m']:>10.2f} m")
            print(f"   {'error p95':22}{t['p95_error_m']:>10.2f} m{w['p95_error_m']:>10.2f} m")
            print(f"   {'µs per point (median)':22}{t_med:>12.2f}{v_med:>12.1f}   Valhalla/Tern = {v_med / t_med:.1f}")


def fmt_ms(s):
    return f"{s * 1000:.0f} ms" if s < 1 else f"{s:.2f} s"


def main():
    global TERN  # --tern: every step below runs the binary given
    ap = argparse.ArgumentParser()
    ap.add_argument("--extracts", default="heidelberg")
    ap.add_argument("--scale", default="1,2,4,8")
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds of tern bench (and OSRM CH) per extract")
    ap.add_argument("--no-valhalla", action="store_true")
    ap.add_argument("--no-osrm", action="store_true", help="leave out OSRM 26.10 CH (bench/osrm_baseline.py)")
    ap.add_argument("--match", default="monaco,andorra,liechtenstein,heidelberg", help="extracts for the map-matching part ('' skips it)")
    ap.add_argument("--python", default=str(WORK / "venv" / "bin" / "python"))
    ap.add_argument("--osrm-python", default=str(WORK / "osrm-venv" / "bin" / "python"),
                    help="Python >= 3.12 with osrm-bindings 26.10.0 (default .bench/osrm-venv)")
    ap.add_argument("--tern", default=str(TERN), help="tern binary (default .build/release/tern)")
    a = ap.parse_args()
    TERN = Path(a.tern).resolve()
    WORK.mkdir(exist_ok=True)
    if not TERN.exists():
        sys.exit(f"no {TERN}: build first (swift build -c release --product tern)")
    with_osrm = not a.no_osrm and Path(a.osrm_python).exists()
    if not a.no_osrm and not with_osrm:
        print(f"OSRM CH left out: no {a.osrm_python}. Install it (Python >= 3.12):\n"
              "    python3.12 -m venv .bench/osrm-venv && .bench/osrm-venv/bin/pip install osrm-bindings==26.10.0")

    for name in [e for e in a.extracts.split(",") if e]:
        pbf = SHARED / "data" / "osm" / f"{name}.osm.pbf"
        queries = SHARED / "data" / "bench" / f"{name}-queries.json"
        tmap = WORK / f"{name}.tmap"
        wall, size, rss = tern_import(pbf, tmap)
        # Tern and OSRM CH, whose route times are close, run in alternating rounds and each route
        # figure is the median over the rounds (as in matching()): this VM's speed wanders by ±20%
        # within a minute, enough to turn one run's ratio either way. OSRM's data is built once and
        # kept (bench/osrm_peer.py): no build figures, only routing.
        benches, osrms = [], []
        for _ in range(a.rounds):
            benches.append(tern_bench(tmap, queries, a.passes))
            if with_osrm:
                osrms.append(osrm(name, queries, a.passes, a.osrm_python)["summary"])
        b, osum = benches[0], (osrms[0] if osrms else {})

        def med(runs, key, k="median"):
            return statistics.median(r[key][k] for r in runs)

        within, total = length_agreement(tmap, name)
        print(f"\n== {name} ({os.path.getsize(pbf) / 1e6:.1f} MB .osm.pbf)")
        print(f"{'':28}{'tern':>14}{'valhalla':>14}{'ratio':>10}" + (f"{'osrm CH':>14}{'ratio':>10}" if with_osrm else ""))
        v = None if a.no_valhalla else valhalla(pbf, queries, name, 3, a.python)
        vs = v["summary"] if v else {}
        vb = vs.get("build", {})

        def row(label, ours, theirs, rat="", osrm_fig="-", osrm_rat=""):
            print(f"{label:28}{ours:>14}{theirs:>14}{rat:>10}" + (f"{osrm_fig:>14}{osrm_rat:>10}" if with_osrm else ""))
        row("import / tile build", fmt_ms(wall), f"{vb.get('build_wall_s', 0):.2f} s" if v else "-",
            f"{wall / vb['build_wall_s']:.2f}" if v and vb.get("build_wall_s") else "")
        row("file size", f"{size / 1e6:.1f} MB", f"{vb.get('tar_bytes', 0) / 1e6:.1f} MB" if v else "-", "",
            f"{osum['data_bytes'] / 1e6:.1f} MB" if osrms else "-")
        row("import peak RSS", f"{rss / 1024:.0f} MB", f"{vb.get('build_peak_rss_mb', 0):.0f} MB" if v else "-")
        row("map open", f"{b['open_ms']:.1f} ms", f"{vs.get('actor_init_ms', 0):.1f} ms" if v else "-", "",
            f"{osum['engine_init_ms']:.1f} ms" if osrms else "-")
        row("open to first route", f"{b['open_to_first_route_ms']:.1f} ms", "-")
        for k in ["median", "p95", "p99"]:
            ours = med(benches, "route_us", k)
            theirs = vs.get("actor_us", {}).get(k) if v else None
            osrm_us = med(osrms, "route_us", k) if osrms else None
            row(f"route {k}", f"{ours:.0f} µs", f"{theirs:.0f} µs" if theirs else "-", ratio(ours, theirs) if theirs else "",
                f"{osrm_us:.0f} µs" if osrm_us else "-", ratio(ours, osrm_us) if osrm_us else "")
        row("  snapping median", f"{med(benches, 'snap_us'):.0f} µs", "")
        row("  search+unpack median", f"{med(benches, 'search_us'):.0f} µs", "")
        row("  guidance median", f"{med(benches, 'guidance_us'):.0f} µs", "")
        row("peak RSS routing", f"{b['peak_rss_kb'] / 1024:.1f} MB", f"{vs.get('peak_rss_mb', 0):.1f} MB" if v else "-", "",
            f"{osum['peak_rss_mb']:.1f} MB" if osrms else "-")
        row("queries ok", f"{b['queries'] - b['failed']}/{b['queries']}", f"{vs.get('n_ok', '-')}/{vs.get('n_queries', '-')}" if v else "-", "",
            f"{osum['n_ok']}/{osum['n_queries']}" if osrms else "-")
        print(f"route length within 10% of Valhalla's (stored reference): {within}/{total}")
        if osrms:
            print(f"route time, in-process, per query the median of {a.passes} passes after a warm-up pass, percentiles by "
                  f"nearest rank, the median of {a.rounds} alternating rounds: tern = snapping + search + unpacking + guidance; "
                  f"osrm CH = OSRM.Route with steps (snapping, search, unpacking, steps, the answer as the bindings' JSON "
                  f"object; no HTTP); ratio = tern ÷ peer")
        print(f"route median by round: tern {[r['route_us']['median'] for r in benches]} µs"
              + (f", osrm CH {[r['route_us']['median'] for r in osrms]} µs" if osrms else ""))

    match = [e for e in a.match.split(",") if e]
    if match:
        matching(match, a.python, a.no_valhalla)

    scales = [int(s) for s in a.scale.split(",") if s]
    if scales:
        print("\n== scale curve: heidelberg tiled N×N (each query in a random tile)")
        print(f"{'N':>3}{'copies':>8}{'import':>10}{'imp RSS':>10}{'file':>10}{'open':>10}{'median':>10}{'p95':>10}{'p99':>10}{'RSS':>10}")
        base = SHARED / "data" / "osm" / "heidelberg.osm.pbf"
        for n in scales:
            pbf = WORK / f"heidelberg-x{n}.osm.pbf"
            if not pbf.exists():
                run([sys.executable, str(SHARED / "tools" / "tile-osm.py"), str(base), str(n), str(pbf)])
            q = WORK / f"heidelberg-x{n}-queries.json"
            tiled_queries(base, n, SHARED / "data" / "bench" / "heidelberg-queries.json", q)
            tmap = WORK / f"heidelberg-x{n}.tmap"
            wall, size, rss = tern_import(pbf, tmap)
            b = tern_bench(tmap, q, a.passes)
            print(f"{n:>3}{n * n:>8}{fmt_ms(wall):>10}{rss / 1024:>8.0f}MB{size / 1e6:>8.1f}MB{b['open_ms']:>8.1f}ms"
                  f"{b['route_us']['median']:>8.0f}µs{b['route_us']['p95']:>8.0f}µs{b['route_us']['p99']:>8.0f}µs{b['peak_rss_kb'] / 1024:>8.1f}MB")


if __name__ == "__main__":
    main()
