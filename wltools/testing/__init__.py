"""The conformance suite every WL test passes, built-in or from outside:
:func:`check_test` (:mod:`wltools.testing.checks`), against independent slow references
(:mod:`wltools.testing.references`, which the test modules of :mod:`wltools.wltests` name)."""

__all__ = ["check_test", "CHECKS"]


def __getattr__(name: str):
    """``check_test`` and ``CHECKS``, imported when first asked for: the test modules import
    :mod:`wltools.testing.references`, so this package imports the registry only when used."""
    if name in __all__:
        from . import checks

        return getattr(checks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
