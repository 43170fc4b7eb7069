#!/bin/bash
# Build, once, the Debian bookworm image the appliance test boots, and print the folder it is in.
#
# What is in it: Debian's kernel (linux-image-amd64) and initramfs, systemd and udev, and what a
# Raspberry Pi OS Lite system has out of the box that the test uses (python3, sudo, an ssh server,
# ca-certificates) -- nothing of tablekeeper installed: the test runs systemd/install.sh inside, as
# a person does on a Pi. Plus what only the harness needs: root's ssh key (made here), socat (a
# serial line by hand, when debugging) and the CA certificates this host trusts (when its network
# re-signs TLS, pip inside must trust the same). To make the emulated boots shorter: an initramfs
# with only the modules the root disk needs, a static network (QEMU's user-mode network has fixed
# addresses) instead of systemd-networkd, units a headless VM does not need masked; and apt's
# package lists and the .deb files of install.sh's PACKAGES already downloaded (apt-get
# --download-only), so install.sh's own apt-get update and install run without the long
# downloads. docs/install.md lists every difference from a Pi.
#
# The folder (kept between runs, outside git): $TABLEKEEPER_APPLIANCE_CACHE, else
# ~/.cache/tablekeeper-appliance; one subfolder per version of this script and of install.sh's
# package list, holding base.qcow2, vmlinuz, initrd.img, id_ed25519. Delete it to build again.
# Needs root (mmdebstrap, mkfs -d).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${TABLEKEEPER_APPLIANCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tablekeeper-appliance}
MIRROR=${TABLEKEEPER_APPLIANCE_MIRROR:-http://deb.debian.org/debian}
SECURITY=${MIRROR%/debian}/debian-security
SIZE=${TABLEKEEPER_APPLIANCE_DISK:-6G}
# install.sh's Debian packages (its PACKAGES=(...) lines), downloaded into the image's apt cache
# (those Debian has: liblgpio-dev is Raspberry Pi OS's, and install.sh skips it here too).
INSTALL_PACKAGES=$(sed -n '/^PACKAGES=(/,/)/p' "$HERE/../../systemd/install.sh" | tr -d '()' | sed 's/^PACKAGES=//' | xargs)
[ -n "$INSTALL_PACKAGES" ] || { echo "image.sh: no PACKAGES=(...) in systemd/install.sh" >&2; exit 1; }
# Units the VM does not need (each in docs/install.md, "What differs from a Raspberry Pi").
MASKED="e2scrub_reap.service e2scrub_all.timer systemd-binfmt.service proc-sys-fs-binfmt_misc.automount
dev-hugepages.mount sys-kernel-debug.mount sys-kernel-tracing.mount sys-fs-fuse-connections.mount
modprobe@fuse.service modprobe@loop.service modprobe@dm_mod.service modprobe@efi_pstore.service
systemd-logind.service dbus.service dbus.socket systemd-update-utmp.service systemd-update-utmp-runlevel.service
systemd-networkd.service systemd-networkd.socket systemd-network-generator.service systemd-networkd-wait-online.service"
KEY=$( { cat "${BASH_SOURCE[0]}"; echo "$MIRROR $SIZE $INSTALL_PACKAGES"; } | sha256sum | cut -c1-12)
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
# The network: eth0 (net.ifnames=0 on the kernel's command line, vm.py) with QEMU's fixed addresses.
cat > "$TMP/vm-network.service" <<'UNIT'
[Unit]
Description=The VM's network (QEMU's user-mode network: fixed addresses, no DHCP)
BindsTo=sys-subsystem-net-devices-eth0.device
After=sys-subsystem-net-devices-eth0.device
Before=network.target
Wants=network.target
[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/sbin/ip link set eth0 up
ExecStart=/sbin/ip addr replace 10.0.2.15/24 dev eth0
ExecStart=/sbin/ip route replace default via 10.0.2.2
[Install]
WantedBy=multi-user.target
UNIT
log "mmdebstrap bookworm from $MIRROR (a few minutes)"
mmdebstrap --mode=root --variant=minbase --include="$PACKAGES" --skip=cleanup/apt/lists,cleanup/apt/cache \
    --customize-hook="chroot \"\$1\" sh -c 'for p in $INSTALL_PACKAGES; do apt-cache show \$p >/dev/null 2>&1 && echo \$p; done' | xargs chroot \"\$1\" apt-get install -q -y --download-only --no-install-recommends >&2" \
    --customize-hook='echo tablekeeper-vm > "$1/etc/hostname"; echo "127.0.1.1 tablekeeper-vm" >> "$1/etc/hosts"' \
    --customize-hook='echo "/dev/vda / ext4 rw,errors=remount-ro 0 1" > "$1/etc/fstab"' \
    --customize-hook="mkdir -p \"\$1/root/.ssh\" && chmod 700 \"\$1/root/.ssh\" && cp '$TMP/id_ed25519.pub' \"\$1/root/.ssh/authorized_keys\"" \
    --customize-hook="cp '$TMP'/extra-ca/*.crt \"\$1/usr/local/share/ca-certificates/\" 2>/dev/null || true; chroot \"\$1\" update-ca-certificates >/dev/null" \
    --customize-hook="cp '$TMP/vm-network.service' \"\$1/etc/systemd/system/\"; chroot \"\$1\" systemctl enable vm-network.service" \
    --customize-hook="chroot \"\$1\" systemctl mask $(echo $MASKED)" \
    --customize-hook='printf "virtio_pci\nvirtio_blk\next4\ncrc32c_generic\ncrc32c_intel\n" >> "$1/etc/initramfs-tools/modules"; printf "MODULES=list\n" > "$1/etc/initramfs-tools/conf.d/vm-small.conf"; chroot "$1" update-initramfs -u -k all >&2' \
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
