#!/bin/bash
# Install tablekeeper as an appliance on Raspberry Pi OS (64-bit): Debian
# packages, an unprivileged user, a venv under /opt, I2C and SPI on, the
# systemd units enabled, `tablekeeper hw check` at the end. Idempotent: run it
# again after an update; what is already right is left alone.
#
#   sudo systemd/install.sh                 # the touchscreen app (kiosk)
#   sudo systemd/install.sh --headless      # the pods only (tablekeeper serve)
#   sudo systemd/install.sh --uninstall     # remove; keeps games and config
#   sudo systemd/install.sh --uninstall --purge   # ... and the games, config, user
#   systemd/install.sh --dry-run            # print what it would do; change nothing
#   systemd/install.sh --root DIR           # write the files into DIR (tests, images)
#   sudo systemd/install.sh --club-broker   # also this club's Mosquitto (docs/club.md)
#
# Exit status: 0 installed (or removed); 1 a step failed; 2 bad arguments;
# 3 installed, but `tablekeeper hw check` found a problem with the pods.
# docs/install.md explains every step and the wiring.
set -euo pipefail

NAME=tablekeeper
PREFIX=/opt/tablekeeper           # venv/ and src/
UNIT_DIR=/etc/systemd/system
CONF_DIR=/etc/tablekeeper
STATE_DIR=/var/lib/tablekeeper
CACHE_DIR=/var/cache/tablekeeper
APP_UNIT=tablekeeper.service
SERVE_UNIT=tablekeeper-serve.service
MESSAGE_UNIT=tablekeeper-shutdown-message.service
UNITS=("$APP_UNIT" "$SERVE_UNIT" "$MESSAGE_UNIT")
# The venv comes from systemd/requirements-pi.txt: every package pinned to one
# version and checked against its sha256 hashes (docs/install.md: the lock).
INDEX=https://pypi.org/simple      # the index the lock's hashes were taken from
SDIST_ONLY=(spidev)                # no aarch64 wheel on PyPI: built from the hashed sdist
BUILD=$PREFIX/build                # where the tablekeeper user builds, during pip only
# gcc: pip builds spidev (SDIST_ONLY) from C; python3-dev brings the headers, not a compiler.
# libgl1: Kivy's wheel loads libGL.so.1 even to draw with GLES; libegl-mesa0 and
# libgl1-mesa-dri: Mesa's EGL and its drivers (vc4/v3d on a Pi) -- recommends of
# libegl1 and libgbm1, which --no-install-recommends would leave out.
PACKAGES=(python3 python3-venv python3-pip python3-dev gcc swig liblgpio-dev i2c-tools
          libegl1 libegl-mesa0 libgl1 libgl1-mesa-dri libgles2 libgbm1 libdrm2 libmtdev1)

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SOURCE=$(dirname "$HERE")
ROOT=""
DRY=0
MODE=app
ACTION=install
PURGE=0
START=1
DO_PACKAGES=1
CLUB_BROKER=0
CHANGED=0
REBOOT=0

say() { printf '%s: %s\n' "$NAME install" "$*"; }
die() { printf '%s: error: %s\n' "$NAME install" "$*" >&2; exit 1; }
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY=1 ;;
        --root) [ $# -ge 2 ] || { usage >&2; exit 2; }; ROOT=${2%/}; shift ;;
        --root=*) ROOT=${1#--root=}; ROOT=${ROOT%/} ;;
        --headless) MODE=headless ;;
        --app) MODE=app ;;
        --uninstall) ACTION=uninstall ;;
        --purge) PURGE=1 ;;
        --no-start) START=0 ;;
        --no-packages) DO_PACKAGES=0 ;;
        --club-broker) CLUB_BROKER=1 ;;
        --source) [ $# -ge 2 ] || { usage >&2; exit 2; }; SOURCE=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        *) printf '%s: unknown option %s\n' "$NAME install" "$1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
if [ "$PURGE" = 1 ] && [ "$ACTION" != uninstall ]; then
    say "--purge goes with --uninstall"; exit 2
fi
if [ -n "$ROOT" ]; then
    [ -d "$ROOT" ] || die "--root $ROOT: no such folder"
    ROOT=$(cd "$ROOT" && pwd)
fi
LIVE=1   # acting on the running system (not --root, not --dry-run)
{ [ -n "$ROOT" ] || [ "$DRY" = 1 ]; } && LIVE=0
if [ -z "$ROOT" ] && [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then
    die "run it as root (sudo $0 $*), or try --dry-run"
fi
SYSTEMCTL=(systemctl)
[ -n "$ROOT" ] && SYSTEMCTL=(systemctl "--root=$ROOT")

# -- doing, or saying what would be done -----------------------------------------
# run CMD...: a command that changes the system. --dry-run prints it.
run() {
    if [ "$DRY" = 1 ]; then say "would run: $*"; return 0; fi
    "$@"
}
# live CMD...: a command that needs the running system (apt, pip, services).
# Under --root (a folder, not a running system) it is listed, not run.
live() {
    if [ -n "$ROOT" ]; then say "skipped under --root: $*"; return 0; fi
    run "$@"
}
# put SRC DEST MODE: install a file; "unchanged" when DEST already has it.
put() {
    local src=$1 dest=$ROOT$2 mode=$3
    if [ -f "$dest" ] && cmp -s "$src" "$dest"; then
        say "unchanged $2"; return 0
    fi
    local what=new; [ -e "$dest" ] && what=updated
    if [ "$DRY" = 1 ]; then say "would install $2 ($what)"; CHANGED=1; return 0; fi
    mkdir -p "$(dirname "$dest")"
    local tmp; tmp=$(mktemp "$(dirname "$dest")/.$(basename "$dest").XXXXXX")
    cp "$src" "$tmp"; chmod "$mode" "$tmp"; sync "$tmp" 2>/dev/null || true
    mv -f "$tmp" "$dest"
    say "installed $2 ($what)"; CHANGED=1
}
# keep SRC DEST MODE: a config file the owner edits: installed only when missing.
keep() {
    if [ -e "$ROOT$2" ]; then say "kept your $2"; return 0; fi
    put "$@"
}
# remove PATH: delete a file or folder we installed.
remove() {
    local path=$ROOT$1
    if [ ! -e "$path" ] && [ ! -L "$path" ]; then return 0; fi
    if [ "$DRY" = 1 ]; then say "would remove $1"; return 0; fi
    rm -rf -- "$path"; say "removed $1"; CHANGED=1
}

# -- install steps ---------------------------------------------------------------------
check_system() {
    if [ -n "$ROOT" ]; then say "installing into $ROOT (a folder, not this system)"; return 0; fi
    command -v apt-get >/dev/null || die "apt-get not found: this installs on Raspberry Pi OS (Debian)"
    command -v systemctl >/dev/null || die "systemctl not found: the appliance needs systemd"
    local model=""
    [ -r /proc/device-tree/model ] && model=$(tr -d '\0' < /proc/device-tree/model)
    case "$model" in
        *"Raspberry Pi"*) say "on a $model ($(uname -m))" ;;
        *) say "warning: this is not a Raspberry Pi; the pods will fall back to mock pods" ;;
    esac
    [ "$(uname -m)" = aarch64 ] || say "warning: $(uname -m): Raspberry Pi OS 64-bit (aarch64) is the tested system"
}

install_packages() {
    [ "$DO_PACKAGES" = 1 ] || { say "skipping Debian packages (--no-packages)"; return 0; }
    if [ -n "$ROOT" ]; then live apt-get install -y --no-install-recommends "${PACKAGES[@]}"; return 0; fi
    local missing=() unknown=() absent=() p
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || absent+=("$p")
    done
    # A fresh system may have no package lists yet (images ship without them): without
    # `apt-get update` every package would look unknown.
    if [ ${#absent[@]} -gt 0 ]; then run apt-get update -q; fi
    for p in "${absent[@]}"; do
        if apt-cache show "$p" >/dev/null 2>&1; then missing+=("$p"); else unknown+=("$p"); fi
    done
    [ ${#unknown[@]} -eq 0 ] || say "warning: not in this system's package lists (skipped): ${unknown[*]}"
    if [ ${#missing[@]} -eq 0 ]; then say "Debian packages: all there"; return 0; fi
    run apt-get install -y --no-install-recommends "${missing[@]}"
    CHANGED=1
}

install_user() {
    put "$HERE/sysusers-tablekeeper.conf" /etc/sysusers.d/tablekeeper.conf 0644
    if [ "$DRY" = 1 ]; then say "would run: systemd-sysusers ${ROOT:+--root=$ROOT }tablekeeper.conf"; return 0; fi
    # Creates the user and any missing group; adds the memberships; no-op when done.
    systemd-sysusers ${ROOT:+"--root=$ROOT"} tablekeeper.conf
}

tree_hash() {  # a fingerprint of the source tree and the lock, to skip pip when nothing changed
    local parts=() p
    for p in engine hardware ui firmware pyproject.toml setup.py systemd/requirements-pi.txt; do
        [ -e "$1/$p" ] && parts+=("$p")
    done
    (cd "$1" && find "${parts[@]}" -type f \
        ! -path '*/__pycache__/*' ! -name '*.pyc' -print0 2>/dev/null | sort -z | xargs -0 sha256sum) \
        | sha256sum | cut -d' ' -f1
}

# lock_split LOCK WHEELS SOURCES: the lock's entries (hashes included) for the
# packages in SDIST_ONLY go to SOURCES, every other entry to WHEELS.
lock_split() {
    awk -v names=" ${SDIST_ONLY[*]} " -v wheels="$2" -v sources="$3" '
        /^[A-Za-z0-9]/ { split($1, a, "=="); n = tolower(a[1]); gsub(/[-_.]+/, "-", n)
                         out = index(names, " " n " ") ? sources : wheels }
        out != "" { print > out }' "$1"
    printf '' >> "$2"; printf '' >> "$3"
}

# install_venv: the venv from the lock, every download checked against its hash.
# Root only unpacks wheels (a wheel runs no code when installed); what must be
# built -- the SDIST_ONLY packages and tablekeeper itself -- is built by the
# unprivileged tablekeeper user in $BUILD, with the pinned setuptools.
install_venv() {
    local venv=$PREFIX/venv lock=$PREFIX/src/systemd/requirements-pi.txt
    # No pip.conf, no PIP_* variables (Raspberry Pi OS points pip.conf at piwheels,
    # whose files are not the ones hashed in the lock), no cache.
    local pip=("$venv/bin/pip" --isolated --disable-pip-version-check --no-cache-dir --quiet)
    local as_root=(env PIP_CONFIG_FILE=/dev/null)
    local as_builder=(runuser -u "$NAME" -- env -C "$BUILD" HOME="$BUILD" TMPDIR="$BUILD" PIP_CONFIG_FILE=/dev/null)
    [ -f "$ROOT$lock" ] || [ "$DRY" = 1 ] || die "$lock is missing: the lock file ships in systemd/"
    if [ ! -x "$ROOT$venv/bin/python" ]; then
        live python3 -m venv "$venv"
    fi
    if [ "$LIVE" = 1 ]; then
        rm -rf "$BUILD"; mkdir -m 0700 "$BUILD" "$BUILD/dist"
        lock_split "$lock" "$BUILD/wheels.txt" "$BUILD/sources.txt"
        cp -r "$PREFIX/src" "$BUILD/src"
        chown -R "$NAME:" "$BUILD"
    else
        say "${ROOT:+skipped under --root: }would split $lock into $BUILD/wheels.txt and $BUILD/sources.txt (${SDIST_ONLY[*]})"
    fi
    # 1. as root, wheels only: every package but SDIST_ONLY, setuptools and wheel included.
    live "${as_root[@]}" "${pip[@]}" install --require-hashes --no-deps --only-binary :all: \
        --index-url "$INDEX" -r "$BUILD/wheels.txt"
    # 2. as the tablekeeper user: SDIST_ONLY from their hashed sdists, then tablekeeper
    #    itself from the copy of the source, offline; both into $BUILD/dist.
    live "${as_builder[@]}" "${pip[@]}" wheel --require-hashes --no-deps --no-binary :all: \
        --no-build-isolation --check-build-dependencies --index-url "$INDEX" \
        --wheel-dir "$BUILD/dist" -r "$BUILD/sources.txt"
    live "${as_builder[@]}" "${pip[@]}" wheel --no-deps --no-index \
        --no-build-isolation --check-build-dependencies --wheel-dir "$BUILD/dist" "$BUILD/src"
    # 3. as root, offline: those wheels (same version again after an update: --force-reinstall).
    local built=("$BUILD/dist/*.whl")
    [ "$LIVE" = 1 ] && built=("$BUILD"/dist/*.whl)
    live "${as_root[@]}" "${pip[@]}" install --no-index --no-deps --force-reinstall "${built[@]}"
    # Every dependency of every installed package present, for this machine's platform.
    live "${as_root[@]}" "${pip[@]}" check
    [ "$LIVE" = 1 ] && rm -rf "$BUILD"
    return 0
}

install_code() {
    [ -f "$SOURCE/pyproject.toml" ] || die "--source $SOURCE: no pyproject.toml there"
    local src=$ROOT$PREFIX/src stamp=$ROOT$PREFIX/.installed-tree hash
    hash=$(tree_hash "$SOURCE")
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$hash" ] && [ -d "$src" ]; then
        say "unchanged $PREFIX (the same source tree is installed)"; return 0
    fi
    # A copy of the source (docs included: the units' Documentation= points there).
    if [ "$DRY" = 1 ]; then
        say "would copy $SOURCE to $PREFIX/src"
    else
        rm -rf "$src.new"; mkdir -p "$src.new"
        tar -C "$SOURCE" --exclude=.git --exclude=.venv --exclude='__pycache__' --exclude='*.pyc' \
            --exclude=.pytest_cache --exclude=.hypothesis -cf - \
            pyproject.toml $(cd "$SOURCE" && ls -d README* LICENSE* setup.py engine hardware ui firmware docs systemd 2>/dev/null) \
            | tar -C "$src.new" -xf -
        rm -rf "$src"; mv "$src.new" "$src"
        say "copied $SOURCE to $PREFIX/src"; CHANGED=1
    fi
    install_venv
    if [ "$LIVE" = 1 ]; then   # as the service user: no code from the venv runs as root
        runuser -u "$NAME" -- env -C /tmp "$PREFIX/venv/bin/tablekeeper" --help >/dev/null \
            || die "the venv's tablekeeper command does not run"
    fi
    if [ "$DRY" = 0 ]; then echo "$hash" > "$stamp"; fi
}

# enable_line FILE LINE: make sure config.txt has LINE under an [all] section.
enable_line() {
    local file=$1 line=$2 key=${2%=*}
    if grep -Eq "^[[:space:]]*${line}[[:space:]]*$" "$file"; then return 0; fi
    if [ "$DRY" = 1 ]; then say "would add '$line' to ${file#$ROOT}"; REBOOT=1; return 0; fi
    if grep -Eq "^[[:space:]]*#?[[:space:]]*${key}=" "$file"; then
        sed -i -E "0,/^[[:space:]]*#?[[:space:]]*${key}=.*/s//${line}/" "$file"
    elif [ "$(grep -E '^[[:space:]]*\[' "$file" | tail -n 1 | tr -d '[:space:]')" = "[all]" ]; then
        printf '%s\n' "$line" >> "$file"   # the last section already applies to every Pi
    else
        printf '\n[all]\n%s\n' "$line" >> "$file"
    fi
    say "set '$line' in ${file#$ROOT}"; CHANGED=1; REBOOT=1
}

enable_buses() {
    if [ -z "$ROOT" ] && command -v raspi-config >/dev/null; then
        # raspi-config's own convention: get_* prints 0 when the interface is ON.
        local bus
        for bus in i2c spi; do
            if [ "$(raspi-config nonint "get_$bus")" = 0 ]; then
                say "${bus^^} is on"
            else
                run raspi-config nonint "do_$bus" 0; CHANGED=1; REBOOT=1
            fi
        done
    else
        local cfg=""
        for c in /boot/firmware/config.txt /boot/config.txt; do
            [ -f "$ROOT$c" ] && { cfg=$ROOT$c; break; }
        done
        if [ -z "$cfg" ]; then
            say "warning: no config.txt under ${ROOT:-/}boot: enable I2C and SPI by hand (docs/install.md)"
        else
            enable_line "$cfg" "dtparam=i2c_arm=on"
            enable_line "$cfg" "dtparam=spi=on"
        fi
    fi
    put "$HERE/modules-load-tablekeeper.conf" /etc/modules-load.d/tablekeeper.conf 0644
}

install_files() {
    local u
    for u in "${UNITS[@]}"; do put "$HERE/$u" "$UNIT_DIR/$u" 0644; done
    put "$HERE/journald-tablekeeper.conf" /etc/systemd/journald.conf.d/tablekeeper.conf 0644
    # the USB stick for backups and play records: mounted by udev + systemd-mount, writable by the units
    put "$HERE/99-tablekeeper-stick.rules" /etc/udev/rules.d/99-tablekeeper-stick.rules 0644
    put "$HERE/tmpfiles-tablekeeper-stick.conf" /etc/tmpfiles.d/tablekeeper-stick.conf 0644
    put "$HERE/tablekeeper-stick.conf" "$UNIT_DIR/tablekeeper.service.d/stick.conf" 0644
    put "$HERE/tablekeeper-stick.conf" "$UNIT_DIR/tablekeeper-serve.service.d/stick.conf" 0644
    keep "$HERE/tablekeeper.toml" "$CONF_DIR/tablekeeper.toml" 0644
    keep "$HERE/environment" "$CONF_DIR/environment" 0644
}

club_broker() {
    # The club's broker on this Pi: Mosquitto with the shipped settings (no anonymous clients, a
    # client's id its login, the ACL that keeps each table to its own topics) and a password file
    # for the organiser to fill (mosquitto_passwd; docs/club.md). Its listener is the loopback:
    # a café's tables on the LAN need it changed (and TLS) by hand.
    [ "$CLUB_BROKER" = 1 ] || return 0
    if [ "$DO_PACKAGES" = 1 ] && [ -z "$ROOT" ]; then
        run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends mosquitto mosquitto-clients
    fi
    put "$HERE/mosquitto/tablekeeper.conf" /etc/mosquitto/conf.d/tablekeeper.conf 0644
    put "$HERE/mosquitto/tablekeeper.acl" /etc/mosquitto/tablekeeper.acl 0644
    if [ -e "$ROOT/etc/mosquitto/tablekeeper.passwd" ]; then
        say "kept your /etc/mosquitto/tablekeeper.passwd"
    elif [ "$DRY" = 1 ]; then
        say "would create /etc/mosquitto/tablekeeper.passwd (empty: add the league and each table)"
    else
        mkdir -p "$ROOT/etc/mosquitto"
        install -m 0640 /dev/null "$ROOT/etc/mosquitto/tablekeeper.passwd"
        [ -n "$ROOT" ] || chgrp mosquitto /etc/mosquitto/tablekeeper.passwd 2>/dev/null || true
        say "created /etc/mosquitto/tablekeeper.passwd: add the league and each table with"
        say "  sudo mosquitto_passwd /etc/mosquitto/tablekeeper.passwd league   (then mesa-1, mesa-2, ...)"
        CHANGED=1
    fi
    live systemctl restart mosquitto.service
}

boot_to_console() {
    # The kiosk takes the display over KMS: no desktop may hold it.
    [ "$MODE" = app ] || return 0
    local current
    current=$("${SYSTEMCTL[@]}" get-default 2>/dev/null || true)
    if [ "$current" = graphical.target ]; then
        say "the system boots to the desktop; the kiosk needs the console: default target -> multi-user.target"
        if [ "$DRY" = 0 ]; then
            mkdir -p "$ROOT$CONF_DIR"; echo "$current" > "$ROOT$CONF_DIR/.previous-default-target"
        fi
        run "${SYSTEMCTL[@]}" set-default multi-user.target; CHANGED=1
    fi
}

enable_units() {
    local want=$APP_UNIT other=$SERVE_UNIT
    [ "$MODE" = headless ] && { want=$SERVE_UNIT; other=$APP_UNIT; }
    live systemctl daemon-reload
    if "${SYSTEMCTL[@]}" -q is-enabled "$other" 2>/dev/null; then
        run "${SYSTEMCTL[@]}" disable "$other"; CHANGED=1
    fi
    local u
    for u in "$want" "$MESSAGE_UNIT"; do
        if "${SYSTEMCTL[@]}" -q is-enabled "$u" 2>/dev/null; then
            say "enabled already: $u"
        else
            run "${SYSTEMCTL[@]}" enable "$u"; CHANGED=1
        fi
    done
}

apply_now() {
    # journald's drop-in and the modules take effect now; the units restart below.
    live systemctl restart systemd-journald.service
    live systemctl restart systemd-modules-load.service
    live systemd-tmpfiles --create /etc/tmpfiles.d/tablekeeper-stick.conf
    live udevadm control --reload
}

hw_check() {
    local cmd=("$PREFIX/venv/bin/tablekeeper" hw check --config "$CONF_DIR/tablekeeper.toml")
    if [ "$LIVE" = 0 ]; then live runuser -u tablekeeper -- "${cmd[@]}"; return 0; fi
    # As the service user (its groups), with the pods free: the units are stopped.
    systemctl stop "$APP_UNIT" "$SERVE_UNIT" 2>/dev/null || true
    say "tablekeeper hw check (as the tablekeeper user):"
    if (cd /tmp && LG_WD=/tmp runuser -u tablekeeper -- "${cmd[@]}"); then
        return 0
    fi
    if [ "$REBOOT" = 1 ]; then
        say "I2C/SPI were just switched on: reboot, then check again with"
        say "  sudo -u tablekeeper sh -c 'cd /tmp && ${cmd[*]}'"
        return 0
    fi
    return 3
}

start_units() {
    [ "$START" = 1 ] || { say "not starting (--no-start)"; return 0; }
    local want=$APP_UNIT; [ "$MODE" = headless ] && want=$SERVE_UNIT
    if [ "$REBOOT" = 1 ]; then say "reboot to start ($want starts at boot)"; return 0; fi
    live systemctl start "$MESSAGE_UNIT"
    live systemctl restart "$want"
}

do_install() {
    check_system
    install_packages
    install_user
    install_code
    enable_buses
    install_files
    club_broker
    boot_to_console
    enable_units
    apply_now
    local status=0
    hw_check || status=$?
    start_units
    if [ "$DRY" = 1 ]; then say "dry run: nothing was changed"
    elif [ "$CHANGED" = 0 ]; then say "everything was already in place"
    else say "installed ($MODE)"; fi
    [ "$REBOOT" = 1 ] && say "a reboot is needed for I2C/SPI"
    return $status
}

# -- uninstall ---------------------------------------------------------------------------
do_uninstall() {
    local u
    for u in "${UNITS[@]}"; do
        live systemctl stop "$u"
        if [ -e "$ROOT$UNIT_DIR/$u" ]; then
            run "${SYSTEMCTL[@]}" disable "$u" 2>/dev/null || true
        fi
        remove "$UNIT_DIR/$u"
    done
    remove /etc/systemd/journald.conf.d/tablekeeper.conf
    remove /etc/udev/rules.d/99-tablekeeper-stick.rules
    remove /etc/tmpfiles.d/tablekeeper-stick.conf
    remove "$UNIT_DIR/tablekeeper.service.d/stick.conf"
    remove "$UNIT_DIR/tablekeeper-serve.service.d/stick.conf"
    remove /etc/modules-load.d/tablekeeper.conf
    remove /etc/sysusers.d/tablekeeper.conf
    remove "$PREFIX"
    if [ -f "$ROOT$CONF_DIR/.previous-default-target" ]; then
        run "${SYSTEMCTL[@]}" set-default "$(cat "$ROOT$CONF_DIR/.previous-default-target")"
        remove "$CONF_DIR/.previous-default-target"
    fi
    live systemctl daemon-reload
    live systemctl restart systemd-journald.service
    if [ "$PURGE" = 1 ]; then
        remove "$CONF_DIR"
        remove "$STATE_DIR"
        remove "$CACHE_DIR"
        if [ "$DRY" = 1 ]; then say "would run: userdel ${ROOT:+--root $ROOT }tablekeeper"
        elif grep -q '^tablekeeper:' "$ROOT/etc/passwd" 2>/dev/null; then
            userdel ${ROOT:+--root "$ROOT"} tablekeeper && say "removed the user tablekeeper"
        fi
    else
        say "kept $STATE_DIR (the games) and $CONF_DIR; --purge removes them and the user"
    fi
    say "I2C and SPI stay on (other things may use them)"
    [ "$DRY" = 1 ] && say "dry run: nothing was changed"
    return 0
}

if [ "$ACTION" = uninstall ]; then do_uninstall; else do_install; fi
