#!/usr/bin/env python3
"""Seeded query sets for `tern search`, drawn from the OSM data of each extract.

What it writes, per extract, .bench/search/<extract>-queries.json in Tern's query format
(id, text) plus fields Tern ignores (kind, style, truth, truth_lines, osm):

    {"queries": [{"id": "heidelberg-addr-exact-1", "text": "Hauptstraße 12, Heidelberg",
                  "kind": "address", "style": "exact", "truth": [[lat, lon], ...]}, ...]}

A query is judged right (bench/search_compare.py) when an answer lies within 50 m of any truth
point or, when the query has truth_lines, of any segment of them.

The sets (up to --per-set queries each, fewer where the data has fewer):
  address/exact   "STREET NUMBER, PLACE" for nodes and closed ways (area centroid) with
                  addr:street + addr:housenumber that are buildings, amenities, shops, offices,
                  ... (ADDRESS_WAY_KEYS); not relations, not addr:place-only addresses, not
                  numbers that are lists ("1;3", "1,3"). PLACE = addr:city when tagged; else
                  the municipality (admin boundary, level 8, else 7) holding the point; else the
                  nearest place=city/town/village node within 10 km; else the most common
                  addr:city of the addresses within 1 km; an address with none is not used.
                  (The issue says "nearest place node"; the boundary goes first because the node
                  alone names e.g. Monaco's Larvotto "Beausoleil", a query no geocoder should
                  answer. Heidelberg's extract has neither boundaries nor town nodes.)
                  An address whose addr:street names no highway within 500 m (case, hyphens
                  ignored: OSM typos such as "Landstrassse", "Am Paffenrain") is dropped unless
                  --keep-unmatched-streets; one whose (street, number, place) also points
                  somewhere > 50 m away is ambiguous and dropped. truth = the address point (and
                  its duplicates within 50 m).
  address/nocity  "STREET NUMBER"; truth = every point with that street and number, any place.
  address/abbrev  address/exact with one common abbreviation in the street (Straße→Str.,
                  strasse→str., Platz→Pl., Street→St, Avenue→Av., Avinguda→Av., Boulevard→Bd,
                  Carrer→C/, Route→Rte, ...); only streets that have such a word.
  address/typo    address/exact with one typo (substitution, deletion, insertion or transposition
                  of adjacent letters, seeded) in one word of 5+ letters of the street.
  street/exact    "STREET, PLACE" for named car and pedestrian highway ways (PLACE as above, from
                  the way's middle node); truth = all nodes of all ways with that name and the same
                  place, and of those with that name within 1 km of them; truth_lines = those ways.
  street/nocity   "STREET" alone; truth = every way with that name in the extract.
  place/exact     names of place=city/town/village/suburb/hamlet/locality/neighbourhood/quarter/
                  isolated_dwelling nodes; truth = every place node with that name.
  poi/name        "NAME" of named amenity/shop/tourism nodes and closed ways (centroid) of the
                  kinds a driver looks for; names found more than 3 times in the extract (chains,
                  generic "Parkplatz") are not used; truth = every POI with that name.
  poi/name-place  "NAME, PLACE"; truth = every POI with that name and place.

Deterministic: one random.Random per (seed, extract, set), candidates sorted by OSM id before
sampling, coordinates rounded to 7 decimals; the same inputs give the same bytes.

Reproduce (pyosmium from the Nominatim venv that bench/nominatim_setup.sh makes):

    .bench/nominatim-venv/bin/python bench/search_queries.py \
        [--extracts heidelberg,liechtenstein,andorra,monaco] [--pbf-dir ../shared/data/osm] \
        [--out .bench/search] [--seed 1] [--per-set 200]

It prints the counts per set and a few data facts (addr:city share, addr:place-only addresses,
interpolation ways, place tags).
"""

import argparse
import collections
import json
import math
import os
import random
import re
import sys

import osmium

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXTRACTS = ["heidelberg", "liechtenstein", "andorra", "monaco"]

CITY_PLACES = {"city", "town", "village"}
PLACE_QUERY_TYPES = {"city", "town", "village", "suburb", "hamlet", "locality", "neighbourhood",
                     "quarter", "isolated_dwelling"}
STREET_HIGHWAYS = {"motorway", "trunk", "primary", "secondary", "tertiary", "unclassified",
                   "residential", "living_street", "pedestrian", "service", "road",
                   "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link"}
POI_TAGS = {
    "amenity": {"fuel", "charging_station", "parking", "restaurant", "cafe", "fast_food", "bar",
                "pub", "biergarten", "ice_cream", "pharmacy", "hospital", "clinic", "doctors",
                "dentist", "bank", "atm", "post_office", "police", "fire_station", "townhall",
                "library", "school", "kindergarten", "college", "university", "theatre", "cinema",
                "arts_centre", "community_centre", "place_of_worship", "marketplace", "car_wash",
                "car_rental", "bicycle_rental", "nightclub", "veterinary", "courthouse",
                "bus_station", "ferry_terminal"},
    "shop": None,       # any shop
    "tourism": {"hotel", "motel", "guest_house", "hostel", "apartment", "camp_site",
                "caravan_site", "museum", "attraction", "viewpoint", "information", "gallery",
                "zoo", "theme_park", "chalet", "alpine_hut"},
}
# A closed way's address is used when the way is one of these (not a garden, a landuse, a
# removed:building, ...).
ADDRESS_WAY_KEYS = ("building", "building:part", "amenity", "shop", "tourism", "office", "craft",
                    "healthcare", "historic")
POI_MAX_SAME_NAME = 3
SAME_POINT_M = 50.0
STREET_MATCH_M = 500.0
STREET_NEAR_M = 1000.0

# (pattern, replacement), tried in order; the first that matches is applied once.
ABBREVIATIONS = [
    (r"(?<=\w)straße\b", "str."), (r"\bStraße\b", "Str."),
    (r"(?<=\w)strasse\b", "str."), (r"\bStrasse\b", "Str."),
    (r"(?<=\w)platz\b", "pl."), (r"\bPlatz\b", "Pl."),
    (r"\bAvinguda\b", "Av."), (r"\bAvenue\b", "Av."), (r"\bBoulevard\b", "Bd"),
    (r"\bCarrer\b", "C/"), (r"\bRoute\b", "Rte"), (r"\bStreet\b", "St"), (r"\bRoad\b", "Rd"),
    (r"\bPlace\b", "Pl."), (r"\bPlaça\b", "Pl."), (r"\bChemin\b", "Ch."),
    (r"\bSaint\b", "St"), (r"\bSainte\b", "Ste"), (r"\bSankt\b", "St."),
]


def haversine_m(a, b):
    lat1, lon1 = map(math.radians, a)
    lat2, lon2 = map(math.radians, b)
    h = (math.sin((lat2 - lat1) / 2) ** 2
         + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2)
    return 2 * 6371008.8 * math.asin(min(1.0, math.sqrt(h)))


def area_centroid(coords):
    """Centroid of a closed ring (list of (lat, lon)), planar in a local projection; the vertex
    mean for degenerate rings."""
    if len(coords) < 4:
        return (sum(c[0] for c in coords) / len(coords), sum(c[1] for c in coords) / len(coords))
    lat0, lon0 = coords[0]
    k = math.cos(math.radians(lat0))
    pts = [((lon - lon0) * k, lat - lat0) for lat, lon in coords]
    a = cx = cy = 0.0
    for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
        cr = x1 * y2 - x2 * y1
        a += cr
        cx += (x1 + x2) * cr
        cy += (y1 + y2) * cr
    if abs(a) < 1e-14:
        return (sum(c[0] for c in coords) / len(coords), sum(c[1] for c in coords) / len(coords))
    cx /= 3 * a
    cy /= 3 * a
    return (lat0 + cy, lon0 + cx / k)


def rnd(p):
    return [round(p[0], 7), round(p[1], 7)]


class Grid:
    """A coarse spatial hash for 'nearest within R' look-ups (cell about 1 km)."""

    def __init__(self, cell_deg=0.01):
        self.cell = cell_deg
        self.cells = collections.defaultdict(list)

    def key(self, p):
        return (int(math.floor(p[0] / self.cell)), int(math.floor(p[1] / self.cell)))

    def add(self, p, item):
        self.cells[self.key(p)].append((p, item))

    def near(self, p, radius_m):
        r = int(math.ceil(radius_m / (self.cell * 111000 * max(0.2, math.cos(math.radians(p[0])))))) + 1
        ky, kx = self.key(p)
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                for q, item in self.cells.get((ky + dy, kx + dx), ()):
                    d = haversine_m(p, q)
                    if d <= radius_m:
                        yield d, item


class Reader:
    """One pass over the PBF with node locations: addresses, highways, places, POIs, facts."""

    def __init__(self, path):
        self.addresses = []   # dict(osm, street, number, city, point)
        self.highways = []    # dict(osm, name, coords)
        self.places = []      # dict(osm, name, place, point)
        self.pois = []        # dict(osm, name, city, point, tag)
        self.facts = collections.Counter()
        self.place_tags = collections.Counter()
        self.boundaries = []  # dict(name, level, bbox, rings): municipalities (admin_level 7-8)
        fp = osmium.FileProcessor(path).with_areas(
            osmium.filter.TagFilter(("boundary", "administrative")))
        for o in fp:
            if o.is_node():
                self._node(o)
            elif o.is_way():
                self._way(o)
            elif o.is_relation():
                self._relation(o)
            elif o.is_area():
                self._area(o)

    def _area(self, o):
        t = o.tags
        if o.from_way() or t.get("boundary") != "administrative" or not t.get("name"):
            return
        if t.get("admin_level") not in ("7", "8"):
            return
        rings = []
        for outer in o.outer_rings():
            rings.append([(n.lon, n.lat) for n in outer])
            for inner in o.inner_rings(outer):
                rings.append([(n.lon, n.lat) for n in inner])
        if not rings:
            return
        xs = [x for r in rings for x, _ in r]
        ys = [y for r in rings for _, y in r]
        self.boundaries.append(dict(name=t["name"], level=int(t["admin_level"]),
                                    bbox=(min(xs), min(ys), max(xs), max(ys)), rings=rings))

    def _count_address(self, o, t):
        if "addr:housenumber" not in t:
            return
        self.facts["housenumbers"] += 1
        self.facts["housenumbers_" + o.type_str()] += 1
        if "addr:city" in t:
            self.facts["with_addr_city"] += 1
        if "addr:postcode" in t:
            self.facts["with_addr_postcode"] += 1
        if "addr:street" in t:
            self.facts["with_addr_street"] += 1
        elif "addr:place" in t:
            self.facts["with_addr_place_only"] += 1
        else:
            self.facts["without_street_or_place"] += 1

    def _address(self, o, t, point):
        street, number = t.get("addr:street"), t.get("addr:housenumber")
        if not street or not number:
            return
        number = number.strip()
        if ";" in number or "," in number or not number:
            self.facts["housenumber_lists_skipped"] += 1
            return
        self.addresses.append(dict(osm=o.type_str() + str(o.id), street=street.strip(),
                                   number=number, city=t.get("addr:city"), point=point))

    def _poi(self, o, t, point):
        name = t.get("name")
        if not name:
            return
        for key, values in POI_TAGS.items():
            v = t.get(key)
            if v and (values is None or v in values):
                self.pois.append(dict(osm=o.type_str() + str(o.id), name=name.strip(),
                                      city=t.get("addr:city"), point=point, tag=f"{key}={v}"))
                return

    def _node(self, o):
        t = o.tags
        if not t or not o.location.valid():
            return
        p = (o.location.lat, o.location.lon)
        self._count_address(o, t)
        self._address(o, t, p)
        if "place" in t:
            self.place_tags["node " + t["place"]] += 1
            if t.get("name"):
                self.places.append(dict(osm="n" + str(o.id), name=t["name"].strip(),
                                        place=t["place"], point=p))
        self._poi(o, t, p)

    def _way(self, o):
        t = o.tags
        if not t:
            return
        try:
            coords = [(n.location.lat, n.location.lon) for n in o.nodes if n.location.valid()]
        except osmium.InvalidLocationError:
            return
        if len(coords) < 2:
            return
        if "addr:interpolation" in t:
            self.facts["interpolation_ways"] += 1
        if "place" in t:
            self.place_tags["way " + t["place"]] += 1
        closed = o.is_closed() and len(coords) >= 4
        self._count_address(o, t)
        if closed:
            c = area_centroid(coords)
            if any(k in t for k in ADDRESS_WAY_KEYS):
                self._address(o, t, c)
            self._poi(o, t, c)
        hw = t.get("highway")
        if hw in STREET_HIGHWAYS and t.get("name") and t.get("area") != "yes":
            self.highways.append(dict(osm="w" + str(o.id), name=t["name"].strip(), coords=coords))

    def _relation(self, o):
        t = o.tags
        self._count_address(o, t)
        if "place" in t:
            self.place_tags["relation " + t["place"]] += 1
        if t.get("type") == "associatedStreet":
            self.facts["associatedStreet_relations"] += 1


def in_rings(lon, lat, rings):
    """Even-odd point-in-polygon over all rings (outer and inner) of an area."""
    inside = False
    for ring in rings:
        for (x1, y1), (x2, y2) in zip(ring, ring[1:]):
            if (y1 > lat) != (y2 > lat) and lon < x1 + (lat - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


class PlaceResolver:
    """PLACE for an object: its addr:city when tagged; else the municipality (admin boundary of
    level 8, else 7) that holds it; else the nearest city/town/village node within 10 km; else the
    most common addr:city of the addresses within 1 km. (The boundary comes before the nearest
    place node because the node alone puts e.g. Monaco's Larvotto in Beausoleil.)"""

    def __init__(self, places, addresses, boundaries=()):
        self.boundaries = sorted(boundaries, key=lambda b: -b["level"])
        self.towns = Grid(0.05)
        for p in places:
            if p["place"] in CITY_PLACES:
                self.towns.add(p["point"], p["name"])
        self.cities = Grid(0.01)
        for a in addresses:
            if a["city"]:
                self.cities.add(a["point"], a["city"])
        self.used = collections.Counter()

    def __call__(self, point, tagged=None):
        if tagged:
            self.used["addr:city"] += 1
            return tagged
        lat, lon = point
        for b in self.boundaries:
            x0, y0, x1, y1 = b["bbox"]
            if x0 <= lon <= x1 and y0 <= lat <= y1 and in_rings(lon, lat, b["rings"]):
                self.used["admin boundary"] += 1
                return b["name"]
        near = sorted(self.towns.near(point, 10000.0))
        if near:
            self.used["nearest place node"] += 1
            return near[0][1]
        votes = collections.Counter(c for _, c in self.cities.near(point, 1000.0))
        if votes:
            self.used["addr:city of neighbours"] += 1
            return sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        self.used["none"] += 1
        return None


def abbreviate(street):
    for pat, rep in ABBREVIATIONS:
        new, n = re.subn(pat, rep, street, count=1)
        if n:
            return new
    return None


def typo(street, rng):
    words = [(m.start(), m.group()) for m in re.finditer(r"\w+", street) if len(m.group()) >= 5
             and m.group().isalpha()]
    if not words:
        return None
    start, w = rng.choice(words)
    letters = "abcdefghijklmnopqrstuvwxyz"
    for _ in range(20):
        op = rng.choice(["sub", "del", "ins", "swap"])
        i = rng.randrange(len(w))
        if op == "sub":
            c = rng.choice([x for x in letters if x != w[i].lower()])
            new = w[:i] + (c.upper() if w[i].isupper() else c) + w[i + 1:]
        elif op == "del":
            new = w[:i] + w[i + 1:]
        elif op == "ins":
            new = w[:i] + rng.choice(letters) + w[i:]
        else:
            if i + 1 >= len(w) or w[i] == w[i + 1]:
                continue
            new = w[:i] + w[i + 1] + w[i] + w[i + 2:]
            if i == 0:  # keep the word's capital in front
                new = new[0].upper() + new[1].lower() + new[2:] if w[0].isupper() else new
        if new.lower() != w.lower():
            return street[:start] + new + street[start + len(w):]
    return None


def sample(cands, n, rng):
    return cands if len(cands) <= n else rng.sample(cands, n)


def norm_name(s):
    return " ".join(s.lower().replace("-", " ").split())


def build(extract, pbf, seed, per_set, keep_unmatched=False):
    r = Reader(pbf)
    resolve = PlaceResolver(r.places, r.addresses, r.boundaries)
    rng_for = lambda name: random.Random(f"{seed}-{extract}-{name}")
    queries, counts = [], collections.OrderedDict()

    def emit(kind, style, items):
        counts[f"{kind}/{style}"] = len(items)
        tag = {"address": "addr"}.get(kind, kind)
        for i, q in enumerate(items, 1):
            q = dict(id=f"{extract}-{tag}-{style}-{i}", text=q.pop("text"), kind=kind,
                     style=style, **q)
            queries.append(q)

    # --- addresses ---
    hw_nodes = collections.defaultdict(list)  # normalised street name -> highway node points
    for h in r.highways:
        hw_nodes[norm_name(h["name"])].extend(h["coords"])
    by_key = collections.defaultdict(list)       # (street, number, place) -> addresses
    by_street_no = collections.defaultdict(list)  # (street, number) -> addresses
    for a in r.addresses:
        if not keep_unmatched and not any(
                haversine_m(a["point"], p) <= STREET_MATCH_M for p in hw_nodes.get(norm_name(a["street"]), ())):
            r.facts["addresses_dropped_street_not_on_map"] += 1
            continue
        a["place"] = resolve(a["point"], a["city"])
        by_street_no[(a["street"], a["number"])].append(a)
        if a["place"]:
            by_key[(a["street"], a["number"], a["place"])].append(a)
    exact_cands = []
    ambiguous = 0
    for key in sorted(by_key):
        group = sorted(by_key[key], key=lambda a: a["osm"])
        first = group[0]
        if any(haversine_m(first["point"], a["point"]) > SAME_POINT_M for a in group[1:]):
            ambiguous += 1
            continue
        exact_cands.append(dict(street=key[0], number=key[1], place=key[2], osm=first["osm"],
                                truth=[rnd(a["point"]) for a in group]))
    r.facts["ambiguous_addresses_dropped"] = ambiguous

    def addr_items(cands, street_fn=None, name=None):
        out = []
        rng = rng_for(name)
        for c in sample(cands, per_set, rng):
            street = street_fn(c["street"], rng) if street_fn else c["street"]
            out.append(dict(text=f"{street} {c['number']}, {c['place']}", truth=c["truth"],
                            osm=c["osm"]))
        return out

    emit("address", "exact", addr_items(exact_cands, name="exact"))

    nocity = []
    seen = set()
    for c in exact_cands:
        if (c["street"], c["number"]) not in seen:
            seen.add((c["street"], c["number"]))
            nocity.append(c)
    out = []
    for c in sample(nocity, per_set, rng_for("nocity")):
        pts = [rnd(a["point"]) for a in by_street_no[(c["street"], c["number"])]]
        out.append(dict(text=f"{c['street']} {c['number']}", truth=pts, osm=c["osm"]))
    emit("address", "nocity", out)

    abbr = [c for c in exact_cands if abbreviate(c["street"])]
    emit("address", "abbrev", addr_items(abbr, lambda s, _rng: abbreviate(s), "abbrev"))
    typ = [c for c in exact_cands
           if any(len(w) >= 5 and w.isalpha() for w in re.findall(r"\w+", c["street"]))]
    emit("address", "typo", addr_items(typ, typo, "typo"))

    # --- streets ---
    ways_by_name = collections.defaultdict(list)
    for h in r.highways:
        h["place"] = resolve(h["coords"][len(h["coords"]) // 2])
        ways_by_name[h["name"]].append(h)
    street_groups = {}
    for name, ways in ways_by_name.items():
        for h in ways:
            if h["place"]:
                street_groups.setdefault((name, h["place"]), []).append(h)
    out = []
    keys = sorted(street_groups)
    for name, place in sample(keys, per_set, rng_for("street")):
        core = street_groups[(name, place)]
        core_pts = [p for h in core for p in h["coords"]]
        grid = Grid(0.01)
        for p in core_pts:
            grid.add(p, None)
        members = [h for h in ways_by_name[name]
                   if h in core or any(True for p in h["coords"][::4] + [h["coords"][-1]]
                                       for _ in grid.near(p, STREET_NEAR_M))]
        members.sort(key=lambda h: h["osm"])
        lines = [[rnd(p) for p in h["coords"]] for h in members]
        pts = sorted({tuple(p) for line in lines for p in line})
        out.append(dict(text=f"{name}, {place}", truth=[list(p) for p in pts], truth_lines=lines,
                        osm=core[0]["osm"]))
    emit("street", "exact", out)
    out = []
    for name in sample(sorted(ways_by_name), per_set, rng_for("street-nocity")):
        members = sorted(ways_by_name[name], key=lambda h: h["osm"])
        lines = [[rnd(p) for p in h["coords"]] for h in members]
        pts = sorted({tuple(p) for line in lines for p in line})
        out.append(dict(text=name, truth=[list(p) for p in pts], truth_lines=lines,
                        osm=members[0]["osm"]))
    emit("street", "nocity", out)

    # --- places ---
    places_by_name = collections.defaultdict(list)
    for p in r.places:
        if p["place"] in PLACE_QUERY_TYPES:
            places_by_name[p["name"]].append(p)
    out = []
    for name in sample(sorted(places_by_name), per_set, rng_for("place")):
        ps = sorted(places_by_name[name], key=lambda p: p["osm"])
        out.append(dict(text=name, truth=[rnd(p["point"]) for p in ps], osm=ps[0]["osm"],
                        place_type=ps[0]["place"]))
    emit("place", "exact", out)

    # --- POIs ---
    pois_by_name = collections.defaultdict(list)
    for p in r.pois:
        p["place"] = resolve(p["point"], p["city"])
        pois_by_name[p["name"]].append(p)
    names = sorted(n for n, ps in pois_by_name.items() if len(ps) <= POI_MAX_SAME_NAME)
    out = []
    for name in sample(names, per_set, rng_for("poi-name")):
        ps = sorted(pois_by_name[name], key=lambda p: p["osm"])
        out.append(dict(text=name, truth=[rnd(p["point"]) for p in ps], osm=ps[0]["osm"],
                        tag=ps[0]["tag"]))
    emit("poi", "name", out)
    np_keys = sorted({(p["name"], p["place"]) for n in names for p in pois_by_name[n] if p["place"]})
    out = []
    for name, place in sample(np_keys, per_set, rng_for("poi-name-place")):
        ps = sorted((p for p in pois_by_name[name] if p["place"] == place), key=lambda p: p["osm"])
        out.append(dict(text=f"{name}, {place}", truth=[rnd(p["point"]) for p in ps],
                        osm=ps[0]["osm"], tag=ps[0]["tag"]))
    emit("poi", "name-place", out)

    return queries, counts, r, resolve


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--extracts", default=",".join(EXTRACTS))
    ap.add_argument("--pbf-dir", default=os.path.join(ROOT, "..", "shared", "data", "osm"))
    ap.add_argument("--out", default=os.path.join(ROOT, ".bench", "search"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-set", type=int, default=200)
    ap.add_argument("--keep-unmatched-streets", action="store_true",
                    help="keep addresses whose addr:street names no highway within 500 m")
    ap.add_argument("--quiet", action="store_true", help="counts only, no data facts")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for ex in args.extracts.split(","):
        pbf = os.path.join(args.pbf_dir, f"{ex}.osm.pbf")
        if not os.path.exists(pbf):
            print(f"{ex}: no {pbf}", file=sys.stderr)
            continue
        queries, counts, r, resolve = build(ex, pbf, args.seed, args.per_set,
                                            args.keep_unmatched_streets)
        path = os.path.join(args.out, f"{ex}-queries.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"extract": ex, "seed": args.seed, "queries": queries}, f,
                      ensure_ascii=False, separators=(",", ":"))
            f.write("\n")
        print(f"{ex}: {len(queries)} queries -> {os.path.relpath(path)}")
        print("  " + "  ".join(f"{k} {v}" for k, v in counts.items()))
        if not args.quiet:
            print("  data: " + ", ".join(f"{k} {v}" for k, v in sorted(r.facts.items())))
            print(f"  addresses with addr:street+number {len(r.addresses)}, named highways "
                  f"{len(r.highways)}, named place nodes {len(r.places)}, named POIs {len(r.pois)}")
            print("  place tags: " + ", ".join(f"{k} {v}" for k, v in sorted(r.place_tags.items())))
            print("  PLACE from: " + ", ".join(f"{k} {v}" for k, v in sorted(resolve.used.items())))


if __name__ == "__main__":
    main()
