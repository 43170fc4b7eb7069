#!/bin/bash
# Build, once, the Debian bookworm image the appliance test boots, and print the folder it is in.
#
# What is in it: Debian's kernel (linux-image-amd64) and initramfs, systemd and udev, and what a
# Raspberry Pi OS Lite system has out of the box that the test uses (python3, sudo, an ssh server,
# ca-certificates) -- nothing of tablekeeper: the test runs systemd/install.sh inside, as a person
# does on a Pi. Plus what only the harness needs: root's ssh key (made here), socat (the USB
# pod's bridge) and the CA certificates this host trusts (when its network re-signs TLS, pip
# inside must trust the same); docs/install.md lists every difference from a Pi.
#
# The folder (kept between runs, outside git): $TABLEKEEPER_APPLIANCE_CACHE, else
# ~/.cache/tablekeeper-appliance; one subfolder per version of this script, holding base.qcow2,
# vmlinuz, initrd.img, id_ed25519. Delete it to build again. Needs root (mmdebstrap, mkfs -d).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${TABLEKEEPER_APPLIANCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tablekeeper-appliance}
MIRROR=${TABLEKEEPER_APPLIANCE_MIRROR:-http://deb.debian.org/debian}
SECURITY=${MIRROR%/debian}/debian-security
SIZE=${TABLEKEEPER_APPLIANCE_DISK:-6G}
KEY=$( { cat "${BASH_SOURCE[0]}"; echo "$MIRROR $SIZE"; } | sha256sum | cut -c1-12)
OUT=$CACHE/bookworm-$KEY
if [ -f "$OUT/done" ]; then echo "$OUT"; exit 0; fi
[ "$(id -u)" = 0 ] || { echo "image.sh: building the image needs root (mmdebstrap, mkfs.ext4 -d)" >&2; exit 1; }
sh "$HERE/sysdeps.sh" >&2

mkdir -p "$CACHE"
TMP=$(mktemp -d "$CACHE/.build.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
log() { printf 'image.sh: %s\n' "$*" >&2; }

ssh-keygen -q -t ed25519 -N '' -C tablekeeper-appliance-test -f "$TMP/id_ed25519"
# The CA certificates this host trusts beyond Debian's own (none, on most machines).
mkdir -p "$TMP/extra-ca"
python3 - "$TMP/extra-ca" <<'PY'
import pathlib, re, sys
pem = re.compile(r"-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----", re.S)
bundle = pathlib.Path("/etc/ssl/certs/ca-certificates.crt")
known = set()
for f in pathlib.Path("/usr/share/ca-certificates").rglob("*.crt"):
    known.update(c.strip() for c in pem.findall(f.read_text(errors="replace")))
if bundle.exists():
    for i, cert in enumerate(c.strip() for c in pem.findall(bundle.read_text(errors="replace"))):
        if cert not in known:
            pathlib.Path(sys.argv[1], f"host-extra-{i}.crt").write_text(cert + "\n")
PY

PACKAGES=systemd-sysv,udev,kmod,dbus,linux-image-amd64,initramfs-tools,openssh-server,python3,sudo,ca-certificates,iproute2,procps,less,socat
log "mmdebstrap bookworm from $MIRROR (a few minutes)"
mmdebstrap --mode=root --variant=minbase --include="$PACKAGES" \
    --customize-hook='echo tablekeeper-vm > "$1/etc/hostname"; echo "127.0.1.1 tablekeeper-vm" >> "$1/etc/hosts"' \
    --customize-hook='echo "/dev/vda / ext4 rw,errors=remount-ro 0 1" > "$1/etc/fstab"' \
    --customize-hook="mkdir -p \"\$1/root/.ssh\" && chmod 700 \"\$1/root/.ssh\" && cp '$TMP/id_ed25519.pub' \"\$1/root/.ssh/authorized_keys\"" \
    --customize-hook="cp '$TMP'/extra-ca/*.crt \"\$1/usr/local/share/ca-certificates/\" 2>/dev/null || true; chroot \"\$1\" update-ca-certificates >/dev/null" \
    --customize-hook='printf "[Match]\nName=en*\n[Network]\nDHCP=ipv4\n" > "$1/etc/systemd/network/20-wired.network"; chroot "$1" systemctl enable systemd-networkd.service' \
    --customize-hook='rm -f "$1/etc/resolv.conf"; echo "nameserver 10.0.2.3" > "$1/etc/resolv.conf"' \
    --customize-hook='chroot "$1" systemctl mask apt-daily.timer apt-daily-upgrade.timer' \
    --customize-hook='mkdir -p "$1/etc/systemd/system/serial-getty@ttyS0.service.d"; printf "[Service]\nExecStart=\nExecStart=-/sbin/agetty --autologin root --keep-baud 115200 %%I \$TERM\n" > "$1/etc/systemd/system/serial-getty@ttyS0.service.d/autologin.conf"' \
    --customize-hook='echo "PermitRootLogin prohibit-password" > "$1/etc/ssh/sshd_config.d/appliance-test.conf"; echo "UseDNS no" >> "$1/etc/ssh/sshd_config.d/appliance-test.conf"' \
    --customize-hook="cp \"\$1\"/boot/vmlinuz-* '$TMP/vmlinuz'; cp \"\$1\"/boot/initrd.img-* '$TMP/initrd.img'" \
    bookworm "$TMP/root" \
    "deb $MIRROR bookworm main" "deb $MIRROR bookworm-updates main" "deb $SECURITY bookworm-security main" >&2

log "ext4 file system ($SIZE) and qcow2 image"
mkfs.ext4 -q -F -L root -d "$TMP/root" "$TMP/disk.raw" "$SIZE"
qemu-img convert -O qcow2 "$TMP/disk.raw" "$TMP/base.qcow2"
rm -rf "$TMP/root" "$TMP/disk.raw" "$TMP/extra-ca"
chmod 0444 "$TMP/base.qcow2"
touch "$TMP/done"
rm -rf "$OUT"; mv "$TMP" "$OUT"; trap - EXIT
log "built $OUT"
echo "$OUT"
