#!/usr/bin/env python3
"""Valhalla baseline for Tern: build Valhalla tiles for an OSM extract and time route queries.

Install (Python 3.12, pyvalhalla 3.9.1 ships the C++ tile builder inside the wheel);
scripts/bench.sh does this in .bench/venv:

    python3.12 -m venv .bench/venv
    .bench/venv/bin/pip install pyvalhalla==3.9.1     # ~38 MB manylinux wheel

Run (use the venv's python; no PATH/activation needed):

    .bench/venv/bin/python bench/valhalla_baseline.py \
        --pbf ../shared/data/osm/heidelberg.osm.pbf \
        --queries ../shared/data/bench/heidelberg-queries.json \
        --work .bench/valhalla/heidelberg --passes 3 --json .bench/valhalla-heidelberg.json

What it does (mirrors the method in ../shared/data/bench/valhalla-<extract>.json "meta"):
  1. Tiles: if DIR/valhalla_tiles.tar is missing (or --rebuild), writes DIR/valhalla.json from
     valhalla.get_config() (defaults, with an admin DB built by the wheel's valhalla_build_admins
     from the same PBF; no timezone/elevation DBs), runs the wheel's bin/valhalla_build_tiles (C++) on the PBF into DIR/valhalla_tiles, then packs them into
     DIR/valhalla_tiles.tar with the wheel's valhalla_build_extract (both as subprocesses, so
     they do not inflate this process's RSS). Prints build wall time and size on disk.
  2. Actor(config with mjolnir.tile_extract = the tar), costing "auto", default options,
     one warm-up query.
  3. Times each query's Actor.route(str) (request JSON pre-serialised, response parsed outside
     the timer) with time.perf_counter_ns over --passes passes over the whole set; per-query
     figure = median over passes.
  4. Prints ok/failed, median/p95/p99 of the per-query microseconds, actor init ms, peak RSS
     (resource.getrusage ru_maxrss), and writes --json {"summary": {...}, "results": [...]}.

Standard library + valhalla only.
"""

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import valhalla

TILE_DIR_NAME = "valhalla_tiles"
TAR_NAME = "valhalla_tiles.tar"
CONFIG_NAME = "valhalla.json"
BUILD_INFO_NAME = "build_info.json"


def rss_kb():
    """Current peak RSS of this process in KiB (Linux ru_maxrss unit)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def dir_size(path):
    """(apparent bytes, allocated bytes, file count) of all files below path."""
    apparent = allocated = n = 0
    for root, _dirs, files in os.walk(path):
        for f in files:
            st = os.stat(os.path.join(root, f))
            apparent += st.st_size
            allocated += st.st_blocks * 512
            n += 1
    return apparent, allocated, n


def percentile(values, p):
    """Linear-interpolated percentile (same as numpy's default), p in [0, 100]."""
    xs = sorted(values)
    if not xs:
        return None
    k = (len(xs) - 1) * p / 100.0
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def stats(values):
    if not values:
        return {"n": 0}
    return {
        "n": len(values),
        "min": round(min(values), 1),
        "median": round(statistics.median(values), 1),
        "p90": round(percentile(values, 90), 1),
        "p95": round(percentile(values, 95), 1),
        "p99": round(percentile(values, 99), 1),
        "max": round(max(values), 1),
        "mean": round(statistics.fmean(values), 1),
    }


# The country of each extract, for the admin database when the extract holds no country boundary
# (a city or a clipped extract): Valhalla's driving side and access defaults come from it.
COUNTRY_OF = {"heidelberg": ("DE", "Deutschland"), "andorra": ("AD", "Andorra"),
              "monaco": ("MC", "Monaco"), "liechtenstein": ("LI", "Liechtenstein")}


def admins_count(path):
    import sqlite3
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return db.execute("select count(*) from admins where admin_level = 2").fetchone()[0]
    except Exception:
        return 0


def country_boundary_pbf(pbf, out):
    """A PBF holding one country boundary (admin_level 2) round the extract's bounding box, +0.2°,
    with the extract's ISO code: for extracts whose own boundary relations are clipped away."""
    import osmium
    code, name = COUNTRY_OF[pbf.name.split(".")[0]]
    # the nodes' own extent (some extracts' headers carry a box of half the world)
    lons, lats = [], []
    for node in osmium.FileProcessor(str(pbf), osmium.osm.NODE):
        lons.append(node.location.lon)
        lats.append(node.location.lat)
    w, s_, e, n = min(lons) - 0.2, min(lats) - 0.2, max(lons) + 0.2, max(lats) + 0.2
    if out.exists():
        out.unlink()
    with osmium.SimpleWriter(str(out)) as wr:
        corners = [(w, s_), (e, s_), (e, n), (w, n)]
        for i, (lon, lat) in enumerate(corners, 1):
            wr.add_node(osmium.osm.mutable.Node(id=9_000_000_000 + i, location=(lon, lat), version=1))
        wr.add_way(osmium.osm.mutable.Way(id=9_000_000_001, nodes=[9_000_000_000 + i for i in (1, 2, 3, 4, 1)], version=1))
        wr.add_relation(osmium.osm.mutable.Relation(
            id=9_000_000_001, version=1, members=[("w", 9_000_000_001, "outer")],
            tags={"type": "boundary", "boundary": "administrative", "admin_level": "2", "name": name,
                  "ISO3166-1": code, "ISO3166-1:alpha2": code}))
    return code


def build_tiles(pbf, work, threads, rebuild):
    """Build DIR/valhalla_tiles + DIR/valhalla_tiles.tar unless present. Returns build info dict."""
    work.mkdir(parents=True, exist_ok=True)
    tile_dir = work / TILE_DIR_NAME
    tar = work / TAR_NAME
    info_path = work / BUILD_INFO_NAME
    pbf_st = pbf.stat()

    info = json.loads(info_path.read_text()) if info_path.is_file() else {}
    # tiles built before the admin database was are built again
    if tar.is_file() and not rebuild and info.get("admins"):
        if info.get("pbf") not in (None, str(pbf)) or info.get("pbf_size") not in (None, pbf_st.st_size):
            print(f"WARNING: {tar} was built from {info.get('pbf')}, not {pbf}; use --rebuild", file=sys.stderr)
        info["reused"] = True
        print(f"tiles: reusing {tar} (built earlier in {info.get('build_wall_s', '?')} s)")
        return info

    # Fresh build: clear old tiles (valhalla_build_tiles' initialize stage also purges tile_dir).
    if tar.exists():
        tar.unlink()
    tile_dir.mkdir(parents=True, exist_ok=True)

    config = valhalla.get_config(tile_extract="", tile_dir=tile_dir)  # defaults, logging off
    config["mjolnir"]["tile_extract"] = str(tar.resolve())
    config["mjolnir"]["concurrency"] = threads
    # the admin database: without it Valhalla assumes left-hand traffic at every roundabout and
    # counts its exits the wrong way round (valhalla#5116), and knows no country access rules
    admins = work / "admins.sqlite"
    config["mjolnir"]["admin"] = str(admins.resolve())
    config_path = work / CONFIG_NAME
    config_path.write_text(json.dumps(config, indent=1))

    # Call the bundled executable directly: `python -m valhalla valhalla_build_tiles` and the
    # venv/bin wrapper look the program up on $PATH (shutil.which) and fail without an activated venv.
    exe = valhalla.PYVALHALLA_DIR / "bin" / "valhalla_build_tiles"
    extract_script = valhalla.PYVALHALLA_DIR / "valhalla_build_extract.py"
    log_path = work / "build.log"
    with open(log_path, "w") as log:
        t0 = time.perf_counter()
        if admins.exists():
            admins.unlink()
        build_admins = str(valhalla.PYVALHALLA_DIR / "bin" / "valhalla_build_admins")
        subprocess.run([build_admins, "-c", str(config_path), str(pbf)], stdout=log, stderr=subprocess.STDOUT, check=True)
        synthetic = None
        if admins_count(admins) == 0 and pbf.name.split(".")[0] in COUNTRY_OF:
            # the extract's country boundary is clipped away: give Valhalla its country
            admins.unlink()
            synthetic = country_boundary_pbf(pbf, work / "country.osm.pbf")
            subprocess.run([build_admins, "-c", str(config_path), str(work / "country.osm.pbf")],
                           stdout=log, stderr=subprocess.STDOUT, check=True)
        subprocess.run([str(exe), "-c", str(config_path), "-j", str(threads), str(pbf)],
                       stdout=log, stderr=subprocess.STDOUT, check=True)
        t1 = time.perf_counter()
        subprocess.run([sys.executable, str(extract_script), "-c", str(config_path), "-O", "-v"],
                       stdout=log, stderr=subprocess.STDOUT, check=True)
        t2 = time.perf_counter()

    apparent, allocated, n_tiles = dir_size(tile_dir)
    info = {
        "pbf": str(pbf),
        "pbf_size": pbf_st.st_size,
        "threads": threads,
        "build_tiles_wall_s": round(t1 - t0, 3),
        "build_extract_wall_s": round(t2 - t1, 3),
        "build_wall_s": round(t2 - t0, 3),
        "n_tiles": n_tiles,
        "tile_dir_bytes": apparent,
        "tile_dir_disk_bytes": allocated,
        "tar_bytes": tar.stat().st_size,
        "build_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
        "loadavg_after": os.getloadavg()[0],
        "log": str(log_path),
        "reused": False,
        "admins": True,
        "admin_countries": admins_count(admins),
        "synthetic_country": synthetic,
    }
    info_path.write_text(json.dumps(info, indent=1))
    return info


def make_request(q):
    # costing auto, otherwise Valhalla defaults (en-US, instructions, polyline6, kilometres)
    return json.dumps({
        "locations": [{"lat": lat, "lon": lon} for lat, lon in q["locations"]],
        "costing": "auto",
    })


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pbf", required=True, type=Path)
    ap.add_argument("--queries", required=True, type=Path)
    ap.add_argument("--work", required=True, type=Path, help="directory for tiles/config")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--json", type=Path, help="write summary + per-query results here")
    ap.add_argument("--build-threads", type=int, default=1,
                    help="valhalla_build_tiles -j (default 1: shared 2-core box)")
    ap.add_argument("--rebuild", action="store_true", help="rebuild tiles even if present")
    ap.add_argument("--tile-source", choices=("tar", "dir"), default="tar",
                    help="load the tar extract (as the stored reference did) or the tile dir")
    args = ap.parse_args(argv)

    run_t0 = time.perf_counter()
    rss_start_kb = rss_kb()
    work = args.work.resolve()
    pbf = args.pbf.resolve()

    # 1. tiles
    build = build_tiles(pbf, work, args.build_threads, args.rebuild)
    print(f"tile build wall time: {build.get('build_wall_s')} s "
          f"(build_tiles {build.get('build_tiles_wall_s')} s + tar {build.get('build_extract_wall_s')} s, "
          f"-j {build.get('threads')}){' [reused]' if build.get('reused') else ''}")
    print(f"tile size on disk: {build.get('tile_dir_bytes', 0) / 1e6:.2f} MB in {build.get('n_tiles')} tiles "
          f"(allocated {build.get('tile_dir_disk_bytes', 0) / 1e6:.2f} MB); "
          f"tar {build.get('tar_bytes', 0) / 1e6:.2f} MB")

    queries = json.loads(args.queries.read_text())["queries"]
    requests = [make_request(q) for q in queries]

    # 2. actor
    if args.tile_source == "tar":
        config = valhalla.get_config(tile_extract=work / TAR_NAME, tile_dir="")
    else:
        config = valhalla.get_config(tile_extract="", tile_dir=work / TILE_DIR_NAME)
    rss_before_actor = rss_kb()
    t0 = time.perf_counter_ns()
    actor = valhalla.Actor(config)
    actor_init_ms = (time.perf_counter_ns() - t0) / 1e6
    rss_after_actor = rss_kb()

    load_before = os.getloadavg()[0]
    t0 = time.perf_counter_ns()
    try:
        actor.route(requests[0])  # warm-up
    except RuntimeError:
        pass
    first_call_us = (time.perf_counter_ns() - t0) / 1e3

    # 3. timed passes
    n = len(queries)
    times_ns = [[] for _ in range(n)]
    responses = [None] * n
    errors = [None] * n
    loop_t0 = time.perf_counter_ns()
    for p in range(args.passes):
        for i, req in enumerate(requests):
            try:
                t = time.perf_counter_ns()
                resp = actor.route(req)
                dt = time.perf_counter_ns() - t
            except RuntimeError as e:  # valhalla.ValhallaError, e.g. no route / no path found
                dt = time.perf_counter_ns() - t
                resp = None
                errors[i] = str(e)
            times_ns[i].append(dt)
            if p == 0:
                responses[i] = resp
    loop_wall_s = (time.perf_counter_ns() - loop_t0) / 1e9
    load_after = os.getloadavg()[0]

    # 4. results
    results = []
    ok_us = []
    total_len_m = 0.0
    for i, q in enumerate(queries):
        micros = statistics.median(times_ns[i]) / 1e3
        r = {"id": q["id"], "ok": False, "length_m": None, "time_s": None, "micros": round(micros, 1)}
        if responses[i] is not None:
            summ = json.loads(responses[i])["trip"]["summary"]  # units: kilometres (default)
            r.update(ok=True, length_m=round(summ["length"] * 1000.0, 1), time_s=summ["time"])
            ok_us.append(micros)
            total_len_m += r["length_m"]
        else:
            r["error"] = errors[i]
        results.append(r)

    s = stats(ok_us)
    peak_rss_mb = rss_kb() / 1024
    summary = {
        "engine": "valhalla",
        "pyvalhalla_version": valhalla.__version__,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "pbf": str(pbf),
        "queries_file": str(args.queries),
        "n_queries": n,
        "n_ok": len(ok_us),
        "n_failed": n - len(ok_us),
        "passes": args.passes,
        "timer": "time.perf_counter_ns around Actor.route(str) only; per-query = median over passes",
        "actor_us": s,
        "median_us": s.get("median"),
        "p95_us": s.get("p95"),
        "p99_us": s.get("p99"),
        "first_call_us": round(first_call_us, 1),
        "loop_wall_s": round(loop_wall_s, 3),
        "actor_init_ms": round(actor_init_ms, 2),
        "tile_source": args.tile_source,
        "rss_kb_before_actor": rss_before_actor,
        "rss_kb_after_actor": rss_after_actor,
        "rss_mb_at_start": round(rss_start_kb / 1024, 1),
        "peak_rss_mb": round(peak_rss_mb, 1),
        "total_length_km": round(total_len_m / 1000.0, 3),
        "loadavg_1m_before_after": [load_before, load_after],
        "build": build,
        "run_wall_s": round(time.perf_counter() - run_t0, 3),
    }

    print(f"queries: {summary['n_ok']} ok, {summary['n_failed']} failed ({args.passes} passes)")
    print(f"Actor.route per query (median over passes): median {s.get('median')} us, "
          f"p95 {s.get('p95')} us, p99 {s.get('p99')} us (min {s.get('min')}, max {s.get('max')}, "
          f"mean {s.get('mean')})")
    print(f"first call {first_call_us:.0f} us; timed loop {loop_wall_s:.3f} s; "
          f"loadavg 1m {load_before:.2f} -> {load_after:.2f}")
    print(f"actor init: {actor_init_ms:.2f} ms; peak RSS (ru_maxrss): {peak_rss_mb:.1f} MB "
          f"(before actor {rss_before_actor / 1024:.1f} MB, after {rss_after_actor / 1024:.1f} MB)")
    print(f"total route length: {summary['total_length_km']} km")

    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"summary": summary, "results": results}, indent=1))
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
