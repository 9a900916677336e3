#!/usr/bin/env bash
# Nominatim 5.3 reference geocoder for `tern search` (bench/search_compare.py).
#
# What it sets up, re-runnable (each step skips what is already there):
#   1. Debian 12 packages: PostgreSQL 15 + PostGIS 3, osm2pgsql (>= 1.8, Nominatim's minimum),
#      libicu-dev + pkg-config (PyICU builds from source against them).
#   2. The PostgreSQL cluster started; roles `root` (superuser: `nominatim import` creates the
#      database) and `www-data` (Nominatim's default web user, which it GRANTs to). The root role
#      gets max_parallel_*workers 0 and the postmaster is reniced to 10 (backends inherit it), so
#      the import keeps to one core at low priority: the machine has 2 cores and one is busy.
#   3. A venv .bench/nominatim-venv with nominatim-db + nominatim-api 5.3.x, psycopg 3 and
#      pyosmium (osmium, for bench/search_queries.py), from PyPI.
#   4. Per extract, its own project dir .bench/nominatim/<extract>/ with a .env naming its own
#      database nominatim_<extract>, imported with
#        nice -n 10 nominatim import --osm-file <pbf> --threads 1 --offline --no-partitions --no-updates
#      (ICU tokenizer, Nominatim's default import style `extratags`; no Wikipedia importance, no
#      postcodes from outside, no update tables). An extract whose project dir has `imported`
#      (written after a successful import) and whose database exists is skipped; a half-done
#      one is dropped and imported again. The wall time is written to <dir>/import-seconds.
#
# Usage:  bash bench/nominatim_setup.sh [EXTRACT ...]     (default: heidelberg liechtenstein andorra monaco)
#         PBF_DIR=/path/to/osm bash bench/nominatim_setup.sh   (default ../shared/data/osm beside the repository)
#         FORCE=1 ... re-imports even imported extracts.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH="$ROOT/.bench"
VENV="$BENCH/nominatim-venv"
PY="${PYTHON:-python3}"   # Python 3.11 or later
EXTRACTS=("$@")
[ ${#EXTRACTS[@]} -gt 0 ] || EXTRACTS=(heidelberg liechtenstein andorra monaco)

PBF_DIR="${PBF_DIR:-$ROOT/../shared/data/osm}"

log() { echo "nominatim_setup: $*" >&2; }

# --- 1. Debian packages ---------------------------------------------------------------------
PACKAGES=(postgresql postgresql-contrib postgresql-15-postgis-3 osm2pgsql libicu-dev pkg-config)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  log "installing ${missing[*]}"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi

# --- 2. PostgreSQL running, roles -----------------------------------------------------------
PGVER=$(pg_lsclusters -h | awk 'NR==1 {print $1}')
if ! pg_lsclusters -h | awk 'NR==1 {print $4}' | grep -q online; then
  log "starting PostgreSQL $PGVER"
  pg_ctlcluster "$PGVER" main start
fi
psql_pg() { su postgres -c "psql -X -q -v ON_ERROR_STOP=1 -tA -c \"$1\""; }
ME="$(id -un)"
[ "$(psql_pg "SELECT 1 FROM pg_roles WHERE rolname='$ME'")" = 1 ] || psql_pg "CREATE ROLE \\\"$ME\\\" SUPERUSER LOGIN"
[ "$(psql_pg "SELECT 1 FROM pg_roles WHERE rolname='www-data'")" = 1 ] || psql_pg "CREATE ROLE \\\"www-data\\\" LOGIN"
psql_pg "ALTER ROLE \\\"$ME\\\" SET max_parallel_workers_per_gather = 0"
psql_pg "ALTER ROLE \\\"$ME\\\" SET max_parallel_maintenance_workers = 0"
PGPID=$(head -1 "/var/lib/postgresql/$PGVER/main/postmaster.pid")
renice -n 10 -p "$PGPID" $(pgrep -P "$PGPID" || true) >/dev/null

# --- 3. venv ----------------------------------------------------------------------------------
if ! "$VENV/bin/python" -c 'import nominatim_db, nominatim_api, osmium, psycopg' 2>/dev/null; then
  log "creating $VENV"
  "$PY" -m venv "$VENV"
  "$VENV/bin/pip" install -q --upgrade pip
  nice -n 10 "$VENV/bin/pip" install -q 'nominatim-db==5.3.*' 'nominatim-api==5.3.*' 'psycopg[binary]' osmium
fi
"$VENV/bin/nominatim" --version >&2 || true

# --- 4. imports -------------------------------------------------------------------------------
for ex in "${EXTRACTS[@]}"; do
  pbf="$PBF_DIR/$ex.osm.pbf"
  dir="$BENCH/nominatim/$ex"
  db="nominatim_$ex"
  [ -f "$pbf" ] || { log "no $pbf, skipping $ex"; continue; }
  mkdir -p "$dir"
  echo "NOMINATIM_DATABASE_DSN=\"pgsql:dbname=$db\"" > "$dir/.env"
  exists=$(psql_pg "SELECT 1 FROM pg_database WHERE datname='$db'")
  if [ -f "$dir/imported" ] && [ "$exists" = 1 ] && [ -z "${FORCE:-}" ]; then
    log "$ex: already imported ($(cat "$dir/import-seconds" 2>/dev/null || echo '?') s), skipping"
    continue
  fi
  rm -f "$dir/imported"
  [ "$exists" = 1 ] && { log "$ex: dropping incomplete $db"; psql_pg "DROP DATABASE \\\"$db\\\""; }
  log "$ex: importing $pbf into $db"
  t0=$(date +%s.%N)
  (cd "$dir" && nice -n 10 "$VENV/bin/nominatim" import --project-dir "$dir" --osm-file "$pbf" \
       --threads 1 --osm2pgsql-cache 1000 --offline --no-partitions --no-updates) \
    > "$dir/import.log" 2>&1 || { log "$ex: import failed, see $dir/import.log"; tail -20 "$dir/import.log" >&2; exit 1; }
  t1=$(date +%s.%N)
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f", b - a}')
  echo "$secs" > "$dir/import-seconds"
  touch "$dir/imported"
  log "$ex: imported in $secs s"
done

for ex in "${EXTRACTS[@]}"; do
  f="$BENCH/nominatim/$ex/import-seconds"
  [ -f "$f" ] && echo "$ex import: $(cat "$f") s"
done
