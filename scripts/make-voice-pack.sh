#!/usr/bin/env bash
# Makes the sample voice pack (docs/voice-packs.md): a clip for each phrase, number, ordinal and
# distance word of English prompts, recorded here by espeak-ng's "en-gb+m3" voice through
# `tern say --wav`, and its manifest.json. A real pack is the same folder with a person's
# recordings in place of these clips. The pack is generated, so it is not in the repository.
#   usage: bash scripts/make-voice-pack.sh OUT_DIR [TERN_BINARY]
set -euo pipefail
out=${1:?usage: make-voice-pack.sh OUT_DIR [TERN_BINARY]}
tern=${2:-$(dirname "$0")/../.build/release/tern}
[ -x "$tern" ] || { echo "make-voice-pack: no tern at $tern (build first, or give its path)" >&2; exit 1; }
voice=en-gb+m3
mkdir -p "$out"

phrases=("in" "then" "onto" "towards" "turn left" "turn right" "turn slightly left" "turn slightly right"
  "turn sharp left" "turn sharp right" "go straight" "make a u-turn" "continue" "continue onto" "keep left" "keep right"
  "at the roundabout" "at the next roundabout" "take the" "exit" "take exit" "enter the roundabout"
  "exit the roundabout" "go straight ahead" "at the end of the road" "at the traffic lights" "after the traffic lights"
  "you have arrived at your destination" "you will reach your destination" "on the left" "on the right"
  "you have arrived at your stop" "you will reach your stop" "speed limit" "slow down" "a faster route has been found"
  "make a u-turn when possible" "no route from here" "still trying" "gps signal lost" "gps signal found"
  "head north" "head south" "head east" "head west" "take the ramp" "merge" "use the left lane" "use the right lane")
numbers=(1 2 3 4 5 6 7 8 9 10 20 30 40 50 60 70 80 90 100 110 120 130 150 200 250 300 350 400 450 500 600 700 800 900 1.5 2.5)
ordinals=(first second third fourth fifth sixth seventh eighth ninth tenth)
distances=("metres" "kilometre" "kilometres" "feet" "yards" "mile" "miles" "half a mile" "a quarter of a mile")

n=0
clip() { # words -> file name; records it
    local words=$1 file
    file=$(printf '%s' "$words" | tr ' .' '-_').wav
    "$tern" say "$words" --voice "$voice" --wav "$out/$file" 2>/dev/null
    n=$((n + 1))
    printf '%s' "$file"
}
section() { # name, words...
    local name=$1 first=1 w
    shift
    printf '  "%s": {' "$name"
    for w in "$@"; do
        [ $first -eq 1 ] || printf ','
        first=0
        printf '\n    "%s": "%s"' "$w" "$(clip "$w")"
    done
    printf '\n  }'
}
{
    printf '{\n  "format": 1,\n  "name": "Sample (espeak-ng %s, made by scripts/make-voice-pack.sh)",\n' "$voice"
    printf '  "language": "en-GB",\n  "fallback_voice": "%s",\n' "$voice"
    section phrases "${phrases[@]}"; printf ',\n'
    section numbers "${numbers[@]}"; printf ',\n'
    section ordinals "${ordinals[@]}"; printf ',\n'
    section distances "${distances[@]}"; printf '\n}\n'
} > "$out/manifest.json.tmp"
mv "$out/manifest.json.tmp" "$out/manifest.json"
echo "make-voice-pack: $out: $(ls "$out"/*.wav | wc -l) clips and manifest.json (try: $tern say 'In 300 metres, turn left onto Hauptstrasse.' --voice $out)"
