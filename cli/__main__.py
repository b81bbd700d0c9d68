"""``python -m cli ARGS``: the wltools command from a checkout."""

from cli import main

main()
