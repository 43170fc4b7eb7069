"""A Debian bookworm virtual machine under QEMU (software emulation, TCG) for the appliance test.

The image (``image.sh``) is read-only and cached; each :class:`VM` boots a
copy-on-write overlay of it in its own folder, so a run starts from a clean
system and the power cuts hit only the overlay. The harness logs in over ssh
(QEMU's user-mode network forwards a local port to the guest's port 22), talks
to QEMU through its monitor (QMP: the screenshot, a clean quit), and keeps the
guest's serial console in ``console.log``.

A power cut is :meth:`VM.power_cut`: QEMU is killed with SIGKILL. Whatever the
guest had not flushed to its virtual disk -- its page cache, QEMU's own
buffers -- is gone, as on a Pi whose plug is pulled. The disk is virtio with
``cache=writeback``: the guest sees a volatile write cache, so its file system
must send flushes as on real hardware, and a flush makes QEMU write its qcow2
metadata and fdatasync the host file. (``cache=unsafe`` would ignore those
flushes, so even flushed data could vanish with QEMU; ``writethrough`` would
hide the write cache, so the guest's flush path would never run.) Writes QEMU
had already handed to the host's kernel survive the kill (the host does not
lose power); a real SD card can lose those too until they are flushed, which
``bench/run.py crash`` models for the journal.

Emulation (TCG, one host thread per virtual CPU) of a plain ``qemu64`` CPU;
the kernel is booted directly (``-kernel``/``-initrd``, no bootloader), with
the image's small initramfs.
"""
from __future__ import annotations

import json
import os
import shlex
import signal
import socket
import subprocess
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def build_image() -> Path:
    """The cached image's folder (``image.sh`` builds it the first time)."""
    done = subprocess.run(["bash", str(HERE / "image.sh")], stdout=subprocess.PIPE, text=True, check=True)
    return Path(done.stdout.strip().splitlines()[-1])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class VMError(RuntimeError):
    pass


class VM:
    """One guest: ``start()``, ``ssh(...)``, ``power_cut()``, ``start()`` again on the same disk, ``stop()``."""

    def __init__(self, image: Path, workdir: Path, *, memory_mb: int = 2048, cpus: int = 2, cpu: str = "qemu64",
                 initrd: Path | None = None, append: str = ""):
        self.image = Path(image)
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.disk = self.workdir / "disk.qcow2"
        self.key = self.image / "id_ed25519"
        self.memory_mb = memory_mb
        self.cpus = cpus
        self.cpu = cpu
        self.initrd = Path(initrd) if initrd else self.image / "initrd.img"
        self.append = append
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.qmp_path = self.workdir / "qmp.sock"
        self.pod_path = self.workdir / "pod.sock"
        self.console = self.workdir / "console.log"
        self.boots = 0
        if not self.disk.exists():
            subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-F", "qcow2", "-b",
                            str(self.image / "base.qcow2"), str(self.disk)], check=True)

    # -- power ------------------------------------------------------------------------------------------
    def start(self, *, wait: bool = True, timeout: float = 300) -> VM:
        if self.proc is not None and self.proc.poll() is None:
            raise VMError("the VM is already running")
        for p in (self.qmp_path, self.pod_path):
            p.unlink(missing_ok=True)
        self.port = free_port()
        self.boots += 1
        cmd = [
            "qemu-system-x86_64", "-nodefaults", "-no-user-config",
            "-machine", "q35", "-accel", "tcg,thread=multi", "-cpu", self.cpu, "-smp", str(self.cpus), "-m", str(self.memory_mb),
            "-kernel", str(self.image / "vmlinuz"), "-initrd", str(self.initrd),
            "-append", "root=/dev/vda rw net.ifnames=0 console=ttyS0,115200 quiet loglevel=3 systemd.show_status=error " + self.append,
            "-drive", f"file={self.disk},if=virtio,format=qcow2,cache=writeback,discard=unmap",
            "-netdev", f"user,id=n0,hostfwd=tcp:127.0.0.1:{self.port}-:22",
            "-device", "virtio-net-pci,netdev=n0",
            "-device", "virtio-gpu-pci", "-display", "none",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=pod,path={self.pod_path},server=on,wait=off",
            "-device", "virtserialport,chardev=pod,name=tablekeeper.pod",
            "-device", "virtio-rng-pci",
            "-chardev", f"file,id=console,path={self.console},append=on", "-serial", "chardev:console",
            "-qmp", f"unix:{self.qmp_path},server=on,wait=off",
        ]
        with open(self.workdir / "qemu.log", "ab") as log:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        if wait:
            self.wait_ssh(timeout)
        return self

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def power_cut(self) -> None:
        """Pull the plug: SIGKILL to QEMU, nothing flushed."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.proc = None

    def stop(self, timeout: float = 120) -> None:
        """A clean shutdown (``poweroff`` in the guest); the plug is pulled if it does not finish."""
        if not self.running():
            self.proc = None
            return
        try:
            self.ssh("systemctl poweroff --no-block", timeout=30, check=False)
            assert self.proc is not None
            self.proc.wait(timeout)
        except (subprocess.TimeoutExpired, VMError):
            pass
        self.power_cut()

    def reboot(self, timeout: float = 300) -> None:
        """``systemctl reboot`` in the guest, then wait for ssh on the new boot."""
        before = self.boot_id()
        self.ssh("systemctl reboot --no-block", check=False, timeout=30)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            time.sleep(3)
            try:
                now = self.ssh("cat /proc/sys/kernel/random/boot_id", timeout=20, check=False)
            except VMError:
                continue
            if now.returncode == 0 and now.stdout.strip() and now.stdout.strip() != before:
                return
        raise VMError(f"no new boot within {timeout:.0f} s (console: {self.console})")

    # -- talking to the guest ---------------------------------------------------------------------------
    def ssh_command(self, *args: str) -> list[str]:
        return ["ssh", "-i", str(self.key), "-p", str(self.port), "-o", "StrictHostKeyChecking=no",
                "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "BatchMode=yes",
                "-o", "ConnectTimeout=15", "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3",
                "root@127.0.0.1", *args]

    def ssh(self, command: str, *, check: bool = True, timeout: float = 600, input: str | None = None
            ) -> subprocess.CompletedProcess[str]:
        """Run a shell command in the guest as root; its output as text."""
        if not self.running():
            raise VMError("the VM is not running")
        try:
            done = subprocess.run(self.ssh_command(command), capture_output=True, text=True, timeout=timeout,
                                  input=input, stdin=None if input is not None else subprocess.DEVNULL)
        except subprocess.TimeoutExpired as e:
            raise VMError(f"timed out after {timeout:.0f} s: {command}") from e
        if done.returncode == 255 and "Connection" in done.stderr:
            raise VMError(f"ssh: {done.stderr.strip()}")
        if check and done.returncode != 0:
            raise VMError(f"exit {done.returncode}: {command}\n--- stdout\n{done.stdout[-4000:]}\n"
                          f"--- stderr\n{done.stderr[-4000:]}")
        return done

    def copy_in(self, local: Path, remote: str) -> None:
        """A file or folder from the host into the guest (tar over ssh)."""
        local = Path(local)
        tar = subprocess.Popen(["tar", "-C", str(local.parent), "-cf", "-", local.name], stdout=subprocess.PIPE)
        done = subprocess.run(self.ssh_command(f"mkdir -p {shlex.quote(remote)} && tar -C {shlex.quote(remote)} -xf -"),
                              stdin=tar.stdout, capture_output=True, text=True, timeout=600)
        tar.wait()
        if done.returncode != 0 or tar.returncode != 0:
            raise VMError(f"copy of {local} failed: {done.stderr}")

    def wait_ssh(self, timeout: float = 300) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.running():
                raise VMError(f"QEMU exited ({self.workdir / 'qemu.log'})")
            try:
                if self.ssh("true", check=False, timeout=30).returncode == 0:
                    return
            except VMError:
                pass
            time.sleep(2)
        raise VMError(f"no ssh within {timeout:.0f} s (console: {self.console})")

    def boot_id(self) -> str:
        return self.ssh("cat /proc/sys/kernel/random/boot_id").stdout.strip()

    # -- QEMU's monitor ---------------------------------------------------------------------------------
    def qmp(self, command: str, **arguments: object) -> object:
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(60)
            s.connect(str(self.qmp_path))
            f = s.makefile("rwb")
            json.loads(f.readline())  # the greeting
            for msg in ({"execute": "qmp_capabilities"}, {"execute": command, "arguments": arguments}):
                f.write(json.dumps(msg).encode() + b"\n")
                f.flush()
                while True:
                    reply = json.loads(f.readline())
                    if "return" in reply or "error" in reply:
                        break
                if "error" in reply:
                    raise VMError(f"QMP {msg['execute']}: {reply['error']}")
            return reply["return"]

    def screendump(self, png: Path) -> Path:
        """The guest's display as QEMU shows it, saved as PNG."""
        from PIL import Image

        ppm = Path(png).with_suffix(".ppm")
        self.qmp("screendump", filename=str(ppm))
        with Image.open(ppm) as im:
            im.save(png)
        ppm.unlink()
        return Path(png)

    def __enter__(self) -> VM:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main() -> None:
    """``python -m tests.appliance.vm``: boot the cached image, run a command over ssh, power off."""
    import argparse

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--workdir", type=Path, default=REPO / "build" / "appliance" / "smoke")
    ap.add_argument("command", nargs="?", default="uname -a; systemctl is-system-running --wait")
    args = ap.parse_args()
    image = build_image()
    if (args.workdir / "disk.qcow2").exists():
        os.unlink(args.workdir / "disk.qcow2")
    t0 = time.monotonic()
    with VM(image, args.workdir) as vm:
        vm.start()
        print(f"ssh after {time.monotonic() - t0:.1f} s")
        print(vm.ssh(args.command, check=False).stdout)


if __name__ == "__main__":
    main()
