"""The certified pairs of the hierarchy as a suite (``data/suites/certified``, suite ``certified``).

:func:`suite_files` turns a :meth:`wltools.hierarchy.table.Hierarchy.to_dict` record (the committed
``reports/hierarchy.json``) into the suite's two files: ``certified.g6``, the distinct certified pairs
as consecutive graph6 lines (G, then H), smallest first; and ``pairs.json``, per pair the ordered test
pairs ``[A, B]`` it certifies (B distinguishes it, A does not) and how it was made. Regenerate with

    python -m wltools.hierarchy.suite reports/hierarchy.json data/suites/certified

then record the two files' SHA-256 in :data:`wltools.suites.base.CHECKSUMS` and ``data/suites/README.md``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

__all__ = ["suite_files"]


def suite_files(record: dict) -> tuple[str, str]:
    """``(certified.g6 text, pairs.json text)`` of the distinct certified pairs of ``record``."""
    pairs: dict[tuple[str, str], dict] = {}
    for row in record["pairs"]:
        for cert in (row["b_over_a"], row["a_over_b"]):
            if cert is None:
                continue
            entry = pairs.setdefault((cert["G"], cert["H"]), {"construction": cert["construction"], "n": cert["n"],
                                                               "separates": []})
            entry["separates"].append([cert["a"], cert["b"]])
    order = sorted(pairs, key=lambda k: (pairs[k]["n"], pairs[k]["construction"], k))
    g6 = "".join(f"{g}\n{h}\n" for g, h in order)
    listed = [{"id": i, **pairs[k], "separates": sorted(pairs[k]["separates"])} for i, k in enumerate(order)]
    body = ",\n".join("  " + json.dumps(p, ensure_ascii=False) for p in listed)  # one pair a line
    return g6, '{"source": "wltools hierarchy (reports/hierarchy.json)",\n "pairs": [\n' + body + "\n ]}\n"


if __name__ == "__main__":
    record_path, folder = Path(sys.argv[1]), Path(sys.argv[2])
    g6, listed = suite_files(json.loads(record_path.read_text()))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "certified.g6").write_text(g6)
    (folder / "pairs.json").write_text(listed, encoding="utf-8")
    print(f"wrote {folder / 'certified.g6'} and {folder / 'pairs.json'}")
