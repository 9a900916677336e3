#!/usr/bin/env python3
"""What OSRM itself says on scenario rows: the reference engine asked the scenario's question.

    rm -rf /tmp/dump && mkdir /tmp/dump
    TERN_FEATURES_DUMP=/tmp/dump .build/release/tern check-features FILE_OR_DIR...
    .bench/osrm-venv/bin/python bench/osrm_features.py /tmp/dump [--only-differing]

`tern check-features` with TERN_FEATURES_DUMP writes every routed row (waypoints, the columns
expected, Tern's answer) and each scenario's OSM file. This script builds each OSM file with the
osrm-bindings wheel's own car profile (osrm-extract, osrm-contract), routes the row's waypoints
in-process with steps, renders OSRM's steps the way OSRM's cucumber support does (route: the step
names; turns: "depart", "turn left", "roundabout-exit-2", "roundabout turn left exit-1", ...)
and prints, per row: the file and line, the turns expected, OSRM's and Tern's. It tells apart a
Tern bug (OSRM agrees with the file, Tern does not) from a row the file and OSRM 26.10 no longer
agree on, and it judges a scenario written for Tern's own tests by the reference engine.
Needs .bench/osrm-venv (see bench/osrm_peer.py).
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import osrm

sys.path.insert(0, str(Path(__file__).resolve().parent))
from osrm_peer import osrm_bin_dir  # noqa: E402


def build(osm_path, work):
    """OSRM data for one scenario's OSM file, with the wheel's car profile."""
    bindir = osrm_bin_dir()
    profile = bindir.parent / "share" / "profiles" / "car.lua"
    base = work / (Path(osm_path).stem + ".osrm")
    src = work / Path(osm_path).name
    src.write_bytes(Path(osm_path).read_bytes())
    log = work / "build.log"
    with open(log, "a") as out:
        subprocess.run([str(bindir / "osrm-extract"), "-p", str(profile), "-t", "1", src.name], cwd=work, stdout=out,
                       stderr=subprocess.STDOUT, check=True)
        subprocess.run([str(bindir / "osrm-contract"), "-t", "1", base.name], cwd=work, stdout=out, stderr=subprocess.STDOUT,
                       check=True)
    return osrm.OSRM(storage_config=str(base), algorithm="CH", use_shared_memory=False, use_mmap=False)


def turn_text(step):
    """A step as OSRM's cucumber support writes it (features/support/route.js, turnList)."""
    m = step["maneuver"]
    t = m["type"]
    mod = m.get("modifier", "")
    if isinstance(m.get("exit"), float):
        m["exit"] = int(m["exit"])
    if t in ("depart", "arrive"):
        return t
    if t == "roundabout":
        return f"roundabout-exit-{m.get('exit', 'undefined')}"
    if t == "rotary":
        name = step.get("rotary_name") or "rotary"
        return f"{name}-exit-{m.get('exit', 'undefined')}"
    if t == "roundabout turn":
        return f"roundabout turn {mod} exit-{m.get('exit', 'undefined')}"
    return f"{t} {mod}".strip()


def route(engine, waypoints):
    params = osrm.RouteParameters(coordinates=[(lon, lat) for lat, lon in waypoints], steps=True, overview="false",
                                  generate_hints=False)
    try:
        r = engine.Route(params)
    except RuntimeError as e:
        return None, None, str(e)
    steps = [plain(s) for leg in r["routes"][0]["legs"] for s in leg["steps"]]
    route.lanes = ",".join(lanes_text(s) for s in steps)
    return ",".join(s.get("name", "") for s in steps), ",".join(turn_text(s) for s in steps), None


def lanes_text(step):
    """The lanes at a step's maneuver (its first intersection), as the cucumber support writes them."""
    lanes = step.get("intersections", [{}])[0].get("lanes", [])
    return " ".join(";".join(lane["indications"]) + ":" + ("true" if lane["valid"] else "false") for lane in lanes)


def plain(o):
    """The wheel's result objects (osrm.Object, osrm.Array) as dicts and lists."""
    if isinstance(o, osrm.Object):
        return {k: plain(o[k]) for k in o}
    if isinstance(o, osrm.Array):
        return [plain(x) for x in o]
    return o


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dump", type=Path, help="the TERN_FEATURES_DUMP folder")
    ap.add_argument("--only-differing", action="store_true", help="print only rows where the three do not all agree")
    ap.add_argument("--lanes", action="store_true", help="also print the lanes at each step (file, OSRM, Tern)")
    a = ap.parse_args(argv)
    rows = [json.loads(line) for line in (a.dump / "rows.jsonl").read_text().splitlines() if line.strip()]
    engines = {}
    tally = {"rows": 0, "osrm=file": 0, "tern=file": 0, "tern=osrm": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for i, row in enumerate(rows):
            if row["osm"] not in engines:
                work = Path(tmp) / f"s{len(engines)}"
                work.mkdir()
                try:
                    engines[row["osm"]] = build(row["osm"], work)
                except subprocess.CalledProcessError:
                    engines[row["osm"]] = None
            engine = engines[row["osm"]]
            if engine is None:
                print(f"{row['file']}:{row['line']}: OSRM could not build the scenario's map")
                continue
            o_route, o_turns, err = route(engine, row["waypoints"])
            want = row["expect_turns"]
            tally["rows"] += 1
            osrm_ok = bool(want) and o_turns == want
            tern_ok = bool(want) and row["tern_turns"] == want
            tally["osrm=file"] += osrm_ok
            tally["tern=file"] += tern_ok
            tally["tern=osrm"] += row["tern_turns"] == o_turns
            if a.lanes:
                same_lanes = route.lanes == row.get("tern_lanes", "")
                if a.only_differing and same_lanes and osrm_ok and tern_ok:
                    continue
            elif a.only_differing and osrm_ok and tern_ok:
                continue
            print(f"{row['file']}:{row['line']} ({row['scenario']})")
            print(f"    file  {want}")
            print(f"    osrm  {o_turns if err is None else 'no route: ' + err}   [{o_route}]")
            print(f"    tern  {row['tern_turns']}   [{row['tern_route']}]")
            if a.lanes:
                print(f"    lanes file {row.get('expect_lanes', '')!r} osrm {route.lanes!r} tern {row.get('tern_lanes', '')!r}")
    print(f"{tally['rows']} rows: OSRM 26.10 gives the file's turns on {tally['osrm=file']}, Tern on {tally['tern=file']}; "
          f"Tern says what OSRM says on {tally['tern=osrm']}")


if __name__ == "__main__":
    main()
