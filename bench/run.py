"""Run every benchmark under bench/ and write bench/results.json.

Each ``bench/bench_*.py`` module has ``run() -> dict``: benchmark name →
figures, each figure a ``{"value": number, "unit": "..."}`` (plus free-form
notes). Not part of ``make test``: timings here are noisy, compare ratios
measured in one run.
"""
from __future__ import annotations

import importlib.util
import json
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    only = set(argv)
    results = {"_machine": {"python": platform.python_version(), "machine": platform.machine(),
                            "when": time.strftime("%Y-%m-%dT%H:%M:%S")}}
    for path in sorted(HERE.glob("bench_*.py")):
        if only and path.stem not in only and path.stem.removeprefix("bench_") not in only:
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print(f"== {path.stem}", flush=True)
        figures = module.run()
        for name, value in figures.items():
            print(f"  {name}: {json.dumps(value)}", flush=True)
        results.update(figures)
    out = HERE / "results.json"
    if only and out.exists():
        merged = json.loads(out.read_text())
        merged.update(results)
        results = merged
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
