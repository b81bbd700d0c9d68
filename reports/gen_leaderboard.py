"""Write the committed leaderboards from every committed run (so no count in them is typed by hand).

    python reports/gen_leaderboard.py            # rewrite reports/leaderboard.md, suite-leaderboard.md
    python reports/gen_leaderboard.py --check    # exit 1 if a file is not what the code gives now

``reports/leaderboard.md`` is what ``wltools brec compare reports/brec-runs`` prints,
``reports/suite-leaderboard.md`` what ``wltools suite compare reports/suite-runs`` prints (both run
from the repository root; :func:`brec_runner.reports.compare.leaderboards`). Their theory comes from the
committed tables (``reports/brec-theory``, ``reports/suites-theory``) and, for the RRWP steps those
lack, from ``reports/leaderboard-theory.json``, which this script computes and writes (a test
checks a sample of it against the refinement).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    from brec_runner.reports.compare import leaderboards

    check = "--check" in argv
    files = leaderboards(ROOT, compute=not check)
    stale = [name for name, text in files.items()
             if not (ROOT / "reports" / name).is_file() or (ROOT / "reports" / name).read_text() != text]
    if check:
        for name in stale:
            print(f"reports/{name} is out of date: run python reports/gen_leaderboard.py", file=sys.stderr)
        return 1 if stale else 0
    for name in stale:
        (ROOT / "reports" / name).write_text(files[name])
        print(f"wrote reports/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
