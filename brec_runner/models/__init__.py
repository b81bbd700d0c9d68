"""How a model reaches the runner: loading it, checking its contract, keying and caching its encodings.

:mod:`~brec_runner.models.source` turns a name, ``MODULE:ATTR``, ``PATH.py:ATTR``, a plugin or an object
into one :class:`~brec_runner.models.source.ModelSource`; :mod:`~brec_runner.models.contract` checks the
model before anything is written; :mod:`~brec_runner.models.transform_identity` keys its transform by
its code and state; :mod:`~brec_runner.models.encoding_cache` caches the encoded graphs on disk;
:mod:`~brec_runner.models.errors` holds :class:`~brec_runner.models.errors.ModelContractError`. The
built-in models themselves live in :mod:`wltools.models`, their cited settings in
:mod:`brec_runner.configs`.
"""
