#!/usr/bin/env python3
"""Where Tern and Valhalla disagree on a turn, what does OSRM say?

    .bench/venv/bin/python bench/turns_three_way.py [--extracts ...] [--tern BIN] [--json FILE] [--examples K]
        [--consensus-examples K]

bench/valhalla_turns.py measures the issue's target (Tern's turn directions against Valhalla's
on the routes where the two coincide) and, with --candidate osrm, how far OSRM's own narration
agrees with Valhalla's by the same measure. This script takes each disagreement that the target
figure counts (same routes, same rules: a decision compared only where both routes go the same
way in and out, paired within 30 m, a lone "straight" not counted) and looks up OSRM's decision
at that place on OSRM's route for the same query:

  OSRM sides with Valhalla   OSRM says what Valhalla says (or, like it, nothing / straight):
                             Tern is the odd one out, the first place to look for Tern's mistakes
  OSRM sides with Tern       a difference between OSRM's narration and Valhalla's, which Tern,
                             following OSRM's vocabulary and scenarios, shares
  all three differ
  OSRM goes another way      OSRM's route does not pass that place the same way in and out

Consensus agreement: of the decisions the target figure counts (its agreements too) at places
where OSRM's route passes the same way in and out, those where OSRM says what Valhalla says (the
rule of "OSRM sides with Valhalla": the same class, or both nothing / straight) are decisions the
two peers share; the share of them where Tern says it too, per extract and overall, with the
consensus disagreements by kind (Tern's class against the peers'). Two narrators built apart
agreeing is the nearest thing to a right answer these references give: a consensus disagreement
is the likeliest to be Tern's mistake, where a disagreement with Valhalla alone may be Valhalla's
habit. Places where OSRM's route parts are left out of it and counted apart.

OSRM 26.10 (osrm-routed with its car profile, contraction hierarchies) comes from the
osrm-bindings wheel in .bench/osrm-venv; bench/valhalla_turns.py --help says how to install it.
Standard library + valhalla only.
"""

import argparse
import collections
import itertools
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import valhalla  # noqa: E402
import valhalla_turns as vt  # noqa: E402


def nearest_decision(ds, x, y, reach=vt.PAIR_M):
    best = None
    for d in ds:
        dd = math.hypot(d[0] - x, d[1] - y)
        if dd <= reach and (best is None or dd < best[0]):
            best = (dd, d)
    return best[1] if best else None


def quiet(c):
    return c in ("none", "straight")


def side(t_cls, v_cls, o_cls):
    if o_cls == v_cls or (quiet(o_cls) and quiet(v_cls)):
        return "OSRM sides with Valhalla"
    if o_cls == t_cls or (quiet(o_cls) and quiet(t_cls)):
        return "OSRM sides with Tern"
    return "all three differ"


def peers_class(v_cls, o_cls):
    """What OSRM and Valhalla both say, for a consensus kind: their class, or "quiet" when one says
    nothing and the other "straight" (the same to a driver, and to the target figure)."""
    return v_cls if o_cls == v_cls else f"quiet (valhalla {v_cls}, osrm {o_cls})"


def spread(examples, k):
    """k examples at k different places, taken from each extract in turn: the first extract's alone
    would hide the others, and routes that share a junction would show it more than once."""
    by_extract = collections.defaultdict(list)
    for ex in examples:
        by_extract[ex["id"].rsplit("-", 1)[0]].append(ex)
    out, seen = [], set()
    for row in itertools.zip_longest(*by_extract.values()):
        for ex in row:
            if ex is not None and (ex["lat"], ex["lon"]) not in seen:
                seen.add((ex["lat"], ex["lon"]))
                out.append(ex)
    return out[:k]


def pct(n, total):
    return f"{100.0 * n / total:.1f}%" if total else "n/a"


def run(a):
    sides = collections.Counter()
    kinds = collections.Counter()
    examples = collections.defaultdict(list)
    # consensus: per extract, the decisions OSRM and Valhalla share ("counted"), those where Tern
    # says it too ("agreed"), and the counted decisions left out where OSRM's route parts
    consensus = {}
    c_kinds = collections.Counter()
    c_examples = collections.defaultdict(list)
    tern_bin = Path(a.tern)
    names = [e for e in a.extracts.split(",") if e]
    for name in names:
        cons = consensus[name] = collections.Counter(counted=0, agreed=0, osrm_apart=0)
        queries = json.loads((vt.SHARED / "data" / "bench" / f"{name}-queries.json").read_text())["queries"]
        tern = vt.run_tern(tern_bin, vt.WORK / f"{name}.tmap", queries)
        server = vt.OsrmServer(name, a.pbf_dir)
        tiles = vt.ensure_tiles(a.valhalla_dir, name, a.pbf_dir)
        actor = valhalla.Actor(valhalla.get_config(tile_extract=tiles / "valhalla_tiles.tar", tile_dir=""))
        try:
            for q in queries:
                tr = tern.get(q["id"])
                if not tr or not tr.get("ok") or not tr.get("shape"):
                    continue
                try:
                    vr = vt.ValhallaReference(actor).route(q)
                except Exception:
                    continue
                orr = vt.osrm_as_tern(server.route(q))
                if not orr.get("ok"):
                    continue
                c = vt.compare_routes(tr, vr, vt.SHARED_M)
                if c.status != "coinciding":
                    continue
                op = [c.proj.xy(*p) for p in orr["shape"]]
                od = vt.tern_decisions(orr, c.proj, op, vt.cumulative(op))
                og = vt.SegmentGrid(op, vt.NEAR_M)
                td, vd = c.td, c.vd
                # every decision the target figure counts: pairs, and lone decisions of either engine
                items = [(td[i], vd[j]) for i, j, _ in c.pairs] + [(td[i], None) for i in c.t_un] + [(None, vd[j]) for j in c.v_un]
                for t, v in items:
                    t_cls = t[2] if t else "none"
                    v_cls = v[2] if v else "none"
                    if quiet(t_cls) and quiet(v_cls) and not (t and v):
                        continue  # a lone "straight", which the target figure does not count
                    agreed = t_cls == v_cls
                    anchor = t or v
                    pts, cum = (c.t_pts, c.t_cum) if t else (c.v_pts, c.v_cum)
                    if not vt.on_shared_stretch(pts, cum, cum[anchor[7]], og):
                        cons["osrm_apart"] += 1
                        if not agreed:
                            sides["OSRM goes another way"] += 1
                        continue
                    o = nearest_decision(od, anchor[0], anchor[1])
                    o_cls = o[2] if o else "none"
                    # side() with Tern agreeing reads "OSRM sides with Valhalla" exactly when OSRM
                    # says what both say: the same test decides what the peers share
                    s = side(t_cls, v_cls, o_cls)
                    if s == "OSRM sides with Valhalla":
                        cons["counted"] += 1
                        cons["agreed"] += agreed
                    if agreed:
                        continue
                    sides[s] += 1
                    ex = {"id": q["id"], "lat": round(anchor[4], 6), "lon": round(anchor[5], 6), "shape_turn_deg": anchor[6],
                          "tern": vt.describe_tern(t[3]) if t else None,
                          "valhalla": vt.describe_valhalla(v[3]) if v else None,
                          "osrm": vt.describe_tern(o[3]) if o else None}
                    kind = f"{s}: tern {t_cls} / valhalla {v_cls} / osrm {o_cls}"
                    kinds[kind] += 1
                    examples[kind].append(ex)
                    if s == "OSRM sides with Valhalla":
                        c_kind = f"tern {t_cls} / both {peers_class(v_cls, o_cls)}"
                        c_kinds[c_kind] += 1
                        c_examples[c_kind].append(ex)
        finally:
            server.close()
            del actor
    total = sum(sides.values())
    print(f"disagreements between Tern and Valhalla counted by the target figure: {total}")
    for s, n in sides.most_common():
        print(f"  {n:5}  {s} ({100.0 * n / total:.1f}%)")
    print("by kind:")
    for kind, n in kinds.most_common(a.top):
        print(f"  {n:5}  {kind}")
        for ex in examples[kind][:a.examples]:
            print(f"           {ex['id']} @{ex['lat']},{ex['lon']} (shape turns {ex['shape_turn_deg']}°): "
                  f"tern {ex['tern']} | valhalla {ex['valhalla']} | osrm {ex['osrm']}")

    overall = collections.Counter(counted=0, agreed=0, osrm_apart=0)
    for cons in consensus.values():
        overall.update(cons)  # (not sum(): Counter addition drops the counts that are 0)
    print("\nconsensus: where OSRM and Valhalla make the same decision (decisions the target figure counts, "
          "OSRM's route passing the same way in and out), does Tern make it too?")
    for label, cons in list(consensus.items()) + ([("overall", overall)] if len(names) > 1 else []):
        print(f"  {label:14} Tern agrees on {cons['agreed']}/{cons['counted']} ({pct(cons['agreed'], cons['counted'])}) "
              f"of the decisions OSRM and Valhalla share; left out where OSRM's route parts: {cons['osrm_apart']}")
    n_dis = overall["counted"] - overall["agreed"]
    print(f"consensus disagreements by kind ({n_dis}; what Tern says / what OSRM and Valhalla both say):")
    for kind, n in c_kinds.most_common(a.top):
        print(f"  {n:5}  {kind} ({pct(n, n_dis)})")
        for ex in spread(c_examples[kind], a.consensus_examples):
            print(f"           {ex['id']} @{ex['lat']},{ex['lon']} (shape turns {ex['shape_turn_deg']}°): "
                  f"tern {ex['tern']} | valhalla {ex['valhalla']} | osrm {ex['osrm']}")
    if len(c_kinds) > a.top:
        print(f"  {sum(n for _, n in c_kinds.most_common()[a.top:]):5}  in {len(c_kinds) - a.top} other kinds")

    if a.json:
        def share(cons):
            return dict(cons, share=round(cons["agreed"] / cons["counted"], 4) if cons["counted"] else None)
        Path(a.json).write_text(json.dumps({
            "sides": sides, "kinds": kinds, "examples": examples,
            "consensus": {"extracts": {name: share(cons) for name, cons in consensus.items()},
                          "overall": share(overall),
                          "kinds": [{"kind": k, "n": n, "examples": spread(c_examples[k], max(3, a.consensus_examples))}
                                    for k, n in c_kinds.most_common()]}}, indent=1, ensure_ascii=False))
        print(f"wrote {a.json}")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--extracts", default=",".join(vt.ALL_EXTRACTS))
    ap.add_argument("--tern", default=str(vt.TERN), help="tern binary (default .build/release/tern)")
    ap.add_argument("--valhalla-dir", default=str(vt.WORK / "valhalla"))
    ap.add_argument("--pbf-dir", default=str(vt.SHARED / "data" / "osm"), help="OSRM's data is built from <dir>/<extract>.osm.pbf")
    ap.add_argument("--top", type=int, default=16)
    ap.add_argument("--examples", type=int, default=1)
    ap.add_argument("--consensus-examples", type=int, default=3, help="examples per consensus disagreement kind")
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    if not Path(a.tern).exists():
        sys.exit(f"no {a.tern}: build first (swift build -c release --product tern)")
    return run(a)


if __name__ == "__main__":
    sys.exit(main())
