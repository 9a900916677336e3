#!/usr/bin/env python3
"""Turn directions: does Tern announce the same turns as Valhalla where both drive the same route?

Issue target: on ../shared/data/bench/*-queries.json, where Tern's route and Valhalla's coincide,
the sequence of turn directions (left / right / straight / u-turn / roundabout exit number) agrees
on >= 90% of maneuvers. This script measures that; it does not tune anything to pass.

    .bench/venv/bin/python bench/valhalla_turns.py [--extracts monaco,andorra,liechtenstein,heidelberg]
        [--limit N] [--json FILE] [--examples K] [--top K] [--valhalla-dir DIR] [--shared-m M]
        [--candidate tern|osrm] [--reference valhalla|osrm]

--candidate osrm measures OSRM 26.10's own narration (its car profile, osrm-routed) in Tern's
place, --reference osrm measures Tern against OSRM; the counts keep their "tern"/"valhalla"
names for the candidate/reference, the printed labels name the engines run. OSRM comes from the
osrm-bindings wheel (it bundles osrm-extract, osrm-contract and osrm-routed; Python >= 3.12):
    python3.12 -m venv .bench/osrm-venv && .bench/osrm-venv/bin/pip install osrm-bindings==26.10.0   (any Python >= 3.12: the wheel is cp312 abi3; Debian 12's own python3 is 3.11)
Its data is built on first use into .bench/osrm/<extract>/ from --pbf-dir.

Engines
  Tern      `tern route --map .bench/<x>.tmap --queries Q.json --json` (the release binary,
            copied to a temporary directory once it has not changed for 3 s, so that a rebuild
            running meanwhile cannot mix two builds in one run; its size and time are printed).
  Valhalla  pyvalhalla 3.9.1 Actor on .bench/valhalla/<x>/valhalla_tiles.tar (built by
            bench/valhalla_baseline.py; --pbf-dir lets this script build missing tiles the same
            way), Actor.route with the same locations (all type "break"), costing "auto",
            default options, directions in en-US, units kilometres. A query Valhalla raises on
            is counted as "valhalla failed" and skipped; a query Tern answers with ok=false is
            counted as "tern failed" and skipped.

1. Route coincidence (only coinciding routes are compared)
  The two routes coincide when their lengths (Tern distance_m, Valhalla trip length) are within
  5% of each other (|a/b - 1| <= 0.05 in both directions) and at least 95% of each route's shape,
  resampled every 10 m along its length, lies within 15 m of the other route's shape (distance
  from the sample point to the nearest segment of the other polyline; checked both ways).
  Distances use a local equirectangular projection around the route's first point.

2. Decisions: each engine's maneuvers reduced to one class per decision point
  Classes: "straight", "left", "right", "uturn", "exit N" (roundabout exit number N; "exit ?" when
  the engine gives no number).
  Tern (OSRM vocabulary):
    depart, arrive, notification, "exit roundabout", "exit rotary"  -> skipped (the exit of a
        roundabout is part of the "roundabout"/"rotary" step, not a separate spoken maneuver)
    roundabout, rotary, "roundabout turn"                           -> "exit N" (N = exit)
    every other type (turn, new name, continue, merge, on ramp, off ramp, fork, end of road, ...)
        by modifier: straight or none -> "straight"; uturn -> "uturn";
        slight left / left / sharp left -> "left"; slight right / right / sharp right -> "right"
  Valhalla (maneuver type numbers of its directions API):
    0 kNone, 1-3 kStart*, 4-6 kDestination*, 27 kRoundaboutExit, 28/29 kFerryEnter/Exit,
        30-36 transit, 39-43 (elevator/steps/escalator/building)            -> skipped
    7 kBecomes, 8 kContinue, 17 kRampStraight, 22 kStayStraight, 25 kMerge  -> "straight"
    9 kSlightRight, 10 kRight, 11 kSharpRight, 18 kRampRight, 20 kExitRight,
        23 kStayRight, 37 kMergeRight                                       -> "right"
    16 kSlightLeft, 15 kLeft, 14 kSharpLeft, 19 kRampLeft, 21 kExitLeft,
        24 kStayLeft, 38 kMergeLeft                                         -> "left"
    12 kUturnRight, 13 kUturnLeft                                           -> "uturn"
    26 kRoundaboutEnter                                 -> "exit N" (N = roundabout_exit_count)

3. Alignment and the agreement figure
  Location of a decision: Valhalla's is the leg shape point at begin_shape_index. Tern's JSON
  gives each step's length (distance_m, from this maneuver to the next), so maneuver k lies at
  the cumulative length of steps 0..k-1 along Tern's shape; the cumulative lengths are scaled by
  (shape length / sum of step lengths) to cancel the difference between Tern's distance measure
  and ours, and the point is snapped to the shape vertex nearest in along-route distance
  (maneuvers happen at nodes, which are shape vertices).
  Same way in and out: routes that coincide overall may still take a different street for a
  block; a decision is compared only where its own route, from 40 m before it to 40 m after it
  (clipped to the route), lies within 15 m of the other route every 5 m, and the other route,
  40 m either side of its point nearest the decision, lies within 15 m of this one (both ways:
  a route coming in by a short side street stays within 15 m of the other, but the other's way
  in does not lie along it); --shared-m 0 compares every decision. Decisions left out so are counted and printed ("not compared where the routes
  part"), for each engine.
  Pairing: one-to-one, closest first: all (Tern, Valhalla) decision pairs within 30 m of each
  other are sorted by distance and taken greedily, each decision used at most once. Then:
    paired                       counted; agrees when both classes are equal
    unpaired, class "straight"   not counted; reported as "extra straight" for that engine (one
                                 engine saying "continue"/"new name" where the other says nothing
                                 is a verbosity difference, not a wrong turn direction)
    unpaired, any other class    counted as a disagreement ("missing": e.g. "tern left /
                                 valhalla none")
  agreement = agreed pairs / (pairs + unpaired non-straight decisions of either engine).
  Also printed: per extract and overall counts, the most frequent disagreement kinds with
  examples (query id, position, both maneuvers, the heading change of the shape 30 m before to
  30 m after the decision point, Valhalla's bearing_after - bearing_before; + = right), and
  (overall) the confusion table of Tern class vs Valhalla class. A diagnostic line gives the
  agreement that not comparing roundabout exit numbers would give; it is not the target figure.

Caveat on the reference: Valhalla needs an admin database (valhalla_build_admins) to know the
driving side; tiles built without one are treated as left-hand traffic, and Valhalla then
miscounts roundabout exits (mostly "2nd exit"; cf. valhalla/valhalla#5116).
bench/valhalla_baseline.py builds the admin database from the same PBF before the tiles (tiles
from before that are rebuilt); the script says so when the tiles' valhalla.json names no usable
admin database. --valhalla-dir DIR compares against other tiles (DIR/<extract>/valhalla_tiles.tar
with DIR/<extract>/valhalla.json).

Standard library + valhalla only.
"""

import argparse
import bisect
import collections
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

import valhalla

from osrm_peer import OsrmServer, osrm_bin_dir  # the OSRM 26.10 wheel: binaries, CH data, osrm-routed
from polyline import decode  # the one polyline decoder

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".bench"
SHARED = (ROOT / ".." / "shared").resolve()
TERN = ROOT / ".build" / "release" / "tern"
ALL_EXTRACTS = ["monaco", "andorra", "liechtenstein", "heidelberg"]

LENGTH_TOL = 0.05      # route lengths within 5%
SAMPLE_STEP_M = 10.0   # shape resampling step
NEAR_M = 15.0          # a sample is "on" the other route within this distance
ON_FRACTION = 0.95     # this share of each route's samples must be on the other route
PAIR_M = 30.0          # decisions closer than this may be paired
SHARED_M = 40.0        # a decision is compared only where both routes share this much before and after it
SHARED_STEP_M = 5.0

EARTH_R = 6371008.8

# The two engines compared: the candidate (Tern unless --candidate osrm) takes the "tern" side of
# every count and the reference (Valhalla unless --reference osrm) the "valhalla" side; the
# printed labels name the engines actually run.
CAND, REF = "tern", "valhalla"

# ---------------------------------------------------------------------------------------------
# Valhalla maneuver types (directions API enum)
VALHALLA_TYPE_NAMES = {
    0: "kNone", 1: "kStart", 2: "kStartRight", 3: "kStartLeft", 4: "kDestination",
    5: "kDestinationRight", 6: "kDestinationLeft", 7: "kBecomes", 8: "kContinue",
    9: "kSlightRight", 10: "kRight", 11: "kSharpRight", 12: "kUturnRight", 13: "kUturnLeft",
    14: "kSharpLeft", 15: "kLeft", 16: "kSlightLeft", 17: "kRampStraight", 18: "kRampRight",
    19: "kRampLeft", 20: "kExitRight", 21: "kExitLeft", 22: "kStayStraight", 23: "kStayRight",
    24: "kStayLeft", 25: "kMerge", 26: "kRoundaboutEnter", 27: "kRoundaboutExit",
    28: "kFerryEnter", 29: "kFerryExit", 30: "kTransit", 31: "kTransitTransfer",
    32: "kTransitRemainOn", 33: "kTransitConnectionStart", 34: "kTransitConnectionTransfer",
    35: "kTransitConnectionDestination", 36: "kPostTransitConnectionDestination",
    37: "kMergeRight", 38: "kMergeLeft", 39: "kElevatorEnter", 40: "kStepsEnter",
    41: "kEscalatorEnter", 42: "kBuildingEnter", 43: "kBuildingExit",
}
VALHALLA_CLASS = {}
for _t in (7, 8, 17, 22, 25):
    VALHALLA_CLASS[_t] = "straight"
for _t in (9, 10, 11, 18, 20, 23, 37):
    VALHALLA_CLASS[_t] = "right"
for _t in (14, 15, 16, 19, 21, 24, 38):
    VALHALLA_CLASS[_t] = "left"
for _t in (12, 13):
    VALHALLA_CLASS[_t] = "uturn"
# 26 kRoundaboutEnter -> "exit N"; everything else is skipped

TERN_SKIP = {"depart", "arrive", "notification", "exit roundabout", "exit rotary"}
TERN_ROUNDABOUT = {"roundabout", "rotary", "roundabout turn"}


def exit_class(n):
    return f"exit {n}" if isinstance(n, int) and n > 0 else "exit ?"


def tern_class(m):
    """Decision class of one Tern maneuver, or None when it is not a decision."""
    t = m.get("type")
    if t in TERN_SKIP:
        return None
    if t in TERN_ROUNDABOUT:
        return exit_class(m.get("exit"))
    mod = m.get("modifier")
    if mod is None or mod == "straight":
        return "straight"
    if mod == "uturn":
        return "uturn"
    if mod.endswith("left"):
        return "left"
    if mod.endswith("right"):
        return "right"
    return "straight"  # unknown modifier: treat like none


def valhalla_class(m):
    if "cls" in m:  # a reference maneuver converted from OSRM (osrm_as_valhalla)
        return m["cls"]
    t = m.get("type")
    if t == 26:
        return exit_class(m.get("roundabout_exit_count"))
    return VALHALLA_CLASS.get(t)


# ---------------------------------------------------------------------------------------------
# Geometry


def decode_polyline6(s):
    """Google encoded polyline with 6 decimal digits -> [(lat, lon), ...] (bench/polyline.py)."""
    return [tuple(p) for p in decode(s)]


class Projection:
    """Local equirectangular projection to metres around a reference point."""

    def __init__(self, lat0, lon0):
        self.lat0, self.lon0 = lat0, lon0
        self.ky = math.pi / 180 * EARTH_R
        self.kx = self.ky * math.cos(lat0 * math.pi / 180)

    def xy(self, lat, lon):
        return ((lon - self.lon0) * self.kx, (lat - self.lat0) * self.ky)


def cumulative(pts):
    cum = [0.0]
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        cum.append(cum[-1] + math.hypot(x1 - x0, y1 - y0))
    return cum


def resample(pts, cum, step):
    """Points every `step` metres along the polyline, both ends included."""
    if len(pts) < 2 or cum[-1] <= 0:
        return list(pts[:1])
    out, j, d = [], 0, 0.0
    total = cum[-1]
    while d < total:
        while j + 1 < len(cum) - 1 and cum[j + 1] < d:
            j += 1
        seg = cum[j + 1] - cum[j]
        f = 0.0 if seg <= 0 else (d - cum[j]) / seg
        (x0, y0), (x1, y1) = pts[j], pts[j + 1]
        out.append((x0 + f * (x1 - x0), y0 + f * (y1 - y0)))
        d += step
    out.append(pts[-1])
    return out


def seg_dist(px, py, x0, y0, x1, y1):
    dx, dy = x1 - x0, y1 - y0
    ll = dx * dx + dy * dy
    if ll <= 0:
        return math.hypot(px - x0, py - y0)
    f = max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / ll))
    return math.hypot(px - (x0 + f * dx), py - (y0 + f * dy))


class SegmentGrid:
    """Answers "is this point within r metres of the polyline?" via a uniform grid of segments."""

    def __init__(self, pts, r, cell=40.0):
        self.r, self.cell, self.pts = r, cell, pts
        self.cells = collections.defaultdict(list)
        for i in range(len(pts) - 1):
            (x0, y0), (x1, y1) = pts[i], pts[i + 1]
            cx0, cx1 = int(math.floor((min(x0, x1) - r) / cell)), int(math.floor((max(x0, x1) + r) / cell))
            cy0, cy1 = int(math.floor((min(y0, y1) - r) / cell)), int(math.floor((max(y0, y1) + r) / cell))
            for cx in range(cx0, cx1 + 1):
                for cy in range(cy0, cy1 + 1):
                    self.cells[(cx, cy)].append(i)
        if len(pts) == 1:
            x, y = pts[0]
            self.cells[(int(math.floor(x / cell)), int(math.floor(y / cell)))].append(-1)

    def near(self, x, y):
        key = (int(math.floor(x / self.cell)), int(math.floor(y / self.cell)))
        for i in self.cells.get(key, ()):
            if i < 0:
                x0, y0 = self.pts[0]
                if math.hypot(x - x0, y - y0) <= self.r:
                    return True
                continue
            (x0, y0), (x1, y1) = self.pts[i], self.pts[i + 1]
            if seg_dist(x, y, x0, y0, x1, y1) <= self.r:
                return True
        return False


def on_fraction(samples, grid):
    if not samples:
        return 0.0
    return sum(1 for x, y in samples if grid.near(x, y)) / len(samples)


def point_at(pts, cum, d):
    d = max(0.0, min(cum[-1], d))
    j = max(0, min(len(cum) - 2, bisect.bisect_right(cum, d) - 1))
    seg = cum[j + 1] - cum[j]
    f = 0.0 if seg <= 0 else (d - cum[j]) / seg
    (x0, y0), (x1, y1) = pts[j], pts[j + 1]
    return x0 + f * (x1 - x0), y0 + f * (y1 - y0)


def turn_angle(pts, cum, along, reach=30.0):
    """Heading change of the shape at `along` (degrees, + = right, - = left), measured from the
    point `reach` m before to the point `reach` m after. Only for the examples (not for scoring)."""
    if len(pts) < 2 or along <= 0 or along >= cum[-1]:
        return None
    ax, ay = point_at(pts, cum, along - reach)
    px, py = point_at(pts, cum, along)
    bx, by = point_at(pts, cum, along + reach)
    if math.hypot(px - ax, py - ay) < 1 or math.hypot(bx - px, by - py) < 1:
        return None
    h_in = math.degrees(math.atan2(px - ax, py - ay))
    h_out = math.degrees(math.atan2(bx - px, by - py))
    return round((h_out - h_in + 180.0) % 360.0 - 180.0)


# ---------------------------------------------------------------------------------------------
# Decisions


def tern_decisions(route, proj, pts, cum):
    """[(x, y, class, maneuver, lat, lon, turn angle)] of Tern's decision maneuvers."""
    mans = route.get("maneuvers") or []
    steps = [float(m.get("distance_m") or 0.0) for m in mans]
    total_steps = sum(steps)
    scale = cum[-1] / total_steps if total_steps > 0 and cum[-1] > 0 else 1.0
    out = []
    along = 0.0
    for k, m in enumerate(mans):
        if k > 0:
            along += steps[k - 1]
        c = tern_class(m)
        if c is None:
            continue
        target = along * scale
        j = bisect.bisect_left(cum, target)
        if j >= len(cum):
            j = len(cum) - 1
        elif j > 0 and target - cum[j - 1] < cum[j] - target:
            j -= 1
        lat, lon = route["shape"][j]
        out.append((pts[j][0], pts[j][1], c, m, lat, lon, turn_angle(pts, cum, cum[j]), j))
    return out


def valhalla_decisions(legs_shapes, legs_mans, proj):
    out = []
    first = 0  # index in the trip's shape (the legs' shapes joined) of this leg's first point
    for shape, mans in zip(legs_shapes, legs_mans):
        pts = [proj.xy(lat, lon) for lat, lon in shape]
        cum = cumulative(pts)
        for m in mans:
            c = valhalla_class(m)
            if c is None:
                continue
            i = min(max(0, m.get("begin_shape_index", 0)), len(shape) - 1)
            lat, lon = shape[i]
            out.append((pts[i][0], pts[i][1], c, m, lat, lon, turn_angle(pts, cum, cum[i]), first + i))
        first += len(shape)
    return out


def on_shared_stretch(pts, cum, along, other_grid, reach=SHARED_M):
    """True when this route, from `reach` m before the decision at `along` to `reach` m after it
    (clipped to the route), lies within NEAR_M of the other route all the way (every SHARED_STEP_M
    metres): the two routes pass the decision point the same way in and the same way out."""
    d = max(0.0, along - reach)
    end = min(cum[-1], along + reach)
    while True:
        if not other_grid.near(*point_at(pts, cum, d)):
            return False
        if d >= end:
            return True
        d = min(end, d + SHARED_STEP_M)


def nearest_along(pts, cum, x, y):
    """Along-route distance of the point of the polyline nearest (x, y)."""
    best, best_along = float("inf"), 0.0
    for k in range(len(pts) - 1):
        (x0, y0), (x1, y1) = pts[k], pts[k + 1]
        dx, dy = x1 - x0, y1 - y0
        l2 = dx * dx + dy * dy
        t = 0.0 if l2 == 0 else max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / l2))
        d = math.hypot(x0 + t * dx - x, y0 + t * dy - y)
        if d < best:
            best, best_along = d, cum[k] + t * (cum[k + 1] - cum[k])
    return best_along


def split_shared(ds, own, other, reach):
    """(compared, left out): the decisions where both routes go the same way in and out: this
    route from `reach` m before to `reach` m after the decision lies along the other route, and
    the other route, the same distances round its point nearest the decision, lies along this
    one (both ways: a route that comes in by a side street a few metres off still lies within
    15 m of the other for a short side street; the other route's way in does not lie along it).
    All of them are compared when reach is 0. own, other: (pts, cum, grid)."""
    if reach <= 0:
        return ds, []
    (pts, cum, grid), (o_pts, o_cum, o_grid) = own, other
    keep, apart = [], []
    for d in ds:
        shared = (on_shared_stretch(pts, cum, cum[d[7]], o_grid, reach)
                  and on_shared_stretch(o_pts, o_cum, nearest_along(o_pts, o_cum, d[0], d[1]), grid, reach))
        (keep if shared else apart).append(d)
    return keep, apart


def align(td, vd):
    """One-to-one pairing, closest first, within PAIR_M. Returns (pairs, tern_unpaired, val_unpaired)."""
    cand = []
    for i, a in enumerate(td):
        for j, b in enumerate(vd):
            d = math.hypot(a[0] - b[0], a[1] - b[1])
            if d <= PAIR_M:
                cand.append((d, i, j))
    cand.sort()
    used_t, used_v, pairs = set(), set(), []
    for d, i, j in cand:
        if i in used_t or j in used_v:
            continue
        used_t.add(i)
        used_v.add(j)
        pairs.append((i, j, d))
    pairs.sort()
    return pairs, [i for i in range(len(td)) if i not in used_t], [j for j in range(len(vd)) if j not in used_v]


# ---------------------------------------------------------------------------------------------
# OSRM as either engine (--candidate osrm / --reference osrm)


def osrm_maneuver(step):
    man = step["maneuver"]
    m = {"type": man.get("type"), "distance_m": step.get("distance", 0.0), "street": step.get("name", "")}
    if man.get("modifier") is not None:
        m["modifier"] = man["modifier"]
    if man.get("exit") is not None:
        m["exit"] = man["exit"]
    m["instruction"] = (step.get("name") or step.get("ref") or "")
    return m


def osrm_as_tern(resp):
    """OSRM's answer in the shape of one `tern route --json` answer (ok, shape, distance_m, maneuvers)."""
    if resp.get("code") != "Ok" or not resp.get("routes"):
        return {"ok": False, "error": resp.get("code")}
    route = resp["routes"][0]
    steps = [s for leg in route["legs"] for s in leg["steps"]]
    return {"ok": True, "shape": decode_polyline6(route["geometry"]), "distance_m": route["distance"],
            "maneuvers": [osrm_maneuver(s) for s in steps]}


def osrm_as_valhalla(resp):
    """OSRM's answer in the shape of Valhalla's trip: legs with a polyline6 shape and maneuvers that
    carry their decision class ("cls", from tern_class, as OSRM speaks OSRM's vocabulary) and the
    index of their first point in the leg's shape."""
    if resp.get("code") != "Ok" or not resp.get("routes"):
        raise RuntimeError(f"OSRM: {resp.get('code')} {resp.get('message', '')}")
    route = resp["routes"][0]
    legs = []
    for leg in route["legs"]:
        shape, mans = [], []
        for s in leg["steps"]:
            pts = decode_polyline6(s["geometry"])
            if shape and pts and shape[-1] == pts[0]:
                pts = pts[1:]
                begin = len(shape) - 1
            else:
                begin = len(shape)
            m = osrm_maneuver(s)
            c = tern_class(m)
            if c is not None:
                mans.append({"cls": c, "desc": describe_tern(m), "begin_shape_index": begin})
            shape.extend(pts)
        legs.append({"shape": encode_polyline6(shape), "maneuvers": mans})
    return {"trip": {"legs": legs, "summary": {"length": route["distance"] / 1000.0}}}


def encode_polyline6(pts):
    out, plat, plon = [], 0, 0
    for lat, lon in pts:
        ilat, ilon = round(lat * 1e6), round(lon * 1e6)
        for v in (ilat - plat, ilon - plon):
            v = ~(v << 1) if v < 0 else v << 1
            while v >= 0x20:
                out.append(chr((0x20 | (v & 0x1F)) + 63))
                v >>= 5
            out.append(chr(v + 63))
        plat, plon = ilat, ilon
    return "".join(out)


class ValhallaReference:
    def __init__(self, actor):
        self.actor = actor

    def route(self, q):
        raw = self.actor.route(valhalla_request(q))
        return json.loads(raw) if isinstance(raw, (str, bytes)) else raw


class OsrmReference:
    def __init__(self, server):
        self.server = server

    def route(self, q):
        return osrm_as_valhalla(self.server.route(q))


# ---------------------------------------------------------------------------------------------


def snapshot_tern(tern, dest_dir, settle_s=3.0, patience_s=600.0):
    """Copies the tern binary into dest_dir once it has not changed for settle_s seconds, so a
    rebuild running beside this script can neither swap the binary between extracts nor make it
    busy ("Text file busy") mid-run. Returns (copy path, stat of the original that was copied)."""
    deadline = time.time() + patience_s
    while True:
        st = tern.stat()
        if time.time() - st.st_mtime >= settle_s:
            copy = Path(dest_dir) / "tern"
            shutil.copyfile(tern, copy)
            os.chmod(copy, 0o755)
            after = tern.stat()
            if (after.st_mtime, after.st_size) == (st.st_mtime, st.st_size) and copy.stat().st_size == st.st_size:
                return copy, st
        if time.time() > deadline:
            sys.exit(f"{tern} keeps changing (a build is running?); try again later")
        time.sleep(2.0)


def ensure_tiles(valhalla_dir, name, pbf_dir):
    """<valhalla_dir>/<name>, with Valhalla tiles built there from <pbf_dir>/<name>.osm.pbf first
    when it holds none (as bench/valhalla_baseline.py builds them)."""
    tiles = Path(valhalla_dir) / name
    if not (tiles / "valhalla_tiles.tar").is_file():
        pbf = Path(pbf_dir) / f"{name}.osm.pbf"
        if not pbf.is_file():
            sys.exit(f"no Valhalla tiles in {tiles} and no {pbf} to build them from")
        print(f"building Valhalla tiles for {name} in {tiles} (once)", file=sys.stderr)
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from valhalla_baseline import build_tiles
        build_tiles(pbf.resolve(), tiles.resolve(), 1, False)
    return tiles


def admin_db_of(tiles):
    """Path of the admin database the tiles were built with (from <tiles>/valhalla.json), or None
    when there was none (file missing, or holding no admin areas)."""
    try:
        cfg = json.loads((tiles / "valhalla.json").read_text())
        path = Path(cfg["mjolnir"]["admin"])
    except (OSError, ValueError, KeyError):
        return None
    if not path.is_file():
        return None
    try:
        import sqlite3
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            if db.execute("select count(*) from admins").fetchone()[0] == 0:
                return None
    except Exception:
        pass
    return str(path)


def run_tern(tern, tmap, queries):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"queries": queries}, f)
        qpath = f.name
    try:
        out = subprocess.run([str(tern), "route", "--map", str(tmap), "--queries", qpath, "--json"],
                             capture_output=True, text=True)
    finally:
        os.unlink(qpath)
    if out.returncode != 0:
        # (tern's own message: a map of an older format says to re-import it)
        sys.exit(f"{tern} route on {tmap} failed: {out.stderr.strip() or out.returncode}")
    return {r["id"]: r for r in json.loads(out.stdout)}


def valhalla_request(q):
    return json.dumps({
        "locations": [{"lat": lat, "lon": lon, "type": "break"} for lat, lon in q["locations"]],
        "costing": "auto",
        "directions_options": {"language": "en-US", "units": "kilometers"},
    })


def describe_tern(m):
    return f"{m.get('type')}" + (f" {m.get('modifier')}" if m.get("modifier") else "") + \
        (f" exit={m.get('exit')}" if m.get("exit") is not None else "") + f" \"{m.get('instruction', '')}\""


def describe_valhalla(m):
    if "cls" in m:
        return m["desc"]
    t = m.get("type")
    s = VALHALLA_TYPE_NAMES.get(t, str(t))
    if t == 26:
        s += f" exit_count={m.get('roundabout_exit_count')}"
    return s + f" \"{m.get('instruction', '')}\""


class Tally:
    def __init__(self):
        self.queries = 0
        self.tern_failed = 0
        self.valhalla_failed = 0
        self.coinciding = 0
        self.not_coinciding_length = 0
        self.not_coinciding_shape = 0
        self.tern_decisions = 0
        self.valhalla_decisions = 0
        self.paired = 0
        self.agreed = 0
        self.apart_tern = 0              # decisions where the routes part (not compared)
        self.apart_valhalla = 0
        self.exit_number_only = 0        # paired roundabout decisions that differ only in the exit number
        self.missing_tern_only = 0       # non-straight Tern decision, nothing on Valhalla's side
        self.missing_valhalla_only = 0
        self.extra_straight_tern = 0
        self.extra_straight_valhalla = 0
        self.routes_all_agree = 0
        self.kinds = collections.Counter()
        self.confusion = collections.Counter()
        self.examples = collections.defaultdict(list)
        self.pair_dist = []

    @property
    def counted(self):
        return self.paired + self.missing_tern_only + self.missing_valhalla_only

    def add(self, other):
        for k, v in vars(other).items():
            if isinstance(v, int):
                setattr(self, k, getattr(self, k) + v)
        self.kinds.update(other.kinds)
        self.confusion.update(other.confusion)
        for k, v in other.examples.items():
            self.examples[k].extend(v)
        self.pair_dist.extend(other.pair_dist)

    def summary(self, examples_per_kind=3):
        counted = self.counted
        pd = sorted(self.pair_dist)
        return {
            "queries": self.queries,
            "tern_failed": self.tern_failed,
            "valhalla_failed": self.valhalla_failed,
            "coinciding": self.coinciding,
            "not_coinciding_length": self.not_coinciding_length,
            "not_coinciding_shape": self.not_coinciding_shape,
            "tern_decisions": self.tern_decisions,
            "valhalla_decisions": self.valhalla_decisions,
            "apart_tern": self.apart_tern,
            "apart_valhalla": self.apart_valhalla,
            "paired": self.paired,
            "missing_tern_only": self.missing_tern_only,
            "missing_valhalla_only": self.missing_valhalla_only,
            "counted": counted,
            "agreed": self.agreed,
            "agreement": round(self.agreed / counted, 4) if counted else None,
            "agreement_paired_only": round(self.agreed / self.paired, 4) if self.paired else None,
            "exit_number_only": self.exit_number_only,
            "agreement_ignoring_exit_numbers": round((self.agreed + self.exit_number_only) / counted, 4) if counted else None,
            "extra_straight_tern": self.extra_straight_tern,
            "extra_straight_valhalla": self.extra_straight_valhalla,
            "routes_all_agree": self.routes_all_agree,
            "pair_distance_m_median": round(pd[len(pd) // 2], 1) if pd else None,
            "pair_distance_m_p95": round(pd[min(len(pd) - 1, int(0.95 * len(pd)))], 1) if pd else None,
            "disagreements": [
                {"kind": k, "n": n, "examples": self.examples[k][:examples_per_kind]}
                for k, n in self.kinds.most_common()
            ],
            "confusion": {f"{t} | {v}": n for (t, v), n in sorted(self.confusion.items())},
        }


def compare_routes(tr, vr, shared_m):
    """Tern's route `tr` (one `tern route --json` answer, or OSRM's made into one) against the
    reference's trip `vr` (Valhalla's answer, or OSRM's made into one). Returns a namespace:
    lengths (t_len, v_len), the share of each shape on the other (t_on, v_on), the projected
    shapes (proj, t_pts, t_cum, v_pts, v_cum), the status ("coinciding", "lengths differ",
    "shapes differ") and, when coinciding, the decisions of each (n_tern, n_valhalla), those
    compared (td, vd: where both routes go the same way in and out), how many were left out
    where the routes part (apart_tern, apart_valhalla) and their pairing (pairs, t_un, v_un)."""
    legs = vr["trip"]["legs"]
    v_len = float(vr["trip"]["summary"]["length"]) * 1000.0
    t_shape = [tuple(p) for p in tr["shape"]]
    v_leg_shapes = [decode_polyline6(leg["shape"]) for leg in legs]
    v_shape = [p for s in v_leg_shapes for p in s]
    proj = Projection(*t_shape[0])
    t_pts = [proj.xy(*p) for p in t_shape]
    v_pts = [proj.xy(*p) for p in v_shape]
    t_cum, v_cum = cumulative(t_pts), cumulative(v_pts)
    t_len = float(tr.get("distance_m") or t_cum[-1])
    c = types.SimpleNamespace(t_len=t_len, v_len=v_len, proj=proj, t_pts=t_pts, t_cum=t_cum, v_pts=v_pts, v_cum=v_cum)
    length_ok = t_len > 0 and v_len > 0 and abs(t_len / v_len - 1) <= LENGTH_TOL and abs(v_len / t_len - 1) <= LENGTH_TOL
    v_grid, t_grid = SegmentGrid(v_pts, NEAR_M), SegmentGrid(t_pts, NEAR_M)
    c.t_on = on_fraction(resample(t_pts, t_cum, SAMPLE_STEP_M), v_grid)
    c.v_on = on_fraction(resample(v_pts, v_cum, SAMPLE_STEP_M), t_grid)
    if not length_ok:
        c.status = "lengths differ"
    elif c.t_on < ON_FRACTION or c.v_on < ON_FRACTION:
        c.status = "shapes differ"
    else:
        c.status = "coinciding"
        td = tern_decisions(tr, proj, t_pts, t_cum)
        vd = valhalla_decisions(v_leg_shapes, [leg.get("maneuvers", []) for leg in legs], proj)
        c.n_tern, c.n_valhalla = len(td), len(vd)
        # only decisions where the two routes go the same way in and out are compared
        t_route, v_route = (t_pts, t_cum, t_grid), (v_pts, v_cum, v_grid)
        c.td, t_apart = split_shared(td, t_route, v_route, shared_m)
        c.vd, v_apart = split_shared(vd, v_route, t_route, shared_m)
        c.apart_tern, c.apart_valhalla = len(t_apart), len(v_apart)
        c.pairs, c.t_un, c.v_un = align(c.td, c.vd)
    return c


def compare_extract(name, a, reference, tern_bin, candidate_osrm=None):
    qfile = SHARED / "data" / "bench" / f"{name}-queries.json"
    queries = json.loads(qfile.read_text())["queries"]
    if a.limit:
        queries = queries[: a.limit]
    if candidate_osrm is not None:
        tern = {q["id"]: osrm_as_tern(candidate_osrm.route(q)) for q in queries}
    else:
        tern = run_tern(tern_bin, WORK / f"{name}.tmap", queries)
    tally = Tally()
    per_query = []
    for q in queries:
        tally.queries += 1
        rec = {"id": q["id"]}
        per_query.append(rec)
        tr = tern.get(q["id"])
        if not tr or not tr.get("ok") or not tr.get("shape"):
            tally.tern_failed += 1
            rec["status"] = "tern failed"
            continue
        try:
            vr = reference.route(q)
            if not isinstance(vr["trip"]["legs"], list):  # (a malformed answer raises here)
                raise ValueError("no legs")
            float(vr["trip"]["summary"]["length"])
        except Exception as e:  # ValhallaError (RuntimeError) on no route, or a malformed answer
            tally.valhalla_failed += 1
            rec["status"] = "valhalla failed"
            rec["error"] = str(e)[:200]
            continue
        c = compare_routes(tr, vr, a.shared_m)
        rec.update(tern_m=round(c.t_len, 1), valhalla_m=round(c.v_len, 1),
                   tern_on_valhalla=round(c.t_on, 3), valhalla_on_tern=round(c.v_on, 3))
        rec["status"] = c.status
        if c.status == "lengths differ":
            tally.not_coinciding_length += 1
            continue
        if c.status == "shapes differ":
            tally.not_coinciding_shape += 1
            continue
        tally.coinciding += 1
        tally.tern_decisions += c.n_tern
        tally.valhalla_decisions += c.n_valhalla
        tally.apart_tern += c.apart_tern
        tally.apart_valhalla += c.apart_valhalla
        td, vd, pairs, t_un, v_un = c.td, c.vd, c.pairs, c.t_un, c.v_un
        route_bad = 0

        def example(kind, t, v, d=None):
            anchor = t if t is not None else v
            vturn = None
            if v is not None and "bearing_before" in v[3] and "bearing_after" in v[3]:
                vturn = round((v[3]["bearing_after"] - v[3]["bearing_before"] + 180) % 360 - 180)
            ex = {"id": q["id"], "lat": round(anchor[4], 6), "lon": round(anchor[5], 6), "shape_turn_deg": anchor[6],
                  "valhalla_bearing_change_deg": vturn,
                  "tern": describe_tern(t[3]) if t is not None else None,
                  "tern_street": t[3].get("street") if t is not None else None,
                  "valhalla": describe_valhalla(v[3]) if v is not None else None,
                  "valhalla_streets": v[3].get("street_names") if v is not None else None}
            if d is not None:
                ex["pair_m"] = round(d, 1)
            tally.examples[kind].append(ex)

        for i, j, d in pairs:
            t, v = td[i], vd[j]
            tally.paired += 1
            tally.pair_dist.append(d)
            tally.confusion[(t[2], v[2])] += 1
            if t[2] == v[2]:
                tally.agreed += 1
            else:
                if t[2].startswith("exit") and v[2].startswith("exit"):
                    tally.exit_number_only += 1
                route_bad += 1
                kind = f"{CAND} {t[2]} / {REF} {v[2]}"
                tally.kinds[kind] += 1
                example(kind, t, v, d)
        def unpaired(d, side):
            """A decision of one engine with nothing within reach on the other."""
            nonlocal route_bad
            cls = d[2]
            tally.confusion[(cls, "none") if side == "tern" else ("none", cls)] += 1
            if cls == "straight":
                if side == "tern":
                    tally.extra_straight_tern += 1
                else:
                    tally.extra_straight_valhalla += 1
                return
            if side == "tern":
                tally.missing_tern_only += 1
            else:
                tally.missing_valhalla_only += 1
            route_bad += 1
            kind = f"{CAND} {cls} / {REF} none" if side == "tern" else f"{CAND} none / {REF} {cls}"
            tally.kinds[kind] += 1
            example(kind, d if side == "tern" else None, None if side == "tern" else d)

        for i in t_un:
            unpaired(td[i], "tern")
        for j in v_un:
            unpaired(vd[j], "valhalla")
        if route_bad == 0:
            tally.routes_all_agree += 1
        rec.update(decisions_tern=len(td), decisions_valhalla=len(vd), paired=len(pairs), disagreements=route_bad)
    return tally, per_query


def pct(a, b):
    return f"{100.0 * a / b:.1f}%" if b else "n/a"


def print_tally(label, t, top, examples):
    s = t.summary()
    print(f"\n== {label}")
    print(f"queries {t.queries}: {CAND} failed {t.tern_failed}, {REF} failed {t.valhalla_failed}; "
          f"coinciding {t.coinciding}/{t.queries} "
          f"(not coinciding: lengths >5% apart {t.not_coinciding_length}, shapes apart {t.not_coinciding_shape})")
    print(f"decisions on coinciding routes: {CAND} {t.tern_decisions}, {REF} {t.valhalla_decisions}; "
          f"not compared where the routes part: {CAND} {t.apart_tern}, {REF} {t.apart_valhalla}; "
          f"paired {t.paired} (distance median {s['pair_distance_m_median']} m, p95 {s['pair_distance_m_p95']} m)")
    print(f"counted {t.counted} = paired {t.paired} + missing non-straight ({CAND} only {t.missing_tern_only}, "
          f"{REF} only {t.missing_valhalla_only})")
    print(f"agreed {t.agreed}/{t.counted} = {pct(t.agreed, t.counted)}   "
          f"(paired only: {pct(t.agreed, t.paired)}; routes with no disagreement: {t.routes_all_agree}/{t.coinciding})")
    print(f"extra straight, not counted: {CAND} {t.extra_straight_tern}, {REF} {t.extra_straight_valhalla}")
    print(f"diagnostic, not the target figure: {t.exit_number_only} paired roundabouts differ only in the exit number; "
          f"not comparing exit numbers would give {pct(t.agreed + t.exit_number_only, t.counted)}")
    if t.kinds:
        print(f"top disagreements ({sum(t.kinds.values())} in all):")
        for kind, n in t.kinds.most_common(top):
            print(f"  {n:5}  {kind}")
            for ex in t.examples[kind][:examples]:
                vb = ex["valhalla_bearing_change_deg"]
                print(f"           {ex['id']} @{ex['lat']},{ex['lon']} (shape turns {ex['shape_turn_deg']}°"
                      f"{'' if vb is None else f', {REF} bearings {vb:+d}°'}): "
                      f"{CAND} {ex['tern']} | {REF} {ex['valhalla']}")


def print_confusion(t):
    rows = sorted({a for a, _ in t.confusion} - {"none"}) + ["none"]
    cols = sorted({b for _, b in t.confusion} - {"none"}) + ["none"]
    w = max(9, max(len(c) for c in cols) + 1)
    print(f"\nconfusion (rows: {CAND} class, columns: {REF} class; 'none' = no decision within "
          f"{PAIR_M:.0f} m; straight/none cells are not counted):")
    print(f"{'':10}" + "".join(f"{c:>{w}}" for c in cols))
    for r in rows:
        print(f"{r:10}" + "".join(f"{t.confusion.get((r, c), 0) or '.':>{w}}" for c in cols))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--extracts", default=",".join(ALL_EXTRACTS))
    ap.add_argument("--limit", type=int, default=0, help="first N queries per extract (0: all)")
    ap.add_argument("--shared-m", type=float, default=SHARED_M,
                    help="compare a decision only where both routes share this many metres before and after it (0: every decision)")
    ap.add_argument("--json", help="write the summary (and per-query status) here")
    ap.add_argument("--top", type=int, default=8, help="disagreement kinds to print per extract")
    ap.add_argument("--examples", type=int, default=1, help="examples to print per disagreement kind")
    ap.add_argument("--tern", default=str(TERN), help="tern binary (default .build/release/tern)")
    ap.add_argument("--valhalla-dir", default=str(WORK / "valhalla"),
                    help="Valhalla tiles: <dir>/<extract>/valhalla_tiles.tar (default .bench/valhalla)")
    ap.add_argument("--pbf-dir", default=str(SHARED / "data" / "osm"),
                    help="build missing Valhalla tiles from <dir>/<extract>.osm.pbf")
    ap.add_argument("--candidate", choices=["tern", "osrm"], default="tern",
                    help="the engine measured (osrm: OSRM 26.10's own car profile and guidance, osrm-routed from "
                         ".bench/osrm-venv, to see how far OSRM's narration itself agrees)")
    ap.add_argument("--reference", choices=["valhalla", "osrm"], default="valhalla",
                    help="the engine measured against (default valhalla, the issue's target)")
    a = ap.parse_args(argv)
    if a.candidate == "osrm" and a.reference == "osrm":
        sys.exit("--candidate osrm with --reference osrm compares OSRM with itself")
    global CAND, REF
    CAND, REF = a.candidate, a.reference

    tern_bin = Path(a.tern)
    if a.candidate == "tern" and not tern_bin.exists():
        sys.exit(f"no {tern_bin}: build first (swift build -c release --product tern)")
    names = [e for e in a.extracts.split(",") if e]
    t0 = time.perf_counter()
    tmpdir = tempfile.mkdtemp(prefix="tern-turns-")
    try:
        if a.candidate == "tern":
            tern_copy, st = snapshot_tern(tern_bin, tmpdir)
        else:
            tern_copy, st = None, None
        return run_all(a, names, tern_bin, tern_copy, st, t0)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def run_all(a, names, tern_bin, tern_copy, st, t0):
    engines = [f"tern binary {tern_bin} ({st.st_size} bytes, modified {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(st.st_mtime))})"
               if st is not None else f"candidate osrm-routed ({osrm_bin_dir()})"]
    engines.append(f"reference valhalla {valhalla.__version__}" if a.reference == "valhalla"
                   else f"reference osrm-routed ({osrm_bin_dir()})")
    print("; ".join(engines))
    print(f"coincide: lengths within {LENGTH_TOL:.0%}, >= {ON_FRACTION:.0%} of each shape (every {SAMPLE_STEP_M:.0f} m) "
          f"within {NEAR_M:.0f} m of the other; decisions paired within {PAIR_M:.0f} m"
          + (f", compared where both routes share {a.shared_m:.0f} m before and after them" if a.shared_m > 0
             else ", every decision compared (--shared-m 0)"))

    total = Tally()
    out = {"meta": {"candidate": a.candidate, "reference": a.reference,
                    "note": "the 'tern' keys hold the candidate's counts and the 'valhalla' keys the reference's",
                    "tern": str(tern_bin) if st else None,
                    "tern_mtime": time.strftime('%Y-%m-%dT%H:%M:%S', time.localtime(st.st_mtime)) if st else None,
                    "tern_size": st.st_size if st else None, "valhalla": valhalla.__version__,
                    "length_tol": LENGTH_TOL, "sample_step_m": SAMPLE_STEP_M, "near_m": NEAR_M,
                    "on_fraction": ON_FRACTION, "pair_m": PAIR_M, "shared_m": a.shared_m, "limit": a.limit,
                    "valhalla_dir": str(a.valhalla_dir)},
           "extracts": {}}
    for name in names:
        tmap = WORK / f"{name}.tmap"
        if a.candidate == "tern" and not tmap.exists():
            sys.exit(f"no {tmap}: import the extract first (bench/run.py or tern import)")
        if a.reference == "osrm" or a.candidate == "osrm":
            server = OsrmServer(name, a.pbf_dir)
        if a.reference == "osrm":
            try:
                tally, per_query = compare_extract(name, a, OsrmReference(server), tern_copy)
            finally:
                server.close()
            print_tally(name, tally, a.top, a.examples)
            total.add(tally)
            out["extracts"].setdefault(name, {}).update(summary=tally.summary(max(3, a.examples)), queries=per_query)
            continue
        tiles = ensure_tiles(a.valhalla_dir, name, a.pbf_dir)
        admin = admin_db_of(tiles)
        if not admin:
            print(f"\nNOTE {name}: the Valhalla tiles in {tiles} were built without an admin database "
                  f"(valhalla_build_admins); Valhalla then treats every road as left-hand traffic and miscounts "
                  f"roundabout exits (it says '2nd exit' for most, cf. valhalla/valhalla#5116). Its exit numbers "
                  f"are compared anyway, as defined.")
        out["extracts"].setdefault(name, {})["valhalla_admin_db"] = admin
        actor = valhalla.Actor(valhalla.get_config(tile_extract=tiles / "valhalla_tiles.tar", tile_dir=""))
        try:
            tally, per_query = compare_extract(name, a, ValhallaReference(actor), tern_copy,
                                               server if a.candidate == "osrm" else None)
        finally:
            if a.candidate == "osrm":
                server.close()
        del actor
        print_tally(name, tally, a.top, a.examples)
        total.add(tally)
        out["extracts"][name].update(summary=tally.summary(max(3, a.examples)), queries=per_query)
    if len(names) > 1:
        print_tally("overall (" + ", ".join(names) + ")", total, a.top + 4, a.examples)
    print_confusion(total)
    agreement = total.agreed / total.counted if total.counted else None
    if agreement is not None:
        if (CAND, REF) == ("tern", "valhalla"):
            print(f"\ntarget: agreement >= 90% on coinciding routes -> {agreement * 100:.1f}% "
                  f"({'met' if agreement >= 0.9 else 'not met'}); wall {time.perf_counter() - t0:.1f} s")
        else:
            print(f"\n{CAND} against {REF}: agreement {agreement * 100:.1f}% on coinciding routes "
                  f"(the issue's target, >= 90%, is for tern against valhalla); wall {time.perf_counter() - t0:.1f} s")
    out["overall"] = total.summary(max(3, a.examples))
    if a.json:
        Path(a.json).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json).write_text(json.dumps(out, indent=1, ensure_ascii=False))
        print(f"wrote {a.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
