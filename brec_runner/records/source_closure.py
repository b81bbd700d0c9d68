"""The source files a computation can execute: the import closure of its entry modules in a package.

A cache of computed results must be keyed on every source file the computation imports, not on a
hand-kept list of folders (which goes stale when a module moves or a new one is imported).
:func:`import_closure` reads each module's source with :mod:`ast` and follows every ``import`` and
``from ... import`` inside the package, module-level or function-local alike (this code base
imports lazily inside functions), relative imports resolved as Python resolves them
(:func:`importlib.util.resolve_name`); a module counts with the ``__init__`` of each package above
it, which importing it runs. A name imported from a module that is not itself a module (``from
wltools.refine import refine_pair``) adds nothing beyond its module. Modules are located with
:func:`importlib.util.find_spec`, so the closure follows the files Python would load.

:func:`sources_digest` hashes those files (relative path and bytes, in a fixed order), the
modules that shape the stored results (hashed as themselves), the Python version, and the
versions of the libraries named or imported (:func:`imported_libraries`), so that any edit,
addition or move of an imported file, and any upgrade of Python or of a library that computes the
results, changes the digest. A library that only modules off the computation's path import (torch
for the models' float encodings, RDKit for the SMILES reader: ``leave_out``) is left out, so that
its upgrade does not recompute what it never touched; imported by any other module, it counts.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import platform
import sys
from importlib import metadata
from pathlib import Path
from typing import Iterable

__all__ = ["import_closure", "imported_libraries", "library_importers", "library_versions", "sources_digest"]


def _origin(name: str) -> Path | None:
    """The source file of module ``name`` (its ``__init__.py`` for a package), or None when it is
    not a module (an attribute imported with ``from``) or has no Python source.

    Only a top-level name goes through :func:`importlib.util.find_spec`; a submodule is looked up
    in its top package's directory (a package's ``__init__.py`` before a ``.py`` file, as the
    import system does), since ``find_spec("a.b")`` imports package ``a`` and a whole closure of
    such calls imported every package the walk passed (scipy among them) into a report.
    """
    top, _, rest = name.partition(".")
    if rest:
        root = _origin(top)
        if root is None or root.name != "__init__.py":
            return None
        base = root.parent.joinpath(*rest.split("."))
        return next((path for path in (base / "__init__.py", base.parent / (base.name + ".py")) if path.is_file()),
                    None)
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError, AttributeError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def _imports(path: Path, name: str) -> set[str]:
    """Every module name the source of module ``name`` (file ``path``) imports, anywhere in it;
    for ``from M import a`` both ``M`` and ``M.a`` (``a`` may be a submodule)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            try:
                base = importlib.util.resolve_name("." * node.level + (node.module or ""), package) \
                    if node.level else node.module
            except (ImportError, ValueError):
                continue
            if base:
                out.add(base)
                out.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return out


def _with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


#: (entries, package) -> (closure, libraries, stamps of its files): reused while no file of it
#: changed. A new import needs an edit of a file already in the closure, so the stamps cover it.
_MEMO: dict[tuple, tuple[dict[str, Path], dict[str, list[str]], list]] = {}


def _stamps(paths: Iterable[Path]) -> list:
    out = []
    for path in paths:
        try:
            st = path.stat()
        except OSError:
            return [None]
        out.append((str(path), st.st_mtime_ns, st.st_size))
    return out


def _closure(entries: Iterable[str], package: str) -> tuple[dict[str, Path], dict[str, list[str]]]:
    """``(closure, {library outside package and the standard library: closure modules importing it})``,
    remembered in this process and on disk (:func:`_stored_closure`) while no file of it changed."""
    key = (tuple(entries), package)
    held = _MEMO.get(key)
    if held is not None and _stamps(held[0].values()) == held[2]:
        return held[0], held[1]
    store = _closure_store(key)
    found_outside = _stored_closure(store)
    if found_outside is None:
        found_outside = _walk(key[0], package)
        _store_closure(store, *found_outside)
    found, outside = found_outside
    _MEMO[key] = (found, outside, _stamps(found.values()))
    return found, outside


def _closure_store(key: tuple) -> Path | None:
    """The file remembering the closure of ``key`` across processes: in the cache folder, named by
    the entries, the package and where the package is loaded from (two checkouts never share one)."""
    from wltools.runtime.cache_root import CacheUnavailableError, cache_root

    root = _origin(key[1])
    try:
        folder = cache_root() / "source-closure"
    except CacheUnavailableError:
        return None
    name = hashlib.sha256(repr((key, str(root), sys.version)).encode()).hexdigest()[:16]
    return folder / f"{name}.json"


def _dir_stamps(paths: Iterable[Path]) -> list:
    """Stamps of the folders holding ``paths``: a module added next to them changes its folder's."""
    return _stamps(sorted({p.parent for p in paths}))


def _stored_closure(store: Path | None):
    """The closure remembered in ``store`` when none of its files and folders changed since and each
    module still loads from its file, else None."""
    import json

    if store is None:
        return None
    try:
        held = json.loads(store.read_text(encoding="utf-8"))
        found = {name: Path(path) for name, path in held["found"].items()}
        if [list(s) for s in _stamps(found.values())] != held["stamps"] or \
                [list(s) for s in _dir_stamps(found.values())] != held["dirs"] or \
                any(_origin(name) != path for name, path in found.items()):  # each still loads from there
            return None
        return found, {top: list(mods) for top, mods in held["outside"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # missing, damaged or of another shape: walked again and rewritten


def _store_closure(store: Path | None, found: dict[str, Path], outside: dict[str, list[str]]) -> None:
    import json

    from wltools.errors import WLToolsError
    from wltools.runtime.atomic import write_atomic

    if store is None:
        return
    body = json.dumps({"found": {n: str(p) for n, p in found.items()}, "outside": outside,
                       "stamps": _stamps(found.values()), "dirs": _dir_stamps(found.values())})
    try:
        store.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(store, body)
    except (OSError, WLToolsError):
        pass  # an unwritable cache: the walk is repeated next time, nothing else changes


def import_closure(entries: Iterable[str], package: str) -> dict[str, Path]:
    """``{module name: source file}`` of the modules of ``package`` that the ``entries`` import,
    directly or through one another (entries included, with their parent packages)."""
    return dict(_closure(entries, package)[0])


def library_importers(entries: Iterable[str], package: str) -> dict[str, list[str]]:
    """``{top-level module outside package and the standard library: the closure's modules that
    import it}`` (``torch``: ``['wltools.distances.encodings']``)."""
    return {top: list(mods) for top, mods in _closure(entries, package)[1].items()}


def imported_libraries(entries: Iterable[str], package: str,
                       leave_out: dict[str, Iterable[str]] | None = None, read=None) -> list[str]:
    """The distributions (numpy, networkx, pynauty, ...) whose top-level modules the
    :func:`import_closure` imports, outside ``package`` and the standard library; a module not
    installed (an optional import) is named as itself, so its later installation changes the key.
    ``leave_out``: ``{top-level module: closure modules whose import of it the results do not
    read}``; such a module is left out when no other module of the closure imports it. ``read``, a
    :func:`_version_reader` to share."""
    importers = _closure(entries, package)[1]
    tops = set(importers) - {top for top, mods in (leave_out or {}).items() if set(importers.get(top, ())) <= set(mods)}
    return _distribution_names(tops, read or _version_reader())


def _distribution_names(tops: Iterable[str], read) -> list[str]:
    """The distributions providing the top-level modules ``tops`` (a module not installed: itself);
    ``read`` a :func:`_version_reader`."""
    out = set()
    for top in tops:
        if read(top) is not None:  # most modules are named as their distribution: no index needed
            out.add(top)
        else:
            if importlib.util.find_spec(top) is None:  # not installed (an optional reader): keyed "absent"
                out.add(top)
            else:  # installed under another distribution name
                out.update(_distributions().get(top, ()))
    return sorted(out)


@functools.lru_cache(maxsize=1)
def _distributions() -> dict[str, list[str]]:
    """:func:`importlib.metadata.packages_distributions` (0.4 s: read once per process)."""
    return metadata.packages_distributions()


def _walk(entries: tuple[str, ...], package: str) -> tuple[dict[str, Path], dict[str, list[str]]]:
    inside = lambda n: n == package or n.startswith(package + ".")  # noqa: E731
    found: dict[str, Path] = {}
    outside: dict[str, set[str]] = {}
    todo = [p for e in entries for p in _with_parents(e) if inside(p)]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        path = _origin(name)
        if path is None:
            continue
        found[name] = path
        names = _imports(path, name)
        for top in {m.partition(".")[0] for m in names if not inside(m)}:
            outside.setdefault(top, set()).add(name)
        todo.extend(p for m in names if inside(m) for p in _with_parents(m) if p not in found)
    return dict(sorted(found.items())), {top: sorted(mods) for top, mods in sorted(outside.items())
                                         if top not in sys.stdlib_module_names}


def _version_reader():
    """``read(name)``: :func:`importlib.metadata.version` of distribution ``name``, None when it is
    not installed, each read once by this reader (a read parses the distribution's whole METADATA,
    and a digest asks for every library twice: :func:`_distribution_names`, then
    :func:`library_versions`; one reader a digest, so an upgrade shows in the next one)."""
    known: dict[str, str | None] = {}

    def read(name: str) -> str | None:
        if name not in known:
            try:
                known[name] = metadata.version(name)
            except metadata.PackageNotFoundError:
                known[name] = None
        return known[name]

    return read


def library_versions(names: Iterable[str], read=None) -> dict[str, str]:
    """``{distribution: installed version}`` (``"absent"`` when it is not installed); ``read``, a
    :func:`_version_reader` to share."""
    read = read or _version_reader()
    return {name: read(name) or "absent" for name in names}


def sources_digest(entries: Iterable[str], package: str, libraries: Iterable[str] = (), *,
                   shaping: Iterable[str] = (), leave_out: dict[str, Iterable[str]] | None = None) -> str:
    """sha256 (16 hex) of the :func:`import_closure` files (module name and bytes), of the
    ``shaping`` modules (those that turn the results into what is stored, hashed as themselves,
    their imports not followed), of the Python implementation and version, and of the
    :func:`library_versions` of ``libraries`` and of the :func:`imported_libraries` (``leave_out``
    as there)."""
    read = _version_reader()
    libraries = sorted(set(libraries) | set(imported_libraries(entries, package, leave_out, read)))
    h = hashlib.sha256()
    h.update(f"python {platform.python_implementation()} {platform.python_version()}\0".encode())
    modules = list(import_closure(entries, package).items())
    modules += sorted((name, _origin(name)) for name in shaping)
    for name, path in modules:
        if path is None:
            raise ValueError(f"{name} has no Python source to hash")
        data = path.read_bytes()
        h.update(f"{name}\0{len(data)}\0".encode())
        h.update(data)
    for lib, version in library_versions(libraries, read).items():
        h.update(f"lib {lib}={version}\0".encode())
    return h.hexdigest()[:16]
