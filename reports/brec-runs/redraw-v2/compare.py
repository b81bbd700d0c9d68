"""Verdicts on the 8 pairs whose relabelled copies changed (distinct copies, re-drawn as the
reference), new runs here vs the committed runs made before the change.

    python reports/brec-runs/redraw-v2/compare.py > reports/brec-runs/redraw-v2/comparison.md
"""

from pathlib import Path

from brec_runner.records.record import read_run

HERE = Path(__file__).resolve().parent
OLD = {"gin-example-cpu": ["gin-example-cpu"], "gin-rrwp-example-cpu": ["gin-rrwp-example-cpu"],
       "sgformer-brec-cpu": ["sgformer-brec-cpu"], "ppgt-small-e20-cpu": ["ppgt-small-e20-cpu"],
       "grit-brec-cpu": ["grit-brec-cpu"],
       "graph-transformer-brec-cpu": ["graph-transformer-brec-cpu", "graph-transformer-brec-cpu-seeds12"],
       "graphormer-legacy-config-cpu": ["graphormer-brec-cpu", "graphormer-brec-cpu-seeds12",
                                        "graphormer-brec-cpu-seeds3to9"]}


def main() -> None:
    print("| run | units | realised before | realised after | reliability failures before / after | "
          "verdicts changed (pair seed: before -> after) |")
    print("|---|---|---|---|---|---|")
    for new, olds in OLD.items():
        recs = {(r["id"], r["seed"]): r for r in read_run(HERE / new).records}
        old = {}
        for o in olds:
            old.update({(r["id"], r["seed"]): r for r in read_run(HERE.parent / o).records
                        if (r["id"], r["seed"]) in recs})
        real = lambda r: r["distinguished"] and r["reliable"]  # noqa: E731
        changed = [f"{k[0]} s{k[1]}: {real(old[k])} -> {real(recs[k])}" for k in sorted(recs) if real(old[k]) != real(recs[k])]
        print(f"| {new} | {len(recs)} | {sum(map(real, old.values()))} | {sum(map(real, recs.values()))} | "
              f"{sum(not r['reliable'] for r in old.values())} / {sum(not r['reliable'] for r in recs.values())} | "
              f"{'; '.join(changed) or 'none'} |")


if __name__ == "__main__":
    main()
