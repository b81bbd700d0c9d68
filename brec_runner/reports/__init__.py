"""What the runs mean: theory per pair, realised vs theory, figures, HTML, the leaderboard, claims.

:mod:`~brec_runner.reports.theory` computes (and caches) the WL tests' verdicts on BREC's pairs and
:mod:`~brec_runner.reports.theory_report` renders them; :mod:`~brec_runner.reports.report` sets a
run's realised separations beside its declared bound (tables: :mod:`~brec_runner.reports.formatting`,
drawings: :mod:`~brec_runner.reports.figures`, one HTML page: :mod:`~brec_runner.reports.html_page`,
missed patterns: :mod:`~brec_runner.reports.patterns`); :mod:`~brec_runner.reports.compare` and
:mod:`~brec_runner.reports.compare_format` set many runs side by side (the leaderboard);
:mod:`~brec_runner.reports.claims` is the BREC side of ``wltools claims``.
"""
