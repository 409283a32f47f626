"""The data and asset caches' store, measured: bmoca's sealed files against `diskcache`.

Issue 33 asked for the two disk caches on `diskcache` unless that is measured slower. What
a cache costs a process is what a cold start pays: import the store, open it, read the
entries a boot reads (about 46, from 2 kB of parsed YAML to 200 kB of icon pixels), each
checked against its seal. Each sample is a new process; the stores alternate, so a host
whose speed drifts hurts all alike, and the medians and minimums are reported less those
of a process that only imports `bmoca.formats.cachedir` (and so the `bmoca` package).

    python benchmarks/cache_store.py [--runs 8] [--entries 46]

On the project's 2-core machine, shared with about ten busy processes (load 10-12), every
measurement put diskcache behind: 46 reads in one process, import and open included, took
16.7 ms at best with the sealed files against 52.2 ms with diskcache (least-recently-
stored, which never writes on a read) and 54.3 ms (least-recently-used, which writes each
read's time); this script's medians over the import baseline, 8 runs, were 81 ms against
158 and 155 ms. Opening the SQLite database (its pragmas, its settings table) costs more
than the reads, and `import diskcache` about 11 ms, in every process that boots a phone:
`bmoca.formats.cachedir` stays on sealed files, one module for both caches.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_FILES = """
import sys, time
start = time.perf_counter()
from bmoca.formats import cachedir
total = 0
for i in range({n}):
    total += len(cachedir.read(cachedir.entry("bench", str(i).encode())))
print(json.dumps(time.perf_counter() - start))
"""

_DISKCACHE = """
import sys, time
start = time.perf_counter()
import hashlib, hmac
import diskcache
from bmoca.formats import cachedir
key = cachedir._seal_key()
store = diskcache.Cache({folder!r}, eviction_policy={policy!r})
total = 0
for i in range({n}):
    blob = store.get(f"bench-{{i}}")
    data, seal = blob[:-32], blob[-32:]
    assert hmac.compare_digest(hmac.new(key, data, hashlib.sha256).digest(), seal)
    total += len(data)
print(json.dumps(time.perf_counter() - start))
"""


def _fill(folder: Path, entries: int) -> None:
    """The same entries in both stores, sealed the same way."""
    os.environ["BMOCA_DATA_CACHE"] = str(folder / "files")
    sys.path.insert(0, str(ROOT))
    import diskcache

    from bmoca.formats import cachedir

    rng = random.Random(0)
    stores = {policy: diskcache.Cache(str(folder / policy), eviction_policy=policy)
              for policy in ("least-recently-stored", "least-recently-used")}
    for i in range(entries):
        data = rng.randbytes(rng.choice([2_000, 20_000, 60_000, 200_000]))
        cachedir.write(cachedir.entry("bench", str(i).encode()), data)
        sealed = data + cachedir._seal(data)
        for store in stores.values():
            store.set(f"bench-{i}", sealed)
    for store in stores.values():
        store.close()


def _sample(code: str, folder: Path) -> float:
    env = {**os.environ, "BMOCA_DATA_CACHE": str(folder / "files"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", "import json\n" + code], env=env, check=True,
                         capture_output=True, text=True).stdout
    return float(out) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--entries", type=int, default=46)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bmoca-cache-bench-") as tmp:
        folder = Path(tmp)
        _fill(folder, args.entries)
        codes = {"import bmoca only": _FILES.format(n=0), "files": _FILES.format(n=args.entries)}
        for policy in ("least-recently-stored", "least-recently-used"):
            codes[f"diskcache {policy}"] = _DISKCACHE.format(
                n=args.entries, folder=str(folder / policy), policy=policy)
        samples: dict[str, list[float]] = {name: [] for name in codes}
        for _ in range(args.runs):
            for name, code in codes.items():
                samples[name].append(_sample(code, folder))
    base = samples.pop("import bmoca only")
    print(json.dumps({name: {"min_ms": round(min(v) - min(base), 1), "median_ms": round(
        statistics.median(v) - statistics.median(base), 1)} for name, v in samples.items()},
        indent=2))


if __name__ == "__main__":
    main()
