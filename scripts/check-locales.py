#!/usr/bin/env python3
"""Checks the guidance locale tables in Sources/Guidance/Locales/*.swift against English:
every key present (after following "base"), the same placeholders in each phrase, valid JSON.
The Swift test GuidanceLocaleTests does the same on the compiled tables; this script is for
editing the tables without a build. Usage: python3 scripts/check-locales.py [NAME...]"""
import json, re, sys, pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
BLOCK = re.compile(r'static let (\w+) = #"""\n(.*?)\n\s*"""#', re.S)
PH = re.compile(r"\{(\w+)\}")
# English keys other tables may leave out: the code uses them only where a table has its own
# (GuidanceLocale.hasOwnPhrase), and says the general phrase otherwise, never the English words
OPTIONAL = {"roundabout_turn.straight", "roundabout_turn.straight.name", "prompt.resuming"}
META = {"base", "lower_first", "decimal", "voice", "elide_de", "then_adverb", "landmark_after_verb", "contract_articles", "plural_by_last_digit", "elide_de_before_h", "clitic"}

tables = {}
for f in sorted((ROOT / "Sources/Guidance/Locales").glob("*.swift")):
    for name, body in BLOCK.findall(f.read_text()):
        try:
            tables[name] = json.loads(body)
        except json.JSONDecodeError as e:
            print(f"{f.name}: {name}: bad JSON: {e}")
            tables[name] = None

def resolved(name, seen=()):
    t = tables.get(name)
    if t is None:
        return None
    if "base" in t:
        if t["base"] in seen or t["base"] not in tables:
            print(f"{name}: base {t['base']!r} missing or circular"); return None
        b = resolved(t["base"], seen + (name,))
        return None if b is None else {**b, **t}
    return t

en = resolved("en")
bad = 0
for name in (sys.argv[1:] or [n for n in tables if n != "en"]):
    t = resolved(name)
    if t is None:
        bad += 1; continue
    problems = []
    for k, v in en.items():
        if k in META: continue
        if k not in t:
            if k not in OPTIONAL: problems.append(f"missing {k}")
            continue
        if not isinstance(t[k], str) or not t[k].strip(): problems.append(f"empty {k}"); continue
        want, got = sorted(PH.findall(v)), sorted(PH.findall(t[k]))
        if want != got: problems.append(f"{k}: placeholders {got} want {want}")
    for k in t:
        # (optional: a lane count in the form the lane phrase needs, "lanes.count.2" = "двух")
        if k in ("distance.km.fraction", "distance.km.one_n", "distance.km.from_20"):
            if PH.findall(t[k]) != ["n"]: problems.append(f"bad {k}")
            continue
        if re.fullmatch(r"distance\.km\.exact\.(1\.5|[2-4](\.5)?)", k):
            if not isinstance(t[k], str) or not t[k].strip() or PH.findall(t[k]): problems.append(f"bad {k}")
            continue
        if re.fullmatch(r"lanes\.count\.\d+", k):
            if not isinstance(t[k], str) or not t[k].strip() or PH.findall(t[k]): problems.append(f"bad {k}")
            continue
        if k not in en and k not in META: problems.append(f"unknown key {k}")
    if not isinstance(t.get("lower_first"), bool): problems.append("lower_first must be true or false")
    if t.get("elide_de", False) not in (True, False): problems.append("elide_de must be true or false")
    for flag in ("landmark_after_verb", "contract_articles", "plural_by_last_digit", "elide_de_before_h"):
        if t.get(flag, False) not in (True, False): problems.append(f"{flag} must be true or false")
    if t.get("elide_de_before_h") and not t.get("elide_de"): problems.append("elide_de_before_h needs elide_de")
    if "clitic" in t and not (isinstance(t["clitic"], str) and t["clitic"].strip() and " " not in t["clitic"]): problems.append("clitic must be one word")
    if "then_adverb" in t and not (isinstance(t["then_adverb"], str) and t["then_adverb"].strip()): problems.append("then_adverb must be a word")
    if t.get("decimal") not in (".", ",", "٫"): problems.append("decimal must be '.' or ','")
    if not t.get("voice"): problems.append("voice missing (an espeak-ng voice name)")
    if problems:
        bad += 1
        print(f"{name}: " + "; ".join(problems))
    else:
        print(f"{name}: ok ({len(t)} keys)")
sys.exit(1 if bad else 0)
