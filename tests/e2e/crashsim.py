"""Power-loss simulation from a system-call trace, in the manner of ALICE (Pillai et al., OSDI 2014).

SIGKILL leaves the kernel's page cache intact, so it never shows what a power
cut does. Here a child runs under ``strace``; its file-system calls on the
state folder, and its acknowledgements (``ACK <seq> <entry>`` written to
stdout), are parsed into a list of operations; crash states are then rebuilt
from that list and each is opened by the real code.

The model of what survives a crash after operation ``k`` (``CrashState.model``):

``kill``
    every operation up to ``k`` applied: what SIGKILL leaves (the page cache).
``power``
    only what was made durable survives:

    * a file's *content* is the content it had at its last ``fsync`` or
      ``fdatasync`` (the two are treated alike; a file never synced is empty);
    * a *name* (a creation, an unlink, a rename, a ``mkdir``) is durable once
      the directory holding it is fsynced afterwards, or once the file itself
      is fsynced (ext4 commits the file's directory entry with it, and a
      rename's source name goes with it); until then the old name is what a
      crash leaves: an unlinked file whose directory was not fsynced comes
      back with its last synced content (a hot rollback journal, say);
    * the state folder itself is taken as durable (it exists before the run).
``torn``
    ``power`` plus a prefix, in trace order, of the writes (and truncations)
    made since their file's last sync, to files whose name is durable; the
    last write of the prefix may be torn at a 512-byte sector boundary (its
    first sectors written, the rest not). Writes within one sector are atomic.

Not modelled: reordering of unsynced writes other than the in-order prefix,
data written through ``mmap`` (invisible to strace: SQLite's ``-shm``, which
SQLite rebuilds on open), fd sharing between processes (the child is one
process), and a crash during recovery.

``check_state`` opens a crash state with ``Journal(dir)`` then
``Session.resume(journal)`` and compares the stored entries with the actions
acknowledged before the crash point: each must be there, in order, followed
by at most one more (the action in flight).
"""
from __future__ import annotations

import concurrent.futures
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SYSDEPS = ROOT / "tests" / "sysdeps.sh"
CHILD = HERE / "power_child.py"
SECTOR = 512

TRACED = ("openat,open,creat,write,pwrite64,writev,pwritev,pwritev2,fsync,fdatasync,sync_file_range,"
          "ftruncate,truncate,unlink,unlinkat,rename,renameat,renameat2,close,mkdir,mkdirat,rmdir,"
          "lseek,fallocate,dup,dup2,dup3")


# -- strace available ------------------------------------------------------------
def strace_path() -> str | None:
    return shutil.which("strace")


def ensure_strace() -> str | None:
    """The path of strace; as root, install it (tests/sysdeps.sh) if missing.

    Returns None only when strace is missing and cannot be installed here
    (not root): the caller skips, naming the reason.
    """
    path = strace_path()
    if path is None and os.geteuid() == 0:
        subprocess.run(["sh", str(SYSDEPS)], check=False)
        path = strace_path()
        if path is None:
            raise RuntimeError("strace is missing and tests/sysdeps.sh (run as root) did not install it")
    return path


SKIP_REASON = "strace is not installed and installing it needs root (apt-get install strace, or sh tests/sysdeps.sh as root)"


# -- parsing a trace -----------------------------------------------------------------
_HEX = re.compile(rb"\\x([0-9a-fA-F]{2})")
_LINE = re.compile(r"^(\d+)\s+(.*)$")
_CALL = re.compile(r"^([a-z_0-9]+)\((.*)\)\s+=\s+(-?\d+|\?)(.*)$", re.S)
_FD = re.compile(r"^(-?\d+|AT_FDCWD)<([^>]*)>(\(deleted\))?$")
_STR = re.compile(r'^"((?:\\x[0-9a-fA-F]{2})*)"(\.\.\.)?$')


def _unhex(s: str) -> bytes:
    return _HEX.sub(lambda m: bytes([int(m.group(1), 16)]), s.encode("ascii"))


def _split_args(s: str) -> list[str]:
    """Top-level comma split (strings are fully hex-escaped under -xx, so they hold no commas)."""
    out, depth, cur = [], 0, []
    for ch in s:
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if cur or out:
        out.append("".join(cur).strip())
    return out


def _fd(arg: str) -> tuple[int | None, str | None, bool]:
    m = _FD.match(arg)
    if not m:
        return None, None, False
    fd = None if m.group(1) == "AT_FDCWD" else int(m.group(1))
    return fd, _unhex(m.group(2)).decode("utf-8", "surrogateescape"), bool(m.group(3))


def _str(arg: str) -> bytes:
    m = _STR.match(arg)
    if not m:
        raise ValueError(f"not a string argument: {arg[:80]}")
    if m.group(2):
        raise ValueError("a string was cut short: raise strace's -s")
    return _unhex(m.group(1))


@dataclass
class Op:
    """One operation on the state folder, or an acknowledgement marker.

    ``kind``: open (``creat``/``trunc``), write, truncate, sync (``data_only``
    for fdatasync), close, unlink, rename, mkdir, rmdir, ack. Paths are relative to the
    state folder ("" is the folder itself); ``fd`` as in the trace.
    """

    kind: str
    path: str = ""
    dst: str = ""
    fd: int | None = None
    offset: int = 0
    data: bytes = b""
    size: int = 0
    creat: bool = False
    trunc: bool = False
    append: bool = False
    data_only: bool = False
    seq: int | None = None
    body: str = ""
    line: int = 0

    def __repr__(self) -> str:
        extra = {"write": f" @{self.offset}+{len(self.data)}", "truncate": f" {self.size}",
                 "rename": f" -> {self.dst}", "ack": f" {self.seq}"}.get(self.kind, "")
        return f"<{self.kind} {self.path!r}{extra}>"


class TraceParser:
    def __init__(self, state_dir: Path, cwd: Path):
        self.root = os.path.realpath(state_dir)
        self.cwd = str(cwd)
        self.fds: dict[int, list] = {}  # fd -> [relpath, position, append]
        self.ops: list[Op] = []
        self.pending: dict[str, str] = {}  # pid -> text of an unfinished call

    def rel(self, path: str) -> str | None:
        if not os.path.isabs(path):
            path = os.path.join(self.cwd, path)
        path = os.path.normpath(path)
        if path == self.root:
            return ""
        if path.startswith(self.root + os.sep):
            return path[len(self.root) + 1:]
        return None

    def _at(self, dirarg: str, patharg: str) -> str | None:
        path = _str(patharg).decode("utf-8", "surrogateescape")
        if not os.path.isabs(path):
            _, base, _ = _fd(dirarg)
            path = os.path.join(base or self.cwd, path)
        return self.rel(path)

    def feed(self, text: str) -> list[Op]:
        for number, raw in enumerate(text.splitlines(), start=1):
            m = _LINE.match(raw)
            if not m:
                continue
            pid, rest = m.groups()
            if rest.endswith("<unfinished ...>"):
                self.pending[pid] = rest[: -len("<unfinished ...>")].rstrip()
                continue
            r = re.match(r"^<\.\.\. ([a-z_0-9]+) resumed>(.*)$", rest, re.S)
            if r:
                rest = self.pending.pop(pid, r.group(1) + "(") + r.group(2)
            if rest.startswith(("---", "+++")):
                continue
            c = _CALL.match(rest)
            if not c:
                continue
            name, args, ret, tail = c.groups()
            if ret == "?":
                continue
            self._call(name, _split_args(args), int(ret), tail, number)
        return self.ops

    def _emit(self, kind: str, number: int, **kw) -> None:
        self.ops.append(Op(kind, line=number, **kw))

    def _call(self, name: str, a: list[str], ret: int, tail: str, number: int) -> None:
        if ret < 0:
            return  # a failed call changes nothing (an injected error included)
        if name in ("openat", "open", "creat"):
            if name == "openat":
                flags = a[2]
            elif name == "open":
                flags = a[1]
            else:
                flags = "O_CREAT|O_WRONLY|O_TRUNC"
            m = re.match(r"^<([^>]*)>", tail.strip())
            path = _unhex(m.group(1)).decode("utf-8", "surrogateescape") if m else None
            rel = self.rel(path) if path else None
            if rel is None:
                self.fds.pop(ret, None)
                return
            append = "O_APPEND" in flags
            self.fds[ret] = [rel, 0, append]
            self._emit("open", number, path=rel, fd=ret, creat="O_CREAT" in flags,
                       trunc="O_TRUNC" in flags and "O_RDONLY" not in flags, append=append)
            return
        if name in ("write", "pwrite64", "writev", "pwritev", "pwritev2"):
            fd, path, _deleted = _fd(a[0])
            if fd == 1 and name == "write":
                for line in _str(a[1])[:ret].split(b"\n"):
                    if line.startswith(b"ACK "):
                        _, seq, body = line.decode("utf-8").split(" ", 2)
                        self._emit("ack", number, seq=int(seq), body=body)
                return
            entry = self.fds.get(fd)
            rel = entry[0] if entry else (self.rel(path) if path else None)
            if rel is None:
                return
            if name in ("write", "pwrite64"):
                data = _str(a[1])[:ret]
            else:
                data = b"".join(_unhex(s) for s in re.findall(r'iov_base="((?:\\x[0-9a-fA-F]{2})*)"', a[1]))[:ret]
            if name in ("pwrite64", "pwritev", "pwritev2"):
                self._emit("write", number, path=rel, fd=fd, offset=int(a[-1] if name == "pwrite64" else a[3]),
                           data=data)
            else:
                pos = entry[1] if entry else 0
                append = entry[2] if entry else False
                self._emit("write", number, path=rel, fd=fd, offset=pos, data=data, append=append)
                if entry:
                    entry[1] = pos + ret
            return
        if name == "lseek":
            fd, _, _ = _fd(a[0])
            if fd in self.fds:
                self.fds[fd][1] = ret
            return
        if name in ("fsync", "fdatasync", "sync_file_range"):
            fd, path, _ = _fd(a[0])
            entry = self.fds.get(fd)
            rel = entry[0] if entry else (self.rel(path) if path else None)
            if rel is not None and name != "sync_file_range":  # sync_file_range makes nothing durable
                self._emit("sync", number, path=rel, fd=fd, data_only=name == "fdatasync")
            return
        if name in ("ftruncate", "truncate", "fallocate"):
            if name == "truncate":
                rel, fd = self.rel(_str(a[0]).decode("utf-8", "surrogateescape")), None
            else:
                fd, path, _ = _fd(a[0])
                entry = self.fds.get(fd)
                rel = entry[0] if entry else (self.rel(path) if path else None)
            if rel is None:
                return
            if name == "fallocate":
                if "KEEP_SIZE" in a[1]:
                    return
                self._emit("extend", number, path=rel, fd=fd, size=int(a[2]) + int(a[3]))
            else:
                self._emit("truncate", number, path=rel, fd=fd, size=int(a[1]))
            return
        if name == "close":
            fd, _, _ = _fd(a[0])
            if fd in self.fds:
                rel = self.fds.pop(fd)[0]
                self._emit("close", number, path=rel, fd=fd)
            return
        if name in ("dup", "dup2", "dup3"):
            fd, _, _ = _fd(a[0])
            if fd in self.fds:
                self.fds[ret] = list(self.fds[fd])
            return
        if name in ("unlink", "unlinkat", "rmdir"):
            rel = self._at(a[0], a[1]) if name == "unlinkat" else self.rel(_str(a[0]).decode("utf-8", "surrogateescape"))
            if rel is not None:
                kind = "rmdir" if name == "rmdir" or (name == "unlinkat" and "AT_REMOVEDIR" in a[2]) else "unlink"
                self._emit(kind, number, path=rel)
            return
        if name in ("rename", "renameat", "renameat2"):
            if name == "rename":
                src = self.rel(_str(a[0]).decode("utf-8", "surrogateescape"))
                dst = self.rel(_str(a[1]).decode("utf-8", "surrogateescape"))
            else:
                src, dst = self._at(a[0], a[1]), self._at(a[2], a[3])
            if src is None and dst is None:
                return
            if src is None:
                raise ValueError(f"trace line {number}: a file moved into the state folder from outside; not modelled")
            if dst is None:
                self._emit("unlink", number, path=src)
            else:
                self._emit("rename", number, path=src, dst=dst)
            return
        if name in ("mkdir", "mkdirat"):
            rel = self._at(a[0], a[1]) if name == "mkdirat" else self.rel(_str(a[0]).decode("utf-8", "surrogateescape"))
            if rel:
                self._emit("mkdir", number, path=rel)
            return


# -- recording -----------------------------------------------------------------------
@dataclass
class Recording:
    ops: list[Op]
    initial: dict[str, bytes]  # the state folder before the run (taken as durable)
    initial_dirs: list[str]
    stdout: str
    stderr: str
    returncode: int
    acked: list[tuple[int, str]]  # every ACK the child printed (before the run's first, the stored ones)


def snapshot(state_dir: Path) -> tuple[dict[str, bytes], list[str]]:
    files, dirs = {}, []
    for p in sorted(state_dir.rglob("*")):
        rel = str(p.relative_to(state_dir))
        if p.is_dir():
            dirs.append(rel)
        elif p.is_file():
            files[rel] = p.read_bytes()
    return files, dirs


def record(state_dir: Path, n_actions: int, *, child: Path = CHILD, trace_file: Path | None = None,
           timeout: float = 120) -> Recording:
    """Run the child under strace on ``state_dir`` (created if missing) and parse its trace."""
    strace = strace_path()
    if strace is None:
        raise RuntimeError(SKIP_REASON)
    state_dir = Path(state_dir)
    state_dir.mkdir(parents=True, exist_ok=True)
    initial, dirs = snapshot(state_dir)
    with tempfile.TemporaryDirectory(prefix="crashsim-trace-") as tmp:
        trace = Path(trace_file) if trace_file else Path(tmp) / "trace"
        cmd = [strace, "-f", "-y", "-xx", "-s", "1048576", "--seccomp-bpf", "-qq", "-o", str(trace),
               "-e", f"trace={TRACED}", sys.executable, str(child), str(state_dir), str(n_actions)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=str(state_dir.parent))
        text = trace.read_text(encoding="ascii", errors="replace")
    ops = TraceParser(state_dir, state_dir.parent).feed(text)
    acks = (line.split(" ", 2) for line in proc.stdout.splitlines() if line.startswith("ACK "))
    acked = [(int(s), b) for _, s, b in acks]
    return Recording(ops, initial, dirs, proc.stdout, proc.stderr, proc.returncode, acked)


# -- the file-system model -------------------------------------------------------------
@dataclass
class Inode:
    content: bytearray = field(default_factory=bytearray)
    durable: bytes = b""  # the content as of the last fsync/fdatasync


class FSModel:
    """The page cache (``names`` → inode, ``dirs``) and the disk (``dnames``, ``ddirs``, inode.durable)."""

    def __init__(self, initial: dict[str, bytes], dirs: list[str]):
        self.inodes: dict[int, Inode] = {}
        self.names: dict[str, int] = {}
        self.dnames: dict[str, int] = {}
        self.dirs = set(dirs) | {""}
        self.ddirs = set(self.dirs)
        self.fds: dict[int, int] = {}  # fd -> inode (a directory: -1)
        self.fd_dirs: dict[int, str] = {}
        self.unsynced: list[tuple[int, Op]] = []  # (inode, write/truncate op) since that inode's last sync
        for name, data in initial.items():
            ino = self._new(bytes(data))
            self.inodes[ino].durable = bytes(data)
            self.names[name] = self.dnames[name] = ino

    def _new(self, data: bytes = b"") -> int:
        ino = len(self.inodes) + 1
        self.inodes[ino] = Inode(bytearray(data))
        return ino

    def _inode(self, op: Op) -> int | None:
        if op.fd is not None and op.fd in self.fds:
            return self.fds[op.fd]
        return self.names.get(op.path)

    @staticmethod
    def _parent(path: str) -> str:
        return os.path.dirname(path)

    def apply(self, op: Op) -> None:
        k = op.kind
        if k == "open":
            if op.path in self.dirs:
                self.fds[op.fd] = -1
                self.fd_dirs[op.fd] = op.path
                return
            ino = self.names.get(op.path)
            if ino is None:
                ino = self._new()
                self.names[op.path] = ino
            if op.trunc:
                self._write_op(ino, Op("truncate", path=op.path, size=0))
            self.fds[op.fd] = ino
        elif k == "close":
            self.fds.pop(op.fd, None)
            self.fd_dirs.pop(op.fd, None)
        elif k in ("write", "truncate", "extend"):
            ino = self._inode(op)
            if ino is None or ino < 0:
                return
            if k == "write" and op.append:
                op = Op("write", path=op.path, offset=len(self.inodes[ino].content), data=op.data)
            self._write_op(ino, op)
        elif k == "sync":
            if op.fd in self.fd_dirs or (op.fd not in self.fds and op.path in self.dirs):
                self._sync_dir(self.fd_dirs.get(op.fd, op.path))
                return
            ino = self._inode(op)
            if ino is None or ino < 0:
                return
            node = self.inodes[ino]
            node.durable = bytes(node.content)
            self.unsynced = [(i, o) for i, o in self.unsynced if i != ino]
            # the file's own directory entry goes with it (ext4); so does a rename's source name
            for name in [n for n, i in self.dnames.items() if i == ino and self.names.get(n) != ino]:
                del self.dnames[name]
            for name, i in self.names.items():
                if i == ino:
                    self.dnames[name] = ino
        elif k == "unlink":
            self.names.pop(op.path, None)
        elif k == "rename":
            if op.path in self.names:
                self.names[op.dst] = self.names.pop(op.path)
            elif op.path in self.dirs:  # a directory: move it and what it holds
                pre = op.path + os.sep
                self.dirs = {op.dst + d[len(op.path):] if d == op.path or d.startswith(pre) else d for d in self.dirs}
                self.names = {(op.dst + n[len(op.path):] if n.startswith(pre) else n): i for n, i in self.names.items()}
        elif k == "mkdir":
            self.dirs.add(op.path)
        elif k == "rmdir":
            self.dirs.discard(op.path)

    @staticmethod
    def _apply_bytes(content: bytearray, op: Op) -> None:
        if op.kind == "write":
            end = op.offset + len(op.data)
            if len(content) < op.offset:
                content.extend(b"\0" * (op.offset - len(content)))
            content[op.offset:end] = op.data
        elif op.kind == "truncate":
            if op.size < len(content):
                del content[op.size:]
            else:
                content.extend(b"\0" * (op.size - len(content)))
        elif op.kind == "extend" and op.size > len(content):
            content.extend(b"\0" * (op.size - len(content)))

    def _write_op(self, ino: int, op: Op) -> None:
        self._apply_bytes(self.inodes[ino].content, op)
        self.unsynced.append((ino, op))

    def _sync_dir(self, d: str) -> None:
        in_dir = lambda n: self._parent(n) == d  # noqa: E731
        for name in [n for n in self.dnames if in_dir(n)]:
            del self.dnames[name]
        for name, ino in self.names.items():
            if in_dir(name):
                self.dnames[name] = ino
        self.ddirs = {x for x in self.ddirs if not (x and self._parent(x) == d)} | {
            x for x in self.dirs if x and self._parent(x) == d}

    # -- crash states -----------------------------------------------------------------
    def kill_state(self) -> tuple[dict[str, bytes], set[str]]:
        return {n: bytes(self.inodes[i].content) for n, i in self.names.items()}, set(self.dirs)

    def power_state(self) -> tuple[dict[str, bytes], set[str]]:
        return {n: self.inodes[i].durable for n, i in self.dnames.items()}, set(self.ddirs)

    def torn_state(self, prefix: int, tear_at: int | None) -> tuple[dict[str, bytes], set[str]]:
        """The power state plus the first ``prefix`` unsynced writes, the last cut at ``tear_at``
        (an absolute file offset on a sector boundary inside that write), if given."""
        live = {i for i in self.dnames.values()}
        contents = {i: bytearray(self.inodes[i].durable) for i in live}
        for n, (ino, op) in enumerate(self.unsynced[:prefix], start=1):
            if ino not in contents:
                continue
            if n == prefix and tear_at is not None and op.kind == "write":
                op = Op("write", path=op.path, offset=op.offset, data=op.data[: tear_at - op.offset])
            self._apply_bytes(contents[ino], op)
        return {n: bytes(contents[i]) for n, i in self.dnames.items()}, set(self.ddirs)

    def tear_points(self, index: int) -> list[int]:
        """Sector boundaries strictly inside the ``index``-th unsynced write (0-based)."""
        _, op = self.unsynced[index]
        if op.kind != "write":
            return []
        first = (op.offset // SECTOR + 1) * SECTOR
        return list(range(first, op.offset + len(op.data), SECTOR))


@dataclass
class CrashState:
    model: str  # kill, power, torn
    point: int  # crash after this many operations
    acked: list[tuple[int, str]]  # acknowledged before the crash point
    files: dict[str, bytes]
    dirs: set[str]
    note: str = ""

    def key(self) -> str:
        h = hashlib.sha1(self.model.encode())
        for name in sorted(self.files):
            h.update(name.encode() + b"\0" + hashlib.sha1(self.files[name]).digest())
        for d in sorted(self.dirs):
            h.update(b"D" + d.encode() + b"\0")
        h.update(str(len(self.acked)).encode())
        return h.hexdigest()


def crash_states(rec: Recording, *, seed: int = 0, torn_per_point: int = 2, models=("kill", "power", "torn"),
                 every: int = 1, limit: int | None = None) -> list[CrashState]:
    """Crash states after each operation (every ``every``-th), deduplicated within each model.

    Torn variants (``torn_per_point`` per crash point: a random prefix of the
    unsynced writes, its last one torn at a random sector boundary or whole)
    and, past ``limit`` states, a sample of them, are drawn with ``seed``.
    """
    rng = random.Random(seed)
    fs = FSModel(rec.initial, rec.initial_dirs)
    acked: list[tuple[int, str]] = []
    seen: set[str] = set()
    out: list[CrashState] = []
    # the actions stored before the traced run (all of them acknowledged by then)
    base_acked = _stored_entries_of_initial(rec) if rec.initial else []

    def add(state: CrashState) -> None:
        k = state.key()
        if k not in seen:
            seen.add(k)
            out.append(state)

    for point in range(len(rec.ops) + 1):
        if point:
            op = rec.ops[point - 1]
            if op.kind == "ack":
                acked.append((op.seq, op.body))
            else:
                fs.apply(op)
        if point % every and point != len(rec.ops):
            continue
        now = base_acked + list(acked)
        if "kill" in models:
            add(CrashState("kill", point, now, *fs.kill_state()))
        if "power" in models:
            add(CrashState("power", point, now, *fs.power_state()))
        if "torn" in models and fs.unsynced:
            for _ in range(torn_per_point):
                prefix = rng.randint(1, len(fs.unsynced))
                tears = fs.tear_points(prefix - 1)
                tear = rng.choice(tears + [None]) if tears else None
                add(CrashState("torn", point, now, *fs.torn_state(prefix, tear),
                               note=f"{prefix}/{len(fs.unsynced)} unsynced writes, torn at {tear}"))
    if limit is not None and len(out) > limit:
        out = sorted(rng.sample(out, limit), key=lambda s: s.point)
    return out


def _stored_entries_of_initial(rec: Recording) -> list[tuple[int, str]]:
    """The actions already stored before a traced resume: 0 .. first ACK seq - 1, from the initial files."""
    from tablekeeper.engine import Journal, Session, canonical

    with tempfile.TemporaryDirectory(prefix="crashsim-initial-") as tmp:
        _materialize(Path(tmp), rec.initial, set(rec.initial_dirs))
        with Journal(tmp) as journal:
            session = Session.resume(journal)
            if session is None:
                return []
            return [(s, canonical(e)) for s, e in journal.entries(session.game_id)]


# -- checking a crash state --------------------------------------------------------------
@dataclass
class Verdict:
    model: str
    point: int
    acked: int
    stored: int
    lost: int  # acknowledged actions missing (or out of order)
    extra: int  # stored beyond the acknowledged ones (at most 1 is fine: the action in flight)
    failed: str  # the exception, when opening or resuming raised one
    warnings: list[str]
    damaged_files: int
    note: str = ""

    @property
    def ok(self) -> bool:
        return not self.failed and self.lost == 0 and self.extra <= 1


def _materialize(d: Path, files: dict[str, bytes], dirs: set[str]) -> None:
    d.mkdir(parents=True, exist_ok=True)
    for sub in sorted(dirs):
        if sub:
            (d / sub).mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        p = d / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)


def check_state(state: CrashState, workdir: str | None = None) -> Verdict:
    """Open the crash state with the real code: ``Journal(dir)``, ``Session.resume``; compare with the ACKs."""
    from tablekeeper.engine import Journal, Session, canonical

    with tempfile.TemporaryDirectory(prefix="crashsim-state-", dir=workdir) as tmp:
        d = Path(tmp) / "state"
        _materialize(d, state.files, state.dirs)
        stored: list[tuple[int, str]] = []
        failed = ""
        warnings: list[str] = []
        try:
            journal = Journal(d)
            try:
                session = Session.resume(journal)
                if session is not None:
                    stored = [(s, canonical(e)) for s, e in journal.entries(session.game_id)]
                    warnings = list(session.warnings)
                warnings = list(journal.warnings) + [w for w in warnings if w not in journal.warnings]
            finally:
                journal.close()
        except Exception as e:  # noqa: BLE001 - any exception is a failed resume
            failed = f"{type(e).__name__}: {e}"
        damaged = len([p for p in d.iterdir() if ".damaged" in p.name])
    acked = state.acked
    common = 0
    for a, s in zip(acked, stored):
        if a != s:
            break
        common += 1
    lost = 0 if failed else len(acked) - common
    extra = 0 if failed else max(0, len(stored) - len(acked))
    if failed:
        lost = len(acked)  # what a failed resume shows the players: nothing
    return Verdict(state.model, state.point, len(acked), len(stored), lost, extra, failed, warnings, damaged,
                   state.note)


def _check_many(states: list[CrashState]) -> list[Verdict]:
    return [check_state(s) for s in states]


def explore(states: list[CrashState], *, workers: int = 2) -> list[Verdict]:
    """Check every state; in ``workers`` processes (each opens its states in-process)."""
    if workers <= 1 or len(states) < 8:
        return _check_many(states)
    chunks = [states[i::workers * 4] for i in range(workers * 4)]
    with concurrent.futures.ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(_check_many, chunks))
    out = [v for chunk in results for v in chunk]
    return out


def figures(verdicts: list[Verdict]) -> dict:
    by_model: dict[str, int] = {}
    for v in verdicts:
        by_model[v.model] = by_model.get(v.model, 0) + 1
    return {
        "crash_states": len(verdicts),
        "by_model": by_model,
        "acked_lost": sum(v.lost for v in verdicts),
        "states_losing_acked": sum(1 for v in verdicts if v.lost),
        "resumes_failed": sum(1 for v in verdicts if v.failed),
        "extra_beyond_in_flight": sum(1 for v in verdicts if v.extra > 1),
        "states_with_warnings": sum(1 for v in verdicts if v.warnings),
        "states_with_damaged_files": sum(1 for v in verdicts if v.damaged_files),
    }


def describe(v: Verdict) -> str:
    what = v.failed or (f"{v.lost} acked lost" if v.lost else f"{v.extra} extra")
    return f"{v.model} after op {v.point} ({v.acked} acked, {v.stored} stored{', ' + v.note if v.note else ''}): {what}"


def summary_of_ops(ops: list[Op]) -> dict:
    kinds: dict[str, int] = {}
    files: set[str] = set()
    for op in ops:
        kinds[op.kind] = kinds.get(op.kind, 0) + 1
        if op.path:
            files.add(op.path)
    return {"ops": len(ops), "kinds": kinds, "files": sorted(files)}
