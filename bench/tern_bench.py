"""What the small bench scripts share: where ../shared/data is, which tern binary, a scratch
folder, and an extract imported into it."""
import os, subprocess, tempfile

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


def peak_rss_kb(cmd):
    """Peak RSS (KiB) of one command, measured on its own (RUSAGE_CHILDREN keeps the maximum)."""
    out = subprocess.run(["/usr/bin/env", "python3", "-c",
                          "import resource,subprocess,sys; subprocess.run(sys.argv[1:], check=True, capture_output=True);"
                          "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"] + cmd,
                         check=True, capture_output=True, text=True)
    return int(out.stdout.strip())
