"""Running a model on BREC pairs under the Reliable Paired Comparison (RPC) protocol.

BREC (Wang & Zhang, arXiv:2304.07702), Section 4. The pairs and their categories
(:mod:`~brec_runner.runs.dataset`), the protocol's constants (:mod:`~brec_runner.runs.protocol`), training
one (pair, seed) unit and its T² test (:mod:`~brec_runner.runs.rpc`), several units at once
(:mod:`~brec_runner.runs.multipair`, chosen by :mod:`~brec_runner.runs.probe`), and the driver of a run:
which units remain (:mod:`~brec_runner.runs.plan`), who runs them (:mod:`~brec_runner.runs.execute`,
:mod:`~brec_runner.runs.execute_ray`) and :func:`brec_runner.runs.evaluate.run`, which records each
outcome through :mod:`brec_runner.records`.
"""
