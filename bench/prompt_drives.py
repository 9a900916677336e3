#!/usr/bin/env python3
"""What the driver hears on simulated drives: the prompt plan's figures (docs/guidance.md).

For the first N benchmark queries of each extract, `tern simulate --noise 3 --seed 7` drives
the route (speeds that fall for the turns, one fix a second), once clean and once missing the
2nd turn, and `tern replay --direct --mute` runs the whole pipeline on it (gate, filter, both
matchers, navigator). From the event logs:
  prompts              all prompts said
  then                 "now" prompts that say the next maneuver too ("..., then ...")
  silent               maneuvers passed (new names and roundabout exits aside) with no "now"
                       prompt and not the "then" of one
  back_to_back         a "turn in" prompt followed by its maneuver's "now" prompt less than 1.5 s
                       after it ends (speech length estimated as 0.3 s + 0.095 s per character)
  now_early            "now" prompts starting more than 10 s before the maneuver is passed
  now_lead_median_s    seconds from a "now" prompt's start to passing its maneuver
  head_moving          "Head <compass>" said to a car moving faster than 3 m/s
  faster_route         "A faster route has been found" (there is no traffic here)
  continue_onto        prompts announcing a new name ("Continue onto ...")
  arrive_unwarned      drives that arrive with no prompt before saying the destination is
                       near ("In 100 metres, you will reach ...", "..., then you will reach ...")
With --transcripts DIR one text file per drive: time, speed, prompt.

Usage: python3 bench/prompt_drives.py [--drives 8] [--extracts monaco,andorra,liechtenstein,heidelberg] [--transcripts DIR]
    [--tern BIN] [--maps DIR]
Needs .build/release/tern and .bench/<extract>.tmap (bash scripts/bench.sh makes both); --tern and
--maps run another build on its own maps (an older tern reads only its own map format), so that
two transcripts directories can be compared with diff -r."""
import argparse, datetime, glob, json, pathlib, statistics, subprocess, tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser()
ap.add_argument("--drives", type=int, default=8)
ap.add_argument("--extracts", default="monaco,andorra,liechtenstein,heidelberg")
ap.add_argument("--transcripts")
ap.add_argument("--tern", default=str(ROOT / ".build" / "release" / "tern"))
ap.add_argument("--maps", default=str(ROOT / ".bench"))
a = ap.parse_args()
TERN = a.tern


def when(iso):
    return datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def speech_seconds(text):
    return 0.3 + 0.095 * len(text)


totals = dict(drives=0, prompts=0, then=0, maneuvers=0, silent=0, back_to_back=0, now_early=0, head_moving=0,
              faster_route=0, continue_onto=0, arrive_unwarned=0)
leads = []
with tempfile.TemporaryDirectory() as tmp:
    for x in a.extracts.split(","):
        tmap = pathlib.Path(a.maps) / f"{x}.tmap"
        queries = json.load(open(ROOT.parent / "shared" / "data" / "bench" / f"{x}-queries.json"))["queries"]
        for q in queries[:a.drives]:
            for wrong in (None, 2):
                src, dst = q["locations"][0], q["locations"][-1]
                name = q["id"] + ("-wrong" if wrong else "")
                nmea = f"{tmp}/{name}.nmea"
                cmd = [TERN, "simulate", "--map", str(tmap), "--from", f"{src[0]},{src[1]}", "--to", f"{dst[0]},{dst[1]}",
                       "--noise", "3", "--seed", "7", "-o", nmea] + (["--wrong-turn", str(wrong)] if wrong else [])
                if subprocess.run(cmd, capture_output=True).returncode != 0:
                    continue
                logs = f"{tmp}/log-{name}"
                subprocess.run([TERN, "replay", nmea, "--map", str(tmap), "--to", f"{dst[0]},{dst[1]}", "--direct", "--mute",
                                "--rate", "1000", "--log-dir", logs, "--quiet"], capture_output=True, check=True)
                events = [json.loads(l) for l in open(glob.glob(f"{logs}/*/events.jsonl")[0])]
                totals["drives"] += 1
                t0, speed, route, step = when(events[0]["t"]), 0.0, -1, None
                steps, lines, last = {}, [], None  # (route, step) -> what happened at that maneuver
                warned = False
                for e in events:
                    t, kind = when(e["t"]) - t0, e["event"]
                    if kind == "position":
                        speed = e.get("speed_mps") or 0
                    elif kind == "routeComputed":
                        route, step = route + 1, None
                        lines.append(f"{t:5.0f} ROUTE {e['reason']} {e['distance_m']:.0f} m")
                    elif kind == "progress":
                        s = steps.setdefault((route, e["step"]), dict(next=e["next"], now=None, then=False, passed=None))
                        if s["next"] == "?":
                            s["next"] = e["next"]
                        if step is not None and step != e["step"] and (route, step) in steps:
                            steps[(route, step)]["passed"] = t
                        step = e["step"]
                    elif kind == "prompt":
                        text = e["text"]
                        lines.append(f"{t:5.0f} {speed * 3.6:4.0f} km/h [{e['kind']}] {text}")
                        totals["prompts"] += 1
                        totals["faster_route"] += "faster route" in text
                        warned = warned or "you will reach" in text
                        totals["continue_onto"] += text.startswith("Continue onto") or ", continue onto" in text
                        if e["maneuver"] == "depart" and speed > 3 and text.startswith("Head"):
                            totals["head_moving"] += 1
                        if e["kind"] == "now":
                            totals["then"] += ", then " in text
                            at = (route, 0 if step is None else step)
                            s = steps.setdefault(at, dict(next="?", now=None, then=False, passed=None))
                            if e["maneuver"] != "depart":
                                s["now"] = t
                            if ", then " in text:
                                after = (route, at[1] + (0 if e["maneuver"] == "depart" else 1))
                                steps.setdefault(after, dict(next="?", now=None, then=False, passed=None))["then"] = True
                            if last and last["kind"] == "turnIn" and last["maneuver"] == e["maneuver"] \
                                    and t - (last["t"] + speech_seconds(last["text"])) < 1.5:
                                totals["back_to_back"] += 1
                        last = dict(kind=e["kind"], maneuver=e["maneuver"], text=text, t=t)
                    elif kind in ("offRoute", "arrived"):
                        lines.append(f"{t:5.0f} {kind}")
                        if kind == "arrived" and not warned:
                            totals["arrive_unwarned"] += 1
                for s in steps.values():
                    if s["passed"] is None or s["next"] in ("arrive", "?") or s["next"].startswith(("exit r", "new name")):
                        continue
                    totals["maneuvers"] += 1
                    if s["now"] is not None:
                        leads.append(s["passed"] - s["now"])
                        totals["now_early"] += s["passed"] - s["now"] > 10
                    elif not s["then"]:
                        totals["silent"] += 1
                if a.transcripts:
                    pathlib.Path(a.transcripts).mkdir(parents=True, exist_ok=True)
                    (pathlib.Path(a.transcripts) / f"{name}.txt").write_text("\n".join(lines) + "\n")
totals["now_lead_median_s"] = statistics.median(leads) if leads else None
print(json.dumps(totals))
