#!/usr/bin/env python3
"""What the search index costs at import, and how fast search is on a large map.

For each extract, `tern import` is run --rounds times with this tern and with a reference tern
built before the search index existed (--reference), alternating; the best time of each and the
file sizes are printed with their ratios (issue #25: import time +25% at most, file +30% at
most). With --tiled MAP (a 64x map from ../shared/tools/tile-osm.py, imported by this tern), the
queries of --queries are searched on it and the per-query p50/p95 printed (target: p95 <= 20 ms).

Reproduce:
    git stash; swift build -c release; cp .build/release/tern /tmp/tern-before; git stash pop  (or any tern before 3d1f8c6)
    swift build -c release
    python3 bench/search_cost.py --reference /tmp/tern-before [--extracts heidelberg,liechtenstein,andorra,monaco]
    python3 ../shared/tools/tile-osm.py ../shared/data/osm/heidelberg.osm.pbf 8 .bench/heidelberg-x64.osm.pbf
    .build/release/tern import .bench/heidelberg-x64.osm.pbf -o .bench/heidelberg-x64.tmap
    python3 bench/search_cost.py --reference /tmp/tern-before --extracts heidelberg-x64 --pbf-dir .bench \\
        --tiled .bench/heidelberg-x64.tmap --queries .bench/search/heidelberg-queries.json --rounds 1
"""
import argparse, json, os, subprocess, tempfile, time

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--tern", default=".build/release/tern")
ap.add_argument("--reference", required=True, help="a tern without the search index")
ap.add_argument("--extracts", default="heidelberg,liechtenstein,andorra,monaco")
ap.add_argument("--pbf-dir", default="../shared/data/osm")
ap.add_argument("--rounds", type=int, default=3)
ap.add_argument("--tiled")
ap.add_argument("--queries", default=".bench/search/heidelberg-queries.json")
a = ap.parse_args()
work = tempfile.mkdtemp(prefix="tern-cost-")


def import_once(tern, pbf, out):
    t0 = time.perf_counter()
    r = subprocess.run([tern, "import", pbf, "-o", out, "--quiet"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{tern} import {pbf}: {r.stderr.strip()}")
    return time.perf_counter() - t0, os.path.getsize(out)


print(f"{'extract':16s} {'import s (ref)':>14s} {'import s':>9s} {'ratio':>6s} {'MB (ref)':>9s} {'MB':>7s} {'ratio':>6s}")
worst_time = worst_size = 0.0
for x in a.extracts.split(","):
    pbf = os.path.join(a.pbf_dir, f"{x}.osm.pbf")
    best = {"ref": (1e9, 0), "new": (1e9, 0)}
    for _ in range(a.rounds):
        for key, tern in (("ref", a.reference), ("new", a.tern)):
            t, size = import_once(tern, pbf, os.path.join(work, f"{key}.tmap"))
            best[key] = (min(best[key][0], t), size)
    (tr, sr), (tn, sn) = best["ref"], best["new"]
    worst_time, worst_size = max(worst_time, tn / tr), max(worst_size, sn / sr)
    print(f"{x:16s} {tr:14.2f} {tn:9.2f} {tn / tr:6.2f} {sr / 1e6:9.2f} {sn / 1e6:7.2f} {sn / sr:6.2f}")
print(f"target import time ratio <= 1.25: {worst_time:.2f} {'PASS' if worst_time <= 1.25 else 'FAIL'}; "
      f"file size ratio <= 1.30: {worst_size:.2f} {'PASS' if worst_size <= 1.30 else 'FAIL'}")

if a.tiled:
    out = subprocess.run([a.tern, "search", "--map", a.tiled, "--queries", a.queries, "--json"], capture_output=True, text=True)
    micros = sorted(r["micros"] for r in json.loads(out.stdout)["results"])
    p = lambda q: micros[min(len(micros) - 1, int(q * len(micros)))] / 1000  # nearest rank
    print(f"{a.tiled}: {len(micros)} queries, search p50 {p(0.5):.2f} ms, p95 {p(0.95):.2f} ms, max {micros[-1] / 1000:.2f} ms "
          f"(target p95 <= 20 ms: {'PASS' if p(0.95) <= 20 else 'FAIL'})")
