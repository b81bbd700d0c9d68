"""Write ``docs/index.md``, the site's home page, from ``README.md`` (one text, two places).

    python docs/gen_index.py            # rewrite docs/index.md
    python docs/gen_index.py --check    # exit 1 if docs/index.md is not what README.md gives

Links into ``docs/`` lose that prefix (the site's pages sit side by side); any other link of the
README is to a file of the repository and stays as it is.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "docs" / "index.md"
NOTE = "<!-- generated from README.md by docs/gen_index.py: edit README.md, then run the script -->\n"


def render(root: Path = ROOT) -> str:
    """README.md with its ``](docs/...)`` links made relative to ``docs/``."""
    text = (root / "README.md").read_text()
    text = text.replace("[`docs/`](docs/index.md)", "these pages")
    return NOTE + re.sub(r"\]\(docs/", "](", text)


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _generated import write_or_check

    return write_or_check(OUTPUT, render(), "gen_index.py", argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
