#!/usr/bin/env python3
"""The routes another engine would drive, for the road drive set (bench/road_drives.py).

For the first N benchmark queries of each extract, OSRM 26.10 (CH, car; query i even) or
Valhalla 3.9.1 (auto; query i odd) gives its route; the full geometry is written to
.bench/road/<extract>-peers.json as [[lat, lon], ...] per query, and the points every 250 m along
it to .bench/road/<extract>-follow.json (queries for `tern bench-match --follow`). The simulated car then drives
that route, not Tern's: where Tern would go another way, Tern sees an off-route and must cope.

Run with the Valhalla venv (it has pyvalhalla; OSRM runs as osrm-routed from .bench/osrm-venv):
    .bench/venv/bin/python bench/peer_routes.py [--extracts heidelberg,monaco,andorra,liechtenstein] [--drives 50]"""
import argparse, json, pathlib, sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from osrm_peer import OsrmServer  # noqa: E402
from polyline import along, decode, vias_along  # noqa: E402
from valhalla_turns import ensure_tiles  # noqa: E402

ROOT = HERE.parent
SHARED = ROOT / ".." / "shared"
ap = argparse.ArgumentParser()
ap.add_argument("--extracts", default="heidelberg,monaco,andorra,liechtenstein")
ap.add_argument("--drives", type=int, default=50)
a = ap.parse_args()


import valhalla  # noqa: E402

out_dir = ROOT / ".bench" / "road"
out_dir.mkdir(parents=True, exist_ok=True)
for name in a.extracts.split(","):
    queries = json.load(open(SHARED / "data" / "bench" / f"{name}-queries.json"))["queries"][: a.drives]
    osrm = OsrmServer(name, SHARED / "data" / "osm")
    tiles = ensure_tiles(ROOT / ".bench" / "valhalla", name, SHARED / "data" / "osm")
    actor = valhalla.Actor(valhalla.get_config(tile_extract=str(tiles / "valhalla_tiles.tar"), tile_dir=""))
    routes = []
    for i, q in enumerate(queries):
        s, t = q["locations"][0], q["locations"][-1]
        shape, peer = None, "osrm" if i % 2 == 0 else "valhalla"
        if peer == "osrm":
            r = osrm.route({"locations": [s, t]})
            if r.get("code") == "Ok":
                shape = decode(r["routes"][0]["geometry"])
        else:
            req = json.dumps({"locations": [{"lat": s[0], "lon": s[1]}, {"lat": t[0], "lon": t[1]}], "costing": "auto"})
            try:
                r = json.loads(actor.route(req))
                shape = [p for leg in r["trip"]["legs"] for p in decode(leg["shape"])]
            except RuntimeError:
                shape = None
        routes.append({"id": q.get("id", str(i)), "peer": peer, "from": s, "to": t, "shape": shape})
    osrm.close()
    (out_dir / f"{name}-peers.json").write_text(json.dumps({"extract": name, "routes": routes}))
    # the same routes as query files for `tern bench-match --follow`: the points to drive through
    # (every 250 m along the peer's line), so that its drives follow the peer, not Tern's router
    follow = []
    for r in routes:
        if r["shape"]:
            cum = along(r["shape"])
            follow.append({"id": f"{r['id']}-{r['peer']}", "locations": [r["shape"][0]] + vias_along(r["shape"], cum, 0, cum[-1]) + [r["shape"][-1]]})
    (out_dir / f"{name}-follow.json").write_text(json.dumps({"queries": follow}))
    print(f"{name}: {sum(1 for r in routes if r['shape'])} of {len(routes)} peer routes", file=sys.stderr)
