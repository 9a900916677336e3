#!/usr/bin/env python3
"""Footprint of the appliance (issue #27): peak memory while guiding, and memory over a day.

- `tern --version`: the floor (runtime, libraries);
- the 45-minute Heidelberg drive guided through gpsfake and gpsd (`tern replay` at --rate);
- the same drive through `tern replay --direct` (peak RSS from getrusage);
- a day of driving: chained loops through Heidelberg with waypoints, tunnels (fix outages) and
  a wrong turn (a reroute), replayed with `replay --direct`; its RSS is sampled against the drive's
  own clock (the last time in the drive log): RSS after 10 minutes of driving against RSS at the
  end must be within 1 MB (nothing grows with the drive but the log on disk).

Targets: 12 MB peak while guiding (Navit 0.5.6 headless on the same drives: 15-17 MB, measured
when issue #27 was filed); flat within 1 MB over 24 hours.

Reproduce:  python3 bench/footprint.py [--tern .build/release/tern] [--hours 24] [--rate 20]
"""
import argparse, glob, json, os, subprocess, time

from tern_bench import import_extract, peak_rss_kb, setup, short_peak_rss_kb, status_kb

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--tern", default=".build/release/tern")
ap.add_argument("--hours", type=float, default=24.0, help="length of the day's drive (24)")
ap.add_argument("--rate", type=float, default=20, help="replay speed through gpsd (20: 20 times real time)")
ap.add_argument("--samples", help="write the day's (drive seconds, RSS KiB) samples to this CSV file")
ap.add_argument("--skip-gpsd", action="store_true", help="leave out the drive through gpsfake and gpsd")
a = ap.parse_args()
tern, work = setup(a, "tern-footprint-")
m = import_extract(tern, "heidelberg", work)

ALTSTADT, NEUENHEIM, BERGHEIM, ROHRBACH, PFAFFENGRUND = \
    "49.4093,8.6937", "49.4180,8.6700", "49.3980,8.6727", "49.3850,8.6900", "49.4040,8.6450"
HANDSCHUHSHEIM, KIRCHHEIM = "49.4300,8.6850", "49.3800,8.6650"


def simulate(out, start, vias, end, extra=()):
    args = [tern, "simulate", "--map", m, "--from", start, "--to", end, "-o", out, "--seed", "7", *extra]
    for v in vias:
        args += ["--via", v]
    subprocess.run(args, check=True, capture_output=True)
    with open(out) as f:
        return sum(1 for line in f if line.startswith("$GPRMC"))


def last_drive_time(log_dir):
    """The time of the newest line of the newest drive's track.jsonl (seconds since the epoch), or None."""
    tracks = sorted(glob.glob(os.path.join(log_dir, "*", "track.jsonl")), key=os.path.getmtime)
    if not tracks:
        return None
    with open(tracks[-1], "rb") as f:
        f.seek(0, 2)
        f.seek(max(0, f.tell() - 4096))
        lines = f.read().split(b"\n")
    for line in reversed(lines):
        try:
            t = json.loads(line)["t"]
        except (ValueError, KeyError):
            continue
        from datetime import datetime
        return datetime.fromisoformat(t.replace("Z", "+00:00")).timestamp()
    return None


def arrived(log_dir):
    """Whether a drive under log_dir reached its destination (the event "arrived")."""
    for ev in glob.glob(os.path.join(log_dir, "*", "events.jsonl")):
        with open(ev) as f:
            if any('"event":"arrived"' in line for line in f):
                return True
    return False


print(f"footprint: {tern}; map {os.path.getsize(m) / 1e6:.1f} MB (Heidelberg)")
floor = short_peak_rss_kb([tern, "--version"])
print(f"  tern --version: peak RSS {floor / 1024:.1f} MB" if floor else "  tern --version: not measured (needs GNU time, /usr/bin/time)")

# the Heidelberg drive (38 minutes, 7 stops): Altstadt round Handschuhsheim, Neuenheim, Bergheim, Rohrbach, Kirchheim and
# Pfaffengrund and back
drive = os.path.join(work, "drive.nmea")
vias = [HANDSCHUHSHEIM, NEUENHEIM, BERGHEIM, ROHRBACH, KIRCHHEIM, PFAFFENGRUND]
fixes = simulate(drive, ALTSTADT, vias, ALTSTADT)
route = ["--to", ALTSTADT] + [x for v in vias for x in ("--via", v)]

if not a.skip_gpsd:
    # `tern replay` without --direct: gpsfake feeds the log to its own gpsd and tern guides from
    # gpsd through libgps, as in the car (with the route's waypoints, which `tern run` takes one
    # at a time from `tern ctl`)
    rss = peak_rss_kb([tern, "replay", drive, "--map", m, *route, "--rate", str(a.rate), "--mute", "--quiet",
                       "--log-dir", os.path.join(work, "gpsd")])
    print(f"  {fixes / 60:.0f}-minute drive ({fixes} fixes) guided through gpsfake and gpsd at {a.rate:g}x: peak RSS {rss / 1024:.1f} MB "
          f"(target 12 MB; Navit 15-17 MB), arrived: {arrived(os.path.join(work, 'gpsd'))}")

rss = peak_rss_kb([tern, "replay", drive, "--map", m, *route, "--direct", "--mute", "--quiet", "--log-dir", os.path.join(work, "direct")])
print(f"  the same drive ({fixes} fixes) through `replay --direct`: peak RSS {rss / 1024:.1f} MB (target 12 MB), "
      f"arrived: {arrived(os.path.join(work, 'direct'))}")

# a day: legs round the loop (Altstadt, Neuenheim, Bergheim, Rohrbach, Pfaffengrund), each
# simulated once (one with a wrong turn, so a reroute; one with a 30 s tunnel), then chained with
# their clocks shifted until the drive lasts --hours; each leg's end is a waypoint
stops = [ALTSTADT] + vias
legs = []
for k in range(len(stops)):
    a_, b_ = stops[k], stops[(k + 1) % len(stops)]
    leg = os.path.join(work, f"leg{k}.nmea")
    extra = ["--wrong-turn", "2"] if k == 0 else ["--outage", "30@120"] if k == 2 else []
    simulate(leg, a_, [], b_, extra)
    with open(leg) as f:
        legs.append(f.read().splitlines())


def shifted(lines, offset):
    """NMEA lines with every time (RMC, GGA, GST) and date (RMC) moved on by offset seconds."""
    from datetime import datetime, timedelta, timezone
    out, date = [], None
    for line in lines:
        body, _, _ = line[1:].partition("*")
        f = body.split(",")
        if f[0] in ("GPRMC", "GPGGA", "GPGST") and f[1]:
            if f[0] == "GPRMC":
                date = f[9]
            t = datetime.strptime((date or "150624") + f[1], "%d%m%y%H%M%S.%f").replace(tzinfo=timezone.utc) + timedelta(seconds=offset)
            f[1] = t.strftime("%H%M%S.") + f"{t.microsecond // 10000:02d}"
            if f[0] == "GPRMC":
                f[9] = t.strftime("%d%m%y")
            body = ",".join(f)
            cs = 0
            for ch in body.encode():
                cs ^= ch
            line = f"${body}*{cs:02X}"
        out.append(line)
    return out


day = os.path.join(work, "day.nmea")
day_vias, offset, day_fixes, k = [], 0, 0, 0
with open(day, "w") as out:
    while offset < a.hours * 3600:
        lines = legs[k % len(legs)]
        n = sum(1 for line in lines if line.startswith("$GPRMC"))
        out.write("\n".join(shifted(lines, offset)) + "\n")
        offset += n + 1
        day_fixes += n
        day_vias.append(stops[(k + 1) % len(stops)])
        k += 1
day_vias, end_stop = day_vias[:-1], day_vias[-1]
day_route = ["--to", end_stop] + [x for v in day_vias for x in ("--via", v)]
outages = ["tunnel"] * (k // len(legs) + (1 if k % len(legs) > 2 else 0))
logs = os.path.join(work, "day-drives")
with open(os.path.join(work, "day-command.sh"), "w") as f:  # to run it again under a profiler
    f.write(" ".join([tern, "replay", day, "--map", m, *day_route, "--direct", "--mute", "--quiet", "--log-dir", logs]) + "\n")
p = subprocess.Popen([tern, "replay", day, "--map", m, *day_route, "--direct", "--mute", "--quiet", "--log-dir", logs],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
samples = []  # (drive seconds, RSS KiB)
t_start = None
while p.poll() is None:
    try:
        kb, anon = status_kb(p.pid, "VmRSS"), status_kb(p.pid, "RssAnon")
    except FileNotFoundError:
        break
    t = last_drive_time(logs)
    if t is not None:
        t_start = t_start or t
        if kb > 0:
            samples.append((t - t_start, kb, anon))
    time.sleep(0.02)
p.wait()
if a.samples:
    with open(a.samples, "w") as f:
        f.write("drive_s,rss_kib,anon_kib\n" + "".join(f"{s_:.0f},{kb},{an}\n" for s_, kb, an in samples))
after10 = next((x for x in samples if x[0] >= 600), None)
# "at the end": the highest sample of the drive's last tenth, not the last sample, which may be
# taken while the process frees everything on its way out
last_t = samples[-1][0] if samples else 0
end = max((x for x in samples if x[0] >= 0.9 * last_t), key=lambda x: x[1], default=(0, 0, 0))
print(f"  a day's drive ({day_fixes} fixes, {len(day_vias)} waypoints, {len(outages)} tunnels, {k // len(legs) + 1} wrong turns) "
      f"through `replay --direct`: exit {p.returncode}, arrived: {arrived(logs)}")
if after10 is None:
    print("    too few samples to compare (drive shorter than 10 minutes?)")
else:
    growth = (end[1] - after10[1]) / 1024
    later = max((x for x in samples if x[0] >= 600), key=lambda x: x[1])
    # the target: the end within 1 MB of the 10-minute mark. Memory that falls (the plan's legs
    # used up) is not growth, but it is outside "within 1 MB", so both are said
    verdict = "within 1 MB" if abs(growth) <= 1 else "no growth, but fell by more than 1 MB" if growth < 0 else "GREW"
    print(f"    RSS after 10 minutes of driving {after10[1] / 1024:.1f} MB; at the end (highest of the last tenth, "
          f"{end[0] / 3600:.1f} h) {end[1] / 1024:.1f} MB; change {growth:+.2f} MB (target within 1 MB): {verdict}; "
          f"highest after 10 minutes {later[1] / 1024:.1f} MB at {later[0] / 3600:.1f} h; {len(samples)} samples")
    mid = next((x for x in samples if x[0] >= last_t / 2), end)
    print(f"    of it the process's own memory (RssAnon): {after10[2] / 1024:.1f} MB after 10 minutes, {mid[2] / 1024:.1f} MB at "
          f"{mid[0] / 3600:.1f} h, {end[2] / 1024:.1f} MB at the end; the rest is the map and code paged in from their files")
