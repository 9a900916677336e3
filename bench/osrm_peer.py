#!/usr/bin/env python3
"""OSRM 26.10 from the osrm-bindings wheel in .bench/osrm-venv, for the benchmarks that measure
against it: the wheel's binaries, its car profile's CH data per extract, osrm-routed.

The wheel bundles osrm-extract, osrm-contract and osrm-routed and needs Python >= 3.12:
    python3.12 -m venv .bench/osrm-venv && .bench/osrm-venv/bin/pip install osrm-bindings==26.10.0
Standard library only, so that both venvs can import it: .bench/venv (bench/valhalla_turns.py,
bench/turns_three_way.py; osrm-routed over HTTP) and .bench/osrm-venv (bench/osrm_baseline.py,
the wheel's Python API in-process).
"""

import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".bench"


def osrm_bin_dir():
    found = sorted((WORK / "osrm-venv").glob("lib/python3*/site-packages/osrm/bin"))
    if not found:
        sys.exit("no OSRM: .bench/osrm-venv holds none. Install it (Python 3.12 or later; the wheel "
                 "bundles osrm-extract, osrm-contract and osrm-routed):\n"
                 "    python3.12 -m venv .bench/osrm-venv && .bench/osrm-venv/bin/pip install osrm-bindings==26.10.0\n"
                 "(any Python >= 3.12: the wheel is cp312 abi3; Debian 12's own python3 is 3.11)")
    return found[0]


def build_osrm(name, pbf_dir):
    """.bench/osrm/<name>/<name>.osrm*: OSRM's car profile, contraction hierarchies."""
    work = WORK / "osrm" / name
    base = work / f"{name}.osrm"
    if (work / f"{name}.osrm.hsgr").is_file():
        return base
    bindir = osrm_bin_dir()
    profile = bindir.parent / "share" / "profiles" / "car.lua"
    work.mkdir(parents=True, exist_ok=True)
    pbf = work / f"{name}.osm.pbf"
    shutil.copyfile(Path(pbf_dir) / f"{name}.osm.pbf", pbf)
    with open(work / "build.log", "w") as log:
        subprocess.run([str(bindir / "osrm-extract"), "-p", str(profile), "-t", "2", pbf.name],
                       cwd=work, stdout=log, stderr=subprocess.STDOUT, check=True)
        subprocess.run([str(bindir / "osrm-contract"), "-t", "2", base.name],
                       cwd=work, stdout=log, stderr=subprocess.STDOUT, check=True)
    return base


class OsrmServer:
    """osrm-routed on a free local port for one extract; route(q) gives OSRM's JSON answer."""

    def __init__(self, name, pbf_dir):
        base = build_osrm(name, pbf_dir)
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([str(osrm_bin_dir() / "osrm-routed"), "--algorithm", "ch", "-i", "127.0.0.1",
                                      "-p", str(self.port), "-t", "1", str(base)],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                if self.proc.poll() is not None or time.time() > deadline:
                    self.log.seek(0)
                    sys.exit(f"osrm-routed for {name} did not start: {self.log.read().decode(errors='replace')[-2000:]}")
                time.sleep(0.2)

    def route(self, q):
        coords = ";".join(f"{lon:.7f},{lat:.7f}" for lat, lon in q["locations"])
        url = (f"http://127.0.0.1:{self.port}/route/v1/driving/{coords}"
               "?steps=true&overview=full&geometries=polyline6&annotations=false")
        try:
            with urllib.request.urlopen(url, timeout=60) as r:
                return json.loads(r.read())
        except Exception as e:  # HTTPError 400 NoRoute and the like
            body = getattr(e, "read", lambda: b"")()
            try:
                return json.loads(body)
            except ValueError:
                return {"code": "Error", "message": str(e)}

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()
