"""WL tests as objects: one :class:`WLTest` per test, one module per built-in test (or family of
parametrised tests), and the registry every command reads (:mod:`wltools.wltests.registry`;
tests from outside through the entry-point group ``wltools.tests``). ``docs/adding-a-test.md``
walks through adding one; :func:`wltools.testing.check_test` checks any of them.
"""

from .base import COLOURS, WLTest
from .registry import (ENTRY_POINT_GROUP, TestPluginError, builtin_tests, get_test, is_test_name, list_tests,
                       register_test, unregister_test)

__all__ = ["WLTest", "COLOURS", "register_test", "unregister_test", "get_test", "is_test_name", "list_tests",
           "builtin_tests", "TestPluginError", "ENTRY_POINT_GROUP"]
