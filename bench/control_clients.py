#!/usr/bin/env python3
"""A crowd on the control socket (issue #29): `tern run` guiding a Heidelberg drive fed by gpsfake
and gpsd, first alone, then with 1000 idle clients and 10 watchers that never read. Measured:
the gaps between its status lines (standard output) and between its systemd watchdog pings
(WATCHDOG=1 datagrams on $NOTIFY_SOCKET, as systemd would get them), and how long `tern ctl status`
takes meanwhile. Target: both keep their one-second rhythm.

Reproduce:  python3 bench/control_clients.py [--tern .build/release/tern] [--seconds 60]
"""
import argparse, os, resource, socket, statistics, subprocess, threading, time

from tern_bench import free_port, import_extract, setup, simulated_drive

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--tern", default=".build/release/tern")
ap.add_argument("--seconds", type=float, default=60)
ap.add_argument("--idle", type=int, default=1000)
ap.add_argument("--stalled", type=int, default=10)
a = ap.parse_args()
tern, work = setup(a, "tern-control-")
m = import_extract(tern, "heidelberg", work)
frm, to = "49.4093,8.6937", "49.3850,8.6900"
nmea = simulated_drive(tern, m, work, frm, to)
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, a.idle + a.stalled + 256)), hard))


def gaps(times):
    return [b - a for a, b in zip(times, times[1:])]


def run(crowd):
    port, sock = free_port(), os.path.join(work, f"control-{crowd}")
    notify = os.path.join(work, f"notify-{crowd}")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(notify)
    listener.settimeout(0.5)
    fake = subprocess.Popen(["gpsfake", "-q", "-1", "-P", str(port), "-c", "0.25", nmea], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = dict(os.environ, NOTIFY_SOCKET=notify)
    p = subprocess.Popen([tern, "run", "--map", m, "--gpsd", f"127.0.0.1:{port}", "--console", "none", "--speech", "none",
                          "--control", sock, "--state-dir", "none", "--log-dir", os.path.join(work, "drives"), "--destination", to],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    status, pings, stop = [], [], threading.Event()

    def read_status():
        for line in p.stdout:
            if stop.is_set():
                break
            status.append(time.perf_counter())

    def read_pings():
        while not stop.is_set():
            try:
                if b"WATCHDOG=1" in listener.recv(256):
                    pings.append(time.perf_counter())
            except socket.timeout:
                pass

    threads = [threading.Thread(target=read_status, daemon=True), threading.Thread(target=read_pings, daemon=True)]
    for t in threads:
        t.start()
    while not os.path.exists(sock):
        time.sleep(0.05)
    clients = []
    if crowd:
        for _ in range(a.stalled):
            c = socket.socket(socket.AF_UNIX)
            c.connect(sock)
            c.sendall(b"watch\n")  # and never read
            clients.append(c)
        for _ in range(a.idle):
            c = socket.socket(socket.AF_UNIX)
            try:
                c.connect(sock)
                clients.append(c)
            except OSError:
                c.close()
    ctl = []
    end = time.perf_counter() + a.seconds
    while time.perf_counter() < end:
        t0 = time.perf_counter()
        r = subprocess.run([tern, "ctl", "--socket", sock, "status"], capture_output=True, text=True, timeout=30)
        ctl.append((time.perf_counter() - t0, r.returncode == 0))
        time.sleep(1)
    stop.set()
    p.terminate()
    p.wait()
    fake.terminate()
    fake.wait()
    for c in clients:
        c.close()
    listener.close()
    return gaps(status), gaps(pings), ctl


for crowd in (False, True):
    sg, pg, ctl = run(crowd)
    label = f"{a.idle} idle + {a.stalled} stalled clients" if crowd else "no other client"
    print(f"{label}: {len(sg) + 1} status lines, largest gap {max(sg):.2f} s (median {statistics.median(sg):.2f}); "
          f"{len(pg) + 1} watchdog pings, largest gap {max(pg):.2f} s; tern ctl status {sum(ok for _, ok in ctl)}/{len(ctl)} answered, "
          f"slowest {max(t for t, _ in ctl) * 1000:.0f} ms")
