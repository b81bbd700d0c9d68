"""An external model runs through the BREC runner as fast as the same architecture built in.

The GIN of ``examples/gin.py`` is run twice on the same units: once by reference
(``examples/gin.py:gin``, as a user would) and once registered in the model registry like the five
built-in models (``@register_model`` with a config dataclass and a preset). The two runs alternate
``--repeats`` times, into fresh run directories, so that a drift in machine load hits both. The
script reports the median wall time of each and their ratio, checks that both produce identical
records, and appends a record to ``benchmarks/results/your_model_bench.json``.

    python benchmarks/your_model_bench.py --pairs 0-11 --seeds 0,1 --repeats 3
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from brec_bench import ROOT, append_record, parse_brec_bench_args


#: Record fields that differ by construction: the wall time, and the run identity hashes (``code``:
#: the model's source, a file here and a registry entry there; ``settings`` and ``check`` derive
#: from it). Everything the protocol computes (T², thresholds, verdicts) must be equal.
_NOT_COMPARED = frozenset({"wall_s", "code", "settings", "check"})


@dataclass
class GINConfig:
    hidden: int = 64
    layers: int = 4
    out_dim: int = 16


def _register_builtin(gin_module) -> str:
    from wltools.models import registry

    name = "_gin_builtin_bench"

    def build(config: GINConfig):
        return gin_module.gin(config.hidden, config.layers, config.out_dim)

    registry.register_model(name, config_cls=GINConfig, presets={"brec": {}}, make_transform=lambda c: None)(build)
    return name


def main(argv=None) -> dict:
    args, seeds = parse_brec_bench_args(__doc__, argv, pairs="0-11", repeats=3, name="your_model_bench")

    from brec_runner.models.source import load_object
    from brec_runner.records.record import read_results
    from brec_runner.runs.evaluate import run
    from wltools.runtime.provenance import environment

    external = f"{ROOT / 'examples' / 'gin.py'}:gin"
    gin_module = sys.modules[load_object(external).__module__]
    builtin = _register_builtin(gin_module)
    times: dict[str, list[float]] = {"external": [], "builtin": []}
    records: dict[str, list] = {}
    with tempfile.TemporaryDirectory(prefix="your-model-bench-") as tmp:
        os.environ["WLTOOLS_CACHE"] = str(Path(tmp) / "cache")
        for rep in range(args.repeats + 1):  # repeat 0 warms imports and the encoding cache
            for kind, model in (("external", external), ("builtin", builtin)):
                out = Path(tmp) / f"{kind}-{rep}"
                t0 = time.perf_counter()
                run(model, pairs=args.pairs, categories=None, seeds=seeds, out=out, progress=False,
                    bound="1wl" if kind == "builtin" else None)
                seconds = time.perf_counter() - t0
                if rep:
                    times[kind].append(seconds)
                records[kind] = [{k: v for k, v in r.items() if k not in _NOT_COMPARED}
                                 for r in read_results(out / "results.jsonl")]
    med = {k: statistics.median(v) for k, v in times.items()}
    result = {
        "command": "python benchmarks/your_model_bench.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "pairs": args.pairs, "seeds": seeds, "units": len(records["external"]), "repeats": args.repeats,
        "seconds": times, "median_seconds": med, "ratio_external_to_builtin": med["external"] / med["builtin"],
        "identical_records": records["external"] == records["builtin"],
        "environment": environment(), "measured": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "load_average_end": list(os.getloadavg()),
    }
    append_record(args.out, result)
    print(json.dumps({k: result[k] for k in ("units", "median_seconds", "ratio_external_to_builtin",
                                              "identical_records")}))
    return result


if __name__ == "__main__":
    main()
