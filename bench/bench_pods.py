"""Seat pods: bytes on the bus and time per display update, ours vs luma.oled's full frame; serve's memory and start.

    .venv/bin/python bench/run.py pods

Both display paths run through the same I2C code (``MuxedI2C``, the channel
selected before every transaction) onto a fake bus that counts what would
be clocked out: address bytes, control bytes, mux selects, commands, data.
"luma" is luma.oled's ``ssd1306.display()`` (the whole 1 KiB frame every
time); "ours" is the pod face: render only a changed view, diff the
SSD1306 frame, send the changed column/page windows. Cases: (a) the same
view again, (b) one counter +1, (c) a whole new screen (another player's).
Bus time assumes I2C at 400 kHz, 9 clocks per byte.

``tablekeeper serve`` with four mock pods is measured as a real process:
peak RSS (``wait4``) and the time from spawn to "first frame on 4 of 4
pods" on its standard error.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLEKEEPER = Path(sys.executable).with_name("tablekeeper")
REPEAT = 40
I2C_HZ = 400_000


def _views():
    from tablekeeper.hardware.pod import PodView

    base = PodView(seat=1, player="Ana", counters=(("gold", 17), ("alcohol", 3), ("fortitude", 20)),
                   status="your turn: drink", table=(("pot", 4),), your_turn=True, action="drink", choices=2)
    plus_one = PodView(**{**base.__dict__, "counters": (("gold", 18), ("alcohol", 3), ("fortitude", 20))})
    other = PodView(seat=2, player="Benedikt", counters=(("fortitude", 7), ("alcohol", 11), ("gold", 2)),
                    status="PASSING OUT", alert=True, table=(("pot", 4), ("round", 3)), action="pass")
    return base, {"unchanged": base, "plus_one": plus_one, "new_screen": other}


def _bus():
    from tablekeeper.hardware.displays import I2cBuses, MuxedI2C
    from tablekeeper.hardware.mock import FakeSMBus, Ssd1306Model

    model = Ssd1306Model()
    bus = FakeSMBus({(0, 0x3C): model}, mux=0x70)
    serial = MuxedI2C(1, 0x3C, mux=0x70, channel=0, buses=I2cBuses(opener=lambda port: bus))
    return bus, serial, model


def _display_paths() -> dict:
    from luma.oled.device import ssd1306

    from tablekeeper.hardware.displays import LumaDriver
    from tablekeeper.hardware.face import Care, Face
    from tablekeeper.hardware.render import render
    from tablekeeper.hardware.screen import pack

    base, cases = _views()
    out = {}
    for case, view in cases.items():
        # luma.oled's path: render, then display() the whole frame.
        bus, serial, model = _bus()
        device = ssd1306(serial)
        device.display(render(base))
        bus.log.clear()
        t0 = time.perf_counter()
        for _ in range(REPEAT):
            device.display(render(view))
        luma_s = (time.perf_counter() - t0) / REPEAT
        luma_bytes = bus.bytes_on_bus() // REPEAT
        assert bytes(model.ram) == pack(render(view))

        # Ours: a face that renders only a changed view and sends only the changed windows.
        bus, serial, model = _bus()
        face = Face(1, lambda serial=serial: LumaDriver(lambda: ssd1306(serial)), Care(shift_every=0, dim_after=0))
        total_s = 0.0
        total_bytes = 0
        for _ in range(REPEAT):
            face.show(base)  # each round starts from the base screen (not measured)
            bus.log.clear()
            t0 = time.perf_counter()
            face.show(view)
            total_s += time.perf_counter() - t0
            total_bytes += bus.bytes_on_bus()
        assert bytes(model.ram) == pack(render(view))
        ours_s = total_s / REPEAT
        ours_bytes = total_bytes // REPEAT
        out[f"pod_update_{case}_bus_bytes_ours"] = {"value": ours_bytes, "unit": "bytes"}
        out[f"pod_update_{case}_bus_bytes_luma"] = {"value": luma_bytes, "unit": "bytes"}
        out[f"pod_update_{case}_bus_ms_400khz_ours"] = {"value": round(ours_bytes * 9 / I2C_HZ * 1000, 2), "unit": "ms"}
        out[f"pod_update_{case}_bus_ms_400khz_luma"] = {"value": round(luma_bytes * 9 / I2C_HZ * 1000, 2), "unit": "ms"}
        out[f"pod_update_{case}_cpu_ms_ours"] = {"value": round(ours_s * 1000, 3), "unit": "ms",
                                                 "note": "render + diff + send to a fake bus"}
        out[f"pod_update_{case}_cpu_ms_luma"] = {"value": round(luma_s * 1000, 3), "unit": "ms",
                                                 "note": "render + luma display() to a fake bus"}
    frame = out["pod_update_new_screen_bus_bytes_luma"]["value"]
    out["pod_update_plus_one_fraction_of_luma_frame"] = {
        "value": round(out["pod_update_plus_one_bus_bytes_ours"]["value"] / frame, 4), "unit": "ratio",
        "note": "goal <= 0.25, aim 0.125"}
    return out


def _render_diff_split() -> dict:
    from tablekeeper.hardware.render import render
    from tablekeeper.hardware.screen import pack, plan

    base, cases = _views()
    a = pack(render(base))
    b_img = render(cases["plus_one"])
    t0 = time.perf_counter()
    for _ in range(REPEAT):
        render(cases["plus_one"])
    t1 = time.perf_counter()
    for _ in range(REPEAT):
        plan(a, pack(b_img))
    t2 = time.perf_counter()
    return {"pod_render_ms": {"value": round((t1 - t0) / REPEAT * 1000, 3), "unit": "ms"},
            "pod_pack_and_diff_ms": {"value": round((t2 - t1) / REPEAT * 1000, 3), "unit": "ms"}}


def _serve() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, TABLEKEEPER_STATE_DIR=os.path.join(tmp, "state"), XDG_CONFIG_HOME=tmp)
        env.pop("TABLEKEEPER_CONFIG", None)
        presses = "".join(f"{seat} up\n{seat} select\n{seat} down\n" for seat in (1, 2, 3, 4)) + "1 main\n"
        t0 = time.monotonic()
        p = subprocess.Popen([str(TABLEKEEPER), "serve", "--new", "counters", "Ana", "Ben", "Cai", "Dee",
                              "--options", '{"counters": ["gold", "alcohol", "fortitude"]}', "--keys",
                              "--run-for", "4"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, env=env)
        first = None
        p.stdin.write(presses)
        p.stdin.close()
        lines = []
        for line in p.stderr:
            lines.append(line)
            if first is None and "first frame on 4 of 4 pods" in line:
                first = time.monotonic() - t0
        _, status, usage = os.wait4(p.pid, 0)
        if status != 0 or first is None:
            raise RuntimeError("serve failed:\n" + "".join(lines))
        actions = next((ln for ln in lines if "actions from the pods" in ln), "").strip()
    return {
        "serve_4_mock_pods_peak_rss": {"value": round(usage.ru_maxrss / 1024, 1), "unit": "MiB",
                                       "note": f"goal <= 40 MiB; {actions}"},
        "serve_4_mock_pods_cold_start_to_first_frame": {"value": round(first, 3), "unit": "s",
                                                        "note": "spawn to the first frame on every pod"},
    }


def run() -> dict:
    sys.path.insert(0, str(ROOT))
    out = {}
    out.update(_display_paths())
    out.update(_render_diff_split())
    out.update(_serve())
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
