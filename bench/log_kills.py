#!/usr/bin/env python3
"""Power cuts at random moments of a drive: `tern replay --rate 20` (gpsfake -> gpsd -> tern, as
on the bench) is killed with SIGKILL at N random moments, under strace, and the drive log is
checked after each kill.

A SIGKILL loses only what the process had not written yet; a power cut also loses what the
kernel had not written to the card, i.e. everything after the last fsync(2). strace's record of
every write(2) and fsync(2) to the log files (with their times) gives, for each kill, what a power
cut at that moment would have left: the bytes covered by each file's last fsync. Printed:

- whole: kills after which every line of events.jsonl and track.jsonl parses, but for a torn
  last line (the file as the killed process left it);
- durable: kills after which the fsync'd part of each file parses line by line;
- the window a power cut would have lost (the kill time minus the first write not yet fsync'd),
  at most and at the 95th percentile, against the setting (log-sync, 2 s by default).

Reproduce:  python3 bench/log_kills.py [--kills 200] [--tern .build/release/tern] [--map MAP] [--sync 2]
(the map defaults to the Liechtenstein extract imported into a temporary folder)
"""
import argparse, json, os, random, re, shutil, signal, subprocess, sys, time

from tern_bench import import_extract, setup

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--kills", type=int, default=200)
ap.add_argument("--tern", default=".build/release/tern")
ap.add_argument("--map")
ap.add_argument("--sync", type=float, default=2.0, help="log-sync seconds (the replay's recorder uses 2)")
ap.add_argument("--seed", type=int, default=1)
a = ap.parse_args()
rng = random.Random(a.seed)
tern, work = setup(a, "tern-logkills-")
if not shutil.which("strace"):
    sys.exit("log_kills: needs strace (apt-get install strace)")

m = a.map or import_extract(tern, "liechtenstein", work)
to = "47.1400,9.5200"
nmea = os.path.join(work, "drive.nmea")
subprocess.run([tern, "simulate", "--map", m, "--from", "47.0700,9.5050", "--to", to, "--noise", "4", "-o", nmea],
               check=True, capture_output=True)
epochs = sum(1 for line in open(nmea) if line.startswith("$GPRMC"))
drive_wall = epochs / 20.0


def parse_lines(data, allow_torn_last):
    """Every line a JSON object; a last line without its newline may be torn."""
    lines = data.split(b"\n")
    last = lines.pop()  # after the final newline: b"" when the file ends whole
    for line in lines:
        json.loads(line)
    if last and not allow_torn_last:
        json.loads(last)
    return True


write_re = re.compile(rb"^(\d+)\s+([\d.]+)\s+(write|fsync|fdatasync)\((\d+)<([^>]+)>.*\)\s+=\s+(-?\d+)")
# with threads, strace splits a call: "write(5</p>, ... <unfinished ...>", later "<... write resumed>) = 120"
start_re = re.compile(rb"^(\d+)\s+([\d.]+)\s+(write|fsync|fdatasync)\((\d+)<([^>]+)>.*<unfinished \.\.\.>")
resumed_re = re.compile(rb"^(\d+)\s+([\d.]+)\s+<\.\.\. (write|fsync|fdatasync) resumed>.*\)\s+=\s+(-?\d+)")
whole = durable_ok = no_folder = 0
windows = []
t0 = time.time()
for k in range(a.kills):
    logs = os.path.join(work, f"drives-{k}")
    trace = os.path.join(work, "trace.txt")
    p = subprocess.Popen(["strace", "-f", "-ttt", "-y", "-e", "trace=write,fsync,fdatasync", "-o", trace,
                          tern, "replay", nmea, "--map", m, "--to", to, "--rate", "20", "--log-dir", logs, "--mute", "--quiet"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work)
    # tern is strace's child; the kill comes at a random moment of the drive (gpsfake starts first)
    time.sleep(rng.uniform(1.0, 1.5 + drive_wall))
    # a power cut stops everything at once: tern, and gpsfake and gpsd under it
    def descendants(pid):
        kids = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
        return [int(k) for k in kids] + [d for k in kids for d in descendants(int(k))]
    victims = descendants(p.pid)
    kill_time = time.time()
    for c in victims:
        try:
            os.kill(c, signal.SIGKILL)
        except ProcessLookupError:
            pass
    p.wait(timeout=30)
    folders = os.listdir(logs) if os.path.isdir(logs) else []
    if not folders:
        no_folder += 1
        continue
    folder = os.path.join(logs, folders[0])
    # what the killed process left
    ok = True
    for name in ("events.jsonl", "track.jsonl"):
        try:
            parse_lines(open(os.path.join(folder, name), "rb").read(), allow_torn_last=True)
        except (ValueError, OSError):
            ok = False
    whole += ok
    # what a power cut at the kill would have left: each file up to its last fsync before the kill
    written, synced, first_unsynced = {}, {}, {}
    calls, pending = [], {}
    for line in open(trace, "rb"):
        mm = write_re.match(line)
        if mm:
            calls.append((float(mm.group(2)), mm.group(3), mm.group(5).decode(), int(mm.group(6))))
            continue
        mm = start_re.match(line)
        if mm:
            pending[mm.group(1)] = (mm.group(3), mm.group(5).decode())
            continue
        mm = resumed_re.match(line)
        if mm and mm.group(1) in pending:
            call, path = pending.pop(mm.group(1))
            # (the call's end is when it took effect)
            calls.append((float(mm.group(2)), call, path, int(mm.group(4))))
    for t, call, path, rc in calls:
        name = os.path.basename(path)
        if name not in ("events.jsonl", "track.jsonl", "raw.nmea") or t > kill_time:
            continue
        if call == b"write" and rc > 0:
            written[name] = written.get(name, 0) + rc
            first_unsynced.setdefault(name, t)
        elif call in (b"fsync", b"fdatasync") and rc == 0:
            synced[name] = written.get(name, 0)
            first_unsynced.pop(name, None)
    window = max([kill_time - t for t in first_unsynced.values()] or [0.0])
    windows.append(window)
    dok = True
    for name in ("events.jsonl", "track.jsonl"):
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            continue
        data = open(path, "rb").read()[: synced.get(name, 0)]
        try:
            parse_lines(data, allow_torn_last=False)
        except ValueError:
            dok = False
    durable_ok += dok
    shutil.rmtree(logs, ignore_errors=True)

windows.sort()
n = len(windows)
p95 = windows[int(0.95 * (n - 1))] if n else 0
print(f"log_kills: {a.kills} kills of a replay at --rate 20 ({drive_wall:.0f} s of wall time a drive), {time.time() - t0:.0f} s")
print(f"  killed before the first fix (no drive folder yet): {no_folder}")
print(f"  whole after the kill (every line parses but a torn last one): {whole}/{a.kills - no_folder}")
print(f"  fsync'd part whole (what a power cut leaves): {durable_ok}/{a.kills - no_folder}")
print(f"  a power cut would lose the last {windows[-1] if n else 0:.2f} s at most, {p95:.2f} s at p95 (log-sync {a.sync:g} s)")
shutil.rmtree(work, ignore_errors=True)
sys.exit(0 if whole == durable_ok == a.kills - no_folder and (not n or windows[-1] <= a.sync + 0.5) else 1)
