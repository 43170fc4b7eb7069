#!/bin/sh
# In the guest: a USB CDC-ACM serial device made with configfs on dummy_hcd -- the kernel's own
# loopback USB controller, so the guest sees a real USB device (cdc_acm, udev, /dev/serial/by-id)
# whose other end, /dev/ttyGS0, the simulated pod (usb_pod.py) drives.
#
#   usb-pod.sh plug POD_ID     make the gadget (a MicroPython board's ids) and plug it in
#   usb-pod.sh unplug          pull the cable (the device goes away)
#   usb-pod.sh replug          plug it in again
set -eu
G=/sys/kernel/config/usb_gadget/tkpod
case "$1" in
    plug)
        modprobe dummy_hcd
        modprobe libcomposite
        mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
        if [ ! -d "$G" ]; then
            mkdir -p "$G/strings/0x409" "$G/configs/c.1/strings/0x409" "$G/functions/acm.usb0"
            echo 0x2e8a > "$G/idVendor"            # Raspberry Pi (a Pico)
            echo 0x0005 > "$G/idProduct"           # MicroPython's CDC
            echo MicroPython > "$G/strings/0x409/manufacturer"
            echo "Board in FS mode" > "$G/strings/0x409/product"
            echo "$2" > "$G/strings/0x409/serialnumber"
            echo "CDC" > "$G/configs/c.1/strings/0x409/configuration"
            ln -s "$G/functions/acm.usb0" "$G/configs/c.1/"
        fi
        ls /sys/class/udc | head -n 1 > "$G/UDC"
        ;;
    unplug) echo "" > "$G/UDC" ;;
    replug) ls /sys/class/udc | head -n 1 > "$G/UDC" ;;
    *) echo "usage: $0 plug POD_ID | unplug | replug" >&2; exit 2 ;;
esac
