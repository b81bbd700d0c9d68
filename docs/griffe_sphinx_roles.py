"""A griffe extension for the API pages: Sphinx roles in docstrings (``:func:`~wltools.x.f```,
``:mod:`wltools.refine.swl```) are shown as inline code (``f``, ``wltools.refine.swl``) instead of
raw role markup. The docstrings themselves are left as they are (they are numpydoc, read by Sphinx
and by ``help()`` too)."""

from __future__ import annotations

import re

import griffe

_ROLE = re.compile(r":(?:py:)?(?:func|meth|class|mod|data|attr|exc|obj|const|ref|term):`(~?)([^`<]+?)(?:\s*<([^>]+)>)?`")


def plain(text: str) -> str:
    """``:role:`~a.b``` -> ```b```, ``:role:`a.b``` -> ```a.b```, ``:role:`title <a.b>``` -> ```title```."""
    def one(m: re.Match) -> str:
        tilde, target, _ = m.groups()
        target = target.strip()
        return f"`{target.rsplit('.', 1)[-1] if tilde else target}`"
    return _ROLE.sub(one, text)


class SphinxRoles(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain(obj.docstring.value)
