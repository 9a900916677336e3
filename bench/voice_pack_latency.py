#!/usr/bin/env python3
"""Voice pack prompt start latency: the time from a prompt being handed to the speech thread to
its first sample (what the driver waits for: synthesis of the espeak-ng parts, assembly, and the
clips already in memory), with the sample pack against espeak-ng alone, on the same prompts.

Prompts: the English prompts of a simulated drive across Liechtenstein (street names and all),
plus a few said wholly from clips. `tern say --file` speaks them into a WAV file (no device
start-up in the figure), and prints each prompt's synthesis time.

Reproduce:  python3 bench/voice_pack_latency.py [--tern .build/release/tern]
"""
import argparse, json, os, re, statistics, subprocess

from tern_bench import HERE, import_extract, setup

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--tern", default=".build/release/tern")
a = ap.parse_args()
tern, work = setup(a, "tern-voice-")
pack = os.path.join(work, "pack")
subprocess.run(["bash", os.path.join(HERE, "..", "scripts", "make-voice-pack.sh"), pack, tern], check=True, capture_output=True)
m = import_extract(tern, "liechtenstein", work)
nmea = os.path.join(work, "d.nmea")
subprocess.run([tern, "simulate", "--map", m, "--from", "47.0700,9.5050", "--to", "47.1400,9.5200", "-o", nmea], check=True, capture_output=True)
subprocess.run([tern, "replay", nmea, "--map", m, "--to", "47.1400,9.5200", "--direct", "--mute", "--log-dir", os.path.join(work, "d")],
               check=True, capture_output=True)
folder = os.path.join(work, "d", os.listdir(os.path.join(work, "d"))[0])
prompts = [json.loads(l)["text"] for l in open(os.path.join(folder, "events.jsonl")) if '"event":"prompt"' in l]
prompts += ["In 300 metres, turn left.", "Turn right.", "At the roundabout, take the second exit.", "Speed limit 50."]
path = os.path.join(work, "prompts.txt")
open(path, "w").write("\n".join(prompts) + "\n")


def run(voice):
    args = [tern, "say", "--file", path, "--wav", os.path.join(work, "out.wav")] + (["--voice", voice] if voice else [])
    err = subprocess.run(args, capture_output=True, text=True, check=True).stderr
    ms = [float(x) for x in re.findall(r"synthesis ([\d.]+) ms", err)]
    return ms[1:]  # the first prompt also loads the pack or espeak-ng's data: a unit does that at start


print(f"voice_pack_latency: {len(prompts)} prompts, {len(json.load(open(os.path.join(pack, 'manifest.json')))['phrases'])} phrase clips")
for label, voice in [("espeak-ng only", None), ("voice pack", pack)]:
    ms = sorted(run(voice))
    print(f"  {label:15s} first sample after: median {statistics.median(ms):.1f} ms, p95 {ms[int(0.95 * (len(ms) - 1))]:.1f} ms, "
          f"max {ms[-1]:.1f} ms (target for the pack: 50 ms)")
