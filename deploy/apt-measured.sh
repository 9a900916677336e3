# apt_measured LABEL PACKAGE...: apt-get install, then one line saying what it cost: how many
# packages came in, how much was downloaded and how much disk they take (issue #27: the appliance
# installs only what it runs; the build and test tools are counted apart). Sourced by
# deploy/install.sh and scripts/setup.sh.
apt_measured() {
    local label=$1; shift
    local before after new kb=0 dl=0 n=0 p s
    before=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' 2>/dev/null | awk '$1 == "ii" { print $2 }' | sort)
    env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@"
    after=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' 2>/dev/null | awk '$1 == "ii" { print $2 }' | sort)
    new=$(comm -13 <(echo "$before") <(echo "$after"))
    for p in $new; do
        n=$((n + 1))
        s=$(dpkg-query -W -f='${Installed-Size}' "$p" 2>/dev/null || echo 0)
        kb=$((kb + ${s:-0}))
        s=$(apt-cache show --no-all-versions "$p" 2>/dev/null | sed -n 's/^Size: //p' | head -n 1)
        dl=$((dl + ${s:-0}))
    done
    awk -v l="$label" -v n="$n" -v dl="$dl" -v kb="$kb" \
        'BEGIN { printf "%s: %d new packages, %.1f MB downloaded, %.1f MB on disk\n", l, n, dl / 1e6, kb / 1024 }'

}
