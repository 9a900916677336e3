#!/usr/bin/env python3
"""Draws the scale curve (docs/benchmarks.md, "Scale curve") as docs/images/scale-curve.svg:
each figure's growth against the map's, on log-log axes, with linear growth as the reference.
Reads the table from docs/benchmarks.md, so the picture is always the figures written there
(re-run after `bash scripts/bench.sh --scale 1,2,4,8` updates them). No plotting library needed.

Usage:  python3 bench/plot_scale.py
"""
import math, os, re

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
text = open(os.path.join(root, "docs", "benchmarks.md")).read()
table = text.split("## Scale curve", 1)[1].split("\n\n", 2)[1]
rows = [r.strip("|").split("|") for r in table.splitlines()[2:] if r.startswith("|")]


def num(cell):
    return float(re.match(r"\s*([\d.]+)", cell).group(1))


copies = [num(r[1]) for r in rows]
series = [  # (label, column, colour)
    ("import time", 2, "#d33"), ("import memory", 3, "#e80"), ("file size", 4, "#27c"),
    ("open time", 5, "#2a2"), ("route time, median", 6, "#222"), ("peak memory, routing", 9, "#a3c"),
]
W, H, L, B, T, R = 720, 420, 60, 40, 20, 190
xmax, ymin, ymax = math.log10(max(copies)), math.log10(0.7), math.log10(max(copies) * 2)


def x(c):
    return L + math.log10(c) / xmax * (W - L - R)


def y(g):
    return H - B - (math.log10(g) - ymin) / (ymax - ymin) * (H - B - T)


s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
     f'<rect width="{W}" height="{H}" fill="#fff"/>']
for g in (1, 2, 4, 8, 16, 32, 64, 128):
    s.append(f'<path d="M{L} {y(g):.1f}H{W - R}" stroke="#eee"/><text x="{L - 6}" y="{y(g) + 4:.1f}" text-anchor="end">×{g}</text>')
for c in copies:
    s.append(f'<text x="{x(c):.1f}" y="{H - B + 16}" text-anchor="middle">×{int(c)}</text>')
s.append(f'<text x="{(L + W - R) / 2:.0f}" y="{H - 6}" text-anchor="middle">map size (copies of Heidelberg)</text>')
s.append(f'<text x="14" y="{(T + H - B) / 2:.0f}" transform="rotate(-90 14 {(T + H - B) / 2:.0f})" text-anchor="middle">growth from one copy</text>')
s.append(f'<path d="M{x(1):.1f} {y(1):.1f}L{x(max(copies)):.1f} {y(max(copies)):.1f}" stroke="#999" stroke-dasharray="5 4"/>')
s.append(f'<text x="{x(16) - 8:.1f}" y="{y(16) - 8:.1f}" fill="#999" text-anchor="end">linear</text>')
for i, (label, col, colour) in enumerate(series):
    base = num(rows[0][col])
    pts = " ".join(f"{x(c):.1f},{y(max(num(r[col]) / base, 1e-3)):.1f}" for c, r in zip(copies, rows))
    s.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2"/>')
    for c, r in zip(copies, rows):
        s.append(f'<circle cx="{x(c):.1f}" cy="{y(max(num(r[col]) / base, 1e-3)):.1f}" r="3" fill="{colour}"/>')
    last = num(rows[-1][col])
    s.append(f'<text x="{W - R + 14}" y="{T + 16 + 18 * i}" fill="{colour}">{label}: ×{last / base:.1f}</text>')
s.append("</svg>")
out = os.path.join(root, "docs", "images", "scale-curve.svg")
open(out, "w").write("\n".join(s) + "\n")
print(f"plot_scale: {out}: {len(rows)} sizes, {len(series)} figures")
