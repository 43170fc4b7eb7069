#!/bin/sh
# In the guest, as root, started at every boot of the power-cut phase by appliance-cycle.service
# (the harness's unit): the host's line on the VM's serial port (virtio-serial
# "tablekeeper.pod") is the burst's seed (or "check"); once tablekeeper-serve.service is active
# -- brought up by systemd alone after the cut -- it says whether serve resumed the game
# (RESUMED <count of "resuming game 1" in serve's log of this boot>), then runs cycle.py as the
# service user, its output to the port. No ssh in the loop: a boot pays for what the appliance does.
set -eu
HERE=$(dirname "$0")
STATE=/var/lib/tablekeeper
PORT=/dev/virtio-ports/tablekeeper.pod
exec 3<>"$PORT"
read -r seed <&3
until systemctl -q is-active tablekeeper-serve.service; do sleep 0.5; done
echo "ACTIVE $(cut -d' ' -f1 /proc/uptime)" >&3
# journald takes serve's output a moment after READY=1: up to 30 s for the line.
resumed=0
for _ in $(seq 60); do
    resumed=$(journalctl -b -u tablekeeper-serve.service -o cat --no-pager | grep -c 'resuming game 1' || true)
    [ "$resumed" -gt 0 ] && break
    sleep 0.5
done
echo "RESUMED $resumed" >&3
exec runuser -u tablekeeper -- env -C "$STATE" /opt/tablekeeper/venv/bin/python "$HERE/cycle.py" "$STATE" "$seed" >&3 2>&1
