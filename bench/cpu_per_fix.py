#!/usr/bin/env python3
"""Whole-process CPU per fix of the appliance's engine (issue #24's measure).

`tern simulate` makes a long drive (several legs through via points, about 45 minutes) and a
short one (its first leg, about 5 minutes); `tern replay --direct` runs each with the drive log
written, muted, as the car does minus gpsd. The marginal cost per fix is

    (CPU of the long replay - CPU of the short one) / (fixes of the long - fixes of the short)

so start-up (opening the map, the first route) cancels out. CPU is user + system time of the
child process (getrusage). With `--reference BIN`, another build is measured in the same rounds
(alternating), as this VM's speed wanders.

Usage: python3 bench/cpu_per_fix.py [--extract heidelberg] [--rounds 3] [--tern BIN] [--reference /path/to/old/tern]
Needs .build/release/tern and .bench/<extract>.tmap (bash scripts/bench.sh makes both)."""
import argparse, json, os, pathlib, resource, subprocess, sys, tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser()
ap.add_argument("--extract", default="heidelberg")
ap.add_argument("--rounds", type=int, default=3)
ap.add_argument("--legs", type=int, default=8)
ap.add_argument("--reference")
ap.add_argument("--tern", default=str(ROOT / ".build/release/tern"), help="the build to measure (default .build/release/tern)")
a = ap.parse_args()

tern = a.tern
tmap = str(ROOT / ".bench" / f"{a.extract}.tmap")
if not os.path.exists(tmap):
    sys.exit(f"{tmap} is missing: run bash scripts/bench.sh first")
queries = json.load(open(ROOT / ".." / "shared/data/bench" / f"{a.extract}-queries.json"))["queries"]
work = pathlib.Path(tempfile.mkdtemp(prefix="tern-cpu-"))


def point(p):
    return f"{p[0]},{p[1]}"


def simulate(points, out):
    cmd = [tern, "simulate", "--map", tmap, "--from", point(points[0]), "--to", point(points[-1]), "--seed", "1", "--noise", "3", "-o", str(out)]
    for v in points[1:-1]:
        cmd += ["--via", point(v)]
    subprocess.run(cmd, check=True, capture_output=True)
    return sum(1 for line in open(out) if line.startswith("$GPRMC") or line.startswith("$GNRMC"))


def cpu(binary, log, points):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [binary, "replay", str(log), "--map", tmap, "--direct", "--mute", "--quiet", "--log-dir", str(work / "drives"), "--to", point(points[-1])]
    for v in points[1:-1]:
        cmd += ["--via", point(v)]
    subprocess.run(cmd, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


# a long drive: the ends of the first queries, in turn (legs of a few kilometres each)
stops = [queries[0]["locations"][0]] + [q["locations"][-1] for q in queries[1:1 + a.legs]]
long_fixes = simulate(stops, work / "long.nmea")
short_fixes = simulate(stops[:2], work / "short.nmea")
print(f"{a.extract}: long drive {long_fixes} fixes ({long_fixes / 60:.0f} min), short {short_fixes} fixes ({short_fixes / 60:.0f} min)")
binaries = [("this build", tern)] + ([("reference", a.reference)] if a.reference else [])
results = {name: [] for name, _ in binaries}
for r in range(a.rounds):
    for name, b in binaries:
        long_cpu = cpu(b, work / "long.nmea", stops)
        short_cpu = cpu(b, work / "short.nmea", stops[:2])
        results[name].append((long_cpu - short_cpu) / (long_fixes - short_fixes) * 1e6)
for name, v in results.items():
    v.sort()
    print(f"{name}: marginal CPU per fix {v[len(v) // 2]:.1f} µs (median of {len(v)} rounds; all {', '.join(f'{x:.1f}' for x in v)})")
