#!/bin/sh
# Install the Debian packages the test suite needs, once; a no-op when present.
# Runs as root on CI (a fresh Debian); elsewhere it only reports what is missing.
# With arguments, those packages instead (tests/appliance/sysdeps.sh).
# systemd: systemd-analyze and systemd-sysusers for the unit and install tests.
# mosquitto (+ clients' mosquitto_passwd): the club tests start a real broker on 127.0.0.1.
# chromium, chromium-driver: the club page checked in a real headless browser.
# strace: the power-loss simulator and I/O-error injection (tests/e2e/crashsim.py, faultinject.py).
# tmux: the terminal table driven as a person would (send-keys, capture-pane).
set -e
NEEDED="systemd libgl1 libegl1 libgl1-mesa-dri libmtdev1 strace mosquitto mosquitto-clients chromium chromium-driver tmux"
WHO="tests need"
if [ $# -gt 0 ]; then NEEDED="$*"; WHO="this needs"; fi
missing=""
for pkg in $NEEDED; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null \
        || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null; }
else
    echo "$WHO Debian packages:$missing (install them as root)" >&2
    exit 1
fi
