"""The counting benchmark (``wltools count``): training a model to count patterns, on the runs' machinery.

Zhang et al. (ICLR 2024, Sec. 6) and GNN-AK / I²-GNN's protocol: :mod:`~brec_runner.counting.train`
(the protocol and the loop of one (task, level, seed) unit), :mod:`~brec_runner.counting.checkpoint`
(resuming inside a unit), :mod:`~brec_runner.counting.predictions` (the stored test predictions a
record's error is recomputed from), :mod:`~brec_runner.counting.run` (the run directory, with the
identity and record rules of :mod:`brec_runner.records`), :mod:`~brec_runner.counting.evaluate` (the
driver) and :mod:`~brec_runner.counting.report` (realised error beside what the model's class can count).
"""
