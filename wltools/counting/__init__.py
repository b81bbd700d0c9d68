"""The substructure-counting benchmark: tasks (patterns, subgraph or homomorphism counting, levels),
exact targets and the shipped random-graph set (``data/counting``).

Examples
--------
>>> from wltools.counting import parse_task, subgraph_counts
>>> subgraph_counts(parse_task("cycle:4").pattern, parse_task("complete:4").pattern)[0]
3
"""

from .subgraph import automorphisms, subgraph_counts
from .tasks import LEVELS, STANDARD_TASKS, ZHANG_HOM_TASKS, Task, parse_task, task_names

__all__ = ["LEVELS", "STANDARD_TASKS", "ZHANG_HOM_TASKS", "Task", "parse_task", "task_names",
           "automorphisms", "subgraph_counts"]
