"""The conformance suite every WL test passes, built-in or from outside:
:func:`check_test` (:mod:`wltools.testing.checks`), against independent slow references
(:mod:`wltools.testing.references`)."""

from .checks import CHECKS, check_test

__all__ = ["check_test", "CHECKS"]
