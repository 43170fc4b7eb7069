#!/bin/sh
# The host's Debian packages for the appliance test (make appliance-test), once; a no-op when present.
# mmdebstrap builds the Debian bookworm image; qemu-system-x86 boots it (software emulation, TCG);
# qemu-utils: qemu-img for the copy-on-write overlay each run boots; e2fsprogs: mkfs.ext4 -d;
# openssh-client: the harness logs in over ssh (QEMU's user-mode network, a forwarded port).
exec sh "$(dirname "$0")/../sysdeps.sh" mmdebstrap qemu-system-x86 qemu-utils e2fsprogs openssh-client
