#!/usr/bin/env python3
"""`tern search` against Nominatim 5.3 on the same queries, in the same run.

What it measures, per extract and per (kind, style) set of .bench/search/<extract>-queries.json
(bench/search_queries.py writes them from the OSM data):
  top1  share of queries whose first answer lies within 50 m of the truth: of any truth point,
        or of any segment of the truth polylines where the query has them (streets);
  top5  share whose answer within 50 m is among the first five;
  p50 / p95  per-query time by nearest rank, in ms. Tern: the "micros" it reports per query (the
        search alone, map already open). Nominatim: time.perf_counter around one
        `await NominatimAPIAsync.search(text, max_results=5)` in this process (free-text search,
        as /search?q= does, default layers): the Python query analysis, the ICU tokenizer and the
        SQL round trips to the local PostgreSQL, after a warm-up of --warmup queries not counted.
A query that fails, errs or returns nothing counts as a miss (it still has its time when it
has one). The targets of the issue, judged on Tern (Nominatim's figure beside it):
  address/exact top1 >= 97 %;  address/typo + address/abbrev top1 >= 93 %;
  Heidelberg: search p95 <= 5 ms.

Tern runs first, as one process per extract:
    TERN search --map .bench/<extract>.tmap --queries .bench/search/<extract>-queries.json --json
whose output is {"results": [{"id", "ok", "micros", "results": [{"lat", "lon", "label",
"kind"}]}]}; then Nominatim, so the two do not share the CPU. Where `tern search` does not exist
(yet), Tern's columns read n/a and Nominatim still runs.

Reproduce:
    bash bench/nominatim_setup.sh                                  # PostgreSQL, venv, imports
    .bench/nominatim-venv/bin/python bench/search_queries.py       # query sets
    .bench/nominatim-venv/bin/python bench/search_compare.py \
        --extracts heidelberg,liechtenstein,andorra,monaco [--tern .build/release/tern] \
        [--maps-dir .bench] [--limit N] [--misses N] [--json .bench/search/compare.json]
--limit N takes the first N queries of each set (a quick run); --misses N prints each engine's
first N misses per set with its first answer and how far it lies.
"""

import argparse
import asyncio
import collections
import json
import math
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, ".bench")
HIT_M = 50.0
TARGETS = [  # (label, sets, minimum top1 %)
    ("address exact top1", [("address", "exact")], 97.0),
    ("address typo+abbrev top1", [("address", "typo"), ("address", "abbrev")], 93.0),
]
P95_TARGET = ("heidelberg", 5.0)  # Tern search p95 <= 5 ms on Heidelberg


# --- geometry ----------------------------------------------------------------------------------

def _xy(p, lat0):
    k = 111195.0
    return (p[1] * k * math.cos(math.radians(lat0)), p[0] * k)


def dist_point_m(a, b):
    lat1, lon1, lat2, lon2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = (math.sin((lat2 - lat1) / 2) ** 2
         + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2)
    return 2 * 6371008.8 * math.asin(min(1.0, math.sqrt(h)))


def dist_segment_m(p, a, b):
    """Distance from p to segment a-b, planar in a local projection (fine at street scale)."""
    lat0 = p[0]
    px, py = _xy(p, lat0)
    ax, ay = _xy(a, lat0)
    bx, by = _xy(b, lat0)
    dx, dy = bx - ax, by - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def dist_to_truth(p, q):
    best = min((dist_point_m(p, t) for t in q["truth"]), default=math.inf)
    for line in q.get("truth_lines") or ():
        for a, b in zip(line, line[1:]):
            if abs(a[0] - p[0]) < 0.02 and abs(a[1] - p[1]) < 0.03:  # skip far segments fast
                best = min(best, dist_segment_m(p, a, b))
    return best


def judge(q, answers):
    """answers: [(lat, lon), ...] best first -> (top1, top5, distance of the first in m)."""
    d = [dist_to_truth(a, q) for a in answers[:5]]
    return (bool(d) and d[0] <= HIT_M, any(x <= HIT_M for x in d), d[0] if d else None)


def pct(values, p):
    """Nearest-rank percentile, as `tern bench` computes it."""
    if not values:
        return None
    s = sorted(values)
    return s[max(0, min(len(s) - 1, math.ceil(p / 100 * len(s)) - 1))]


# --- Tern --------------------------------------------------------------------------------------

def tern_available(tern):
    if not os.path.exists(tern):
        return False, f"no {tern}"
    try:
        r = subprocess.run([tern, "search", "--help"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, str(e)
    out = r.stdout + r.stderr
    # A Tern without the command says "unknown command `search`"; one with it may print its
    # usage, or reject --help as an unknown option, with any exit code.
    if "unknown command" in out:
        return False, "`tern search` not available (" + (out.strip().splitlines() or ["?"])[0] + ")"
    return True, ""


def run_tern(tern, maps_dir, extract, qpath):
    """-> ({id: entry}, error or None). One process for all of an extract's queries."""
    tmap = os.path.join(maps_dir, f"{extract}.tmap")
    cmd = [tern, "search", "--map", tmap, "--queries", qpath, "--json"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    except (OSError, subprocess.TimeoutExpired) as e:
        return {}, f"{' '.join(cmd)}: {e}"
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        err = (r.stderr.strip().splitlines() or ["no JSON on stdout"])[-1]
        return {}, f"exit {r.returncode}: {err}"
    entries = {e.get("id"): e for e in doc.get("results", []) if isinstance(e, dict)}
    return entries, (None if r.returncode == 0 else f"exit {r.returncode}")


def tern_outcome(q, e):
    if not e or not e.get("ok", False):
        return dict(ok=False, top1=False, top5=False, d1=None, ms=None,
                    error=(e or {}).get("error", "no answer"))
    res = [x for x in e.get("results") or [] if "lat" in x and "lon" in x]
    top1, top5, d1 = judge(q, [(x["lat"], x["lon"]) for x in res])
    ms = e["micros"] / 1000.0 if isinstance(e.get("micros"), (int, float)) else None
    first = res[0] if res else {}
    return dict(ok=True, top1=top1, top5=top5, d1=d1, ms=ms, label=first.get("label"),
                kind=first.get("kind"), n=len(res))


# --- Nominatim ---------------------------------------------------------------------------------

def nominatim_kind(r):
    cls, typ = r.category
    if r.housenumber or r.rank_address == 30 and cls == "place" and typ == "house":
        return "address"
    if cls == "highway":
        return "street"
    if cls in ("place", "boundary"):
        return "place"
    return "poi"


def nominatim_label(r):
    name = (r.names or {}).get("name")
    parts = [p for p in (name, r.housenumber) if p]
    return " ".join(parts) if parts else "/".join(r.category)


async def run_nominatim(project_dir, queries, warmup):
    """-> {id: outcome}. Imported here so that --no-nominatim runs without the venv."""
    import nominatim_api as napi
    out = {}
    api = napi.NominatimAPIAsync(project_dir)
    try:
        for q in queries[:warmup]:
            try:
                await api.search(q["text"], max_results=5)
            except Exception:  # noqa: BLE001 - warm-up only
                pass
        for q in queries:
            t0 = time.perf_counter()
            try:
                res = await api.search(q["text"], max_results=5)
                ms = (time.perf_counter() - t0) * 1000.0
            except Exception as e:  # noqa: BLE001 - a failed query is a miss
                ms = (time.perf_counter() - t0) * 1000.0
                out[q["id"]] = dict(ok=False, top1=False, top5=False, d1=None, ms=ms,
                                    error=f"{type(e).__name__}: {e}")
                continue
            pts = [(r.centroid.lat, r.centroid.lon) for r in res]
            top1, top5, d1 = judge(q, pts)
            out[q["id"]] = dict(ok=True, top1=top1, top5=top5, d1=d1, ms=ms,
                                label=nominatim_label(res[0]) if res else None,
                                kind=nominatim_kind(res[0]) if res else None, n=len(res))
    finally:
        await api.close()
    return out


# --- report ------------------------------------------------------------------------------------

def summarize(qs, outcomes):
    """Figures over queries qs for one engine (outcomes None: engine not run)."""
    if outcomes is None:
        return None
    os_ = [outcomes.get(q["id"]) or dict(ok=False, top1=False, top5=False, ms=None) for q in qs]
    n = len(os_)
    times = [o["ms"] for o in os_ if o.get("ms") is not None]
    return dict(n=n, top1=100.0 * sum(o["top1"] for o in os_) / n if n else None,
                top5=100.0 * sum(o["top5"] for o in os_) / n if n else None,
                failed=sum(not o["ok"] for o in os_),
                p50_ms=pct(times, 50), p95_ms=pct(times, 95))


ORDER = ["address/exact", "address/nocity", "address/abbrev", "address/typo", "street/exact",
         "street/nocity", "place/exact", "poi/name", "poi/name-place"]


def set_order(key):
    name = "/".join(key)
    return (ORDER.index(name) if name in ORDER else len(ORDER), name)


def fmt(v, spec):
    return "n/a" if v is None else format(v, spec)


def row(label, n, t, m):
    cells = [f"{label:<22}", f"{n:>4}"]
    for s in (t, m):
        s = s or {}
        cells += [f"{fmt(s.get('top1'), '.1f'):>6}", f"{fmt(s.get('top5'), '.1f'):>6}",
                  f"{fmt(s.get('p50_ms'), '.2f'):>7}", f"{fmt(s.get('p95_ms'), '.2f'):>7}"]
    return "  ".join(cells[:2]) + " | " + "  ".join(cells[2:6]) + " | " + "  ".join(cells[6:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--extracts", default="heidelberg,liechtenstein,andorra,monaco")
    ap.add_argument("--tern", default=os.path.join(ROOT, ".build", "release", "tern"))
    ap.add_argument("--maps-dir", default=BENCH, help="holds <extract>.tmap (default .bench)")
    ap.add_argument("--queries-dir", default=os.path.join(BENCH, "search"))
    ap.add_argument("--nominatim-dir", default=os.path.join(BENCH, "nominatim"),
                    help="holds one Nominatim project dir per extract")
    ap.add_argument("--limit", type=int, default=0,
                    help="at most N queries per (kind, style) set (0: all)")
    ap.add_argument("--warmup", type=int, default=20, help="Nominatim queries run before timing")
    ap.add_argument("--no-tern", action="store_true")
    ap.add_argument("--no-nominatim", action="store_true")
    ap.add_argument("--misses", type=int, default=0,
                    help="print up to N missed queries per set and engine (top-1 answer, distance)")
    ap.add_argument("--json", metavar="OUT", help="write all figures and per-query outcomes")
    args = ap.parse_args()

    tern_ok, why = (False, "--no-tern") if args.no_tern else tern_available(args.tern)
    if not tern_ok:
        print(f"Tern: n/a ({why})")
    report = dict(hit_m=HIT_M, tern=args.tern if tern_ok else None, extracts={})

    for ex in [e for e in args.extracts.split(",") if e]:
        qpath = os.path.join(args.queries_dir, f"{ex}-queries.json")
        try:
            with open(qpath, encoding="utf-8") as f:
                doc = json.load(f)
        except OSError as e:
            print(f"\n{ex}: no query set ({e}); run bench/search_queries.py")
            continue
        queries = doc["queries"]
        if args.limit:
            seen = collections.Counter()
            kept = []
            for q in queries:
                key = (q["kind"], q["style"])
                if seen[key] < args.limit:
                    seen[key] += 1
                    kept.append(q)
            queries = kept
        tern_out, tern_err = None, None
        if tern_ok:
            run_path = qpath
            if args.limit:  # Tern reads the same subset from a temporary file
                fd, run_path = tempfile.mkstemp(prefix=f"{ex}-queries-", suffix=".json")
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump({"queries": queries}, f, ensure_ascii=False)
            try:
                entries, tern_err = run_tern(args.tern, args.maps_dir, ex, run_path)
            finally:
                if run_path != qpath:
                    os.unlink(run_path)
            tern_out = {q["id"]: tern_outcome(q, entries.get(q["id"])) for q in queries}
        nom_out, nom_err = None, None
        if not args.no_nominatim:
            pdir = os.path.join(args.nominatim_dir, ex)
            if not os.path.exists(os.path.join(pdir, "imported")):
                nom_err = f"no imported Nominatim project in {pdir}; run bench/nominatim_setup.sh"
            else:
                try:
                    nom_out = asyncio.run(run_nominatim(pdir, queries, args.warmup))
                except Exception as e:  # noqa: BLE001 - report, go on with the next extract
                    nom_err = f"{type(e).__name__}: {e}"

        sets = sorted({(q["kind"], q["style"]) for q in queries}, key=set_order)
        print(f"\n{ex}: {len(queries)} queries" + (f"   Tern: {tern_err}" if tern_err else "")
              + (f"   Nominatim: {nom_err}" if nom_err else ""))
        head = f"{'kind/style':<22}  {'n':>4} | "
        eng = f"{'top1%':>6}  {'top5%':>6}  {'p50ms':>7}  {'p95ms':>7}"
        print(f"{'':<28} | {'Tern':<35} | Nominatim")
        print(head + eng + " | " + eng)
        ex_rep = dict(queries=len(queries), tern_error=tern_err, nominatim_error=nom_err, sets={},
                      targets=[], per_query=[])
        for key in sets:
            qs = [q for q in queries if (q["kind"], q["style"]) == key]
            t, m = summarize(qs, tern_out), summarize(qs, nom_out)
            print(row("/".join(key), len(qs), t, m))
            ex_rep["sets"]["/".join(key)] = dict(tern=t, nominatim=m)
            for name, outs in (("Tern", tern_out), ("Nominatim", nom_out)):
                if not args.misses or outs is None:
                    continue
                miss = [q for q in qs if not outs[q["id"]]["top1"]][:args.misses]
                for q in miss:
                    o = outs[q["id"]]
                    print(f"    {name} miss {q['id']}: {q['text']!r} -> {o.get('label')!r} "
                          f"({o.get('kind')}, {fmt(o.get('d1'), '.0f')} m){' ' + o['error'] if o.get('error') else ''}")
        t, m = summarize(queries, tern_out), summarize(queries, nom_out)
        print(row("all", len(queries), t, m))
        ex_rep["sets"]["all"] = dict(tern=t, nominatim=m)

        for label, keys, need in TARGETS:
            qs = [q for q in queries if (q["kind"], q["style"]) in keys]
            t, m = summarize(qs, tern_out), summarize(qs, nom_out)
            tv, mv = (t or {}).get("top1"), (m or {}).get("top1")
            verdict = "n/a" if tv is None else ("PASS" if tv >= need else "FAIL")
            note = "  (few queries)" if len(qs) < 20 else ""
            print(f"  target {label} >= {need:.0f}%: Tern {fmt(tv, '.1f')} {verdict}, "
                  f"Nominatim {fmt(mv, '.1f')}  (n={len(qs)}){note}")
            ex_rep["targets"].append(dict(target=label, minimum=need, n=len(qs), tern=tv,
                                          nominatim=mv, verdict=verdict))
        if ex == P95_TARGET[0]:
            tv = (summarize(queries, tern_out) or {}).get("p95_ms")
            mv = (summarize(queries, nom_out) or {}).get("p95_ms")
            verdict = "n/a" if tv is None else ("PASS" if tv <= P95_TARGET[1] else "FAIL")
            print(f"  target search p95 <= {P95_TARGET[1]:.0f} ms: Tern {fmt(tv, '.2f')} ms {verdict}, "
                  f"Nominatim {fmt(mv, '.2f')} ms")
            ex_rep["targets"].append(dict(target="search p95 ms", maximum=P95_TARGET[1], tern=tv,
                                          nominatim=mv, verdict=verdict))
        for q in queries:
            ex_rep["per_query"].append(dict(
                id=q["id"], text=q["text"], kind=q["kind"], style=q["style"],
                tern=(tern_out or {}).get(q["id"]), nominatim=(nom_out or {}).get(q["id"])))
        report["extracts"][ex] = ex_rep

    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, ensure_ascii=False, indent=1)
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    sys.exit(main())
