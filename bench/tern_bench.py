"""What the small bench scripts share: where ../shared/data is, which tern binary, a scratch
folder, and an extract imported into it."""
import os, subprocess, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "data"))


def setup(args, prefix):
    """(tern binary, scratch folder) for the parsed `--tern` argument."""
    return os.path.abspath(args.tern), tempfile.mkdtemp(prefix=prefix)


def import_extract(tern, name, work):
    """../shared/data/osm/NAME.osm.pbf imported into WORK/NAME.tmap; its path."""
    out = os.path.join(work, name + ".tmap")
    subprocess.run([tern, "import", os.path.join(SHARED, "osm", name + ".osm.pbf"), "-o", out, "--quiet"], check=True, capture_output=True)
    return out


def status_kb(pid, field):
    """A kB field of /proc/PID/status (VmRSS, VmHWM, RssAnon...); 0 when absent."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def peak_rss_kb(cmd):
    """Peak RSS (KiB) of the command's own process: its VmHWM, read every 2 ms until it exits,
    for commands that run a while (a replay, an import).

    Not getrusage, whose maximum carries over exec: a child that Python spawned (fork, vfork or
    posix_spawn alike) starts with Python's own ~14 MB counted, and grandchildren (gpsfake,
    gpsd) count too. Measured: a Swift "hi" of 5.0 MB read as 13.9 MB that way. VmHWM is the
    process's own high-water mark; polled, it misses only a rise in the last 2 ms."""
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        hwm = 0
        while p.poll() is None:
            try:
                hwm = max(hwm, status_kb(p.pid, "VmHWM"))
            except (FileNotFoundError, ProcessLookupError, ValueError):
                pass
            time.sleep(0.002)
        if p.returncode != 0:
            err.seek(0)
            raise subprocess.CalledProcessError(p.returncode, cmd, stderr=err.read().decode(errors="replace"))
    return hwm


def short_peak_rss_kb(cmd):
    """Peak RSS (KiB) of a command too quick to poll (`tern --version`), from GNU time, whose
    own small fork is all that carries over exec; None without /usr/bin/time."""
    if not os.path.exists("/usr/bin/time"):
        return None
    with tempfile.NamedTemporaryFile(mode="r") as out:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name, *cmd], check=True, capture_output=True)
        return int(out.read().split()[-1])


def free_port():
    """A TCP port free on 127.0.0.1 now (for gpsfake's gpsd)."""
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def simulated_drive(tern, map_path, work, frm, to, name="d.nmea"):
    """`tern simulate` from FRM to TO on the map, into WORK/NAME; its path."""
    import subprocess
    out = os.path.join(work, name)
    subprocess.run([tern, "simulate", "--map", map_path, "--from", frm, "--to", to, "-o", out], check=True, capture_output=True)
    return out
