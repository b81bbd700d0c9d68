"""Labelled graphs from PyG ``Data`` and from SMILES (RDKit, optional), in the representation of
:mod:`wltools.graphs.labels` (node / edge attribute ``"label"``, canonical values).

* :func:`from_pyg`: ``x`` rows are the node labels, ``edge_attr`` rows the edge labels (as
  tuples; a row of one value, e.g. ``x`` of shape ``[n, 1]``, or a 1-D ``x`` gives that value),
  read by the one rule of :mod:`wltools.graphs.labels` (a float32 ``0.1`` is the label ``0.1``; NaN refused). An undirected graph is stored by
  PyG with both directions of each edge; both must be present and carry the same ``edge_attr``.
* :func:`from_smiles`: a molecule read by RDKit (``Chem.MolFromSmiles``), hydrogens as RDKit keeps
  them (implicit: nodes are the atoms of the SMILES, an explicit ``[H]`` atom is a node). Atom label
  ``(element symbol, formal charge, aromatic, total number of hydrogens)``, e.g. ``('C', 0, False,
  2)`` for the CH2 of ethanol (``aromatic`` a bool, one label with the number 0 / 1 by the rule of
  :mod:`wltools.graphs.labels`); bond label the RDKit bond type name (``"SINGLE"``, ``"DOUBLE"``,
  ``"TRIPLE"``, ``"AROMATIC"``, ...), i.e. the bond order as RDKit's sanitised,
  kekulised-or-aromatic molecule has it. With ``stereo=True`` the atom label gains a fifth field,
  its CIP descriptor (``"R"``, ``"S"``, the pseudo-asymmetric ``"r"`` / ``"s"``, or ``""``), and the
  bond label becomes ``(bond type, "E" / "Z" / "")``: descriptors of RDKit's new CIP labeller
  (``rdCIPLabeler.AssignCIPLabels``; Hanson et al., J. Chem. Inf. Model. 58 (2018) 1755, the 2013
  IUPAC rules). CIP descriptors, not RDKit's chiral tags (``CHI_TETRAHEDRAL_CW`` / ``CCW``) nor
  its ``STEREOCIS`` / ``STEREOTRANS``: a tag is clockwise *in the order the atom's neighbours are
  written*, so ``F[C@H](Cl)Br`` and ``Br[C@@H](Cl)F`` (one molecule) carry opposite tags, and a
  label that changes when atoms are renumbered would make graph isomorphism answer a question about
  the SMILES text; a CIP descriptor depends on the molecule alone. Stereo the CIP rules do not
  describe (unspecified centres, axial chirality RDKit does not label) is the empty string.
  RDKit is an optional extra: ``pip install -e ".[chem]"``.
* Size: a SMILES of more than :data:`SMILES_MAX_ATOMS` atom tokens is refused before RDKit reads
  it (RDKit's ring perception takes time and memory quadratic in the atoms of a ring system:
  a ring of 10,000 atoms 8.7 s and 2.8 GB, of 60,000 killed at 23 GB).

Examples
--------
>>> import torch
>>> from torch_geometric.data import Data
>>> d = Data(x=torch.tensor([[1.0], [0.0], [1.0]]), edge_index=torch.tensor([[0, 1, 1, 2], [1, 0, 2, 1]]))
>>> G = from_pyg(d)
>>> dict(G.nodes(data="label"))
{0: 1.0, 1: 0.0, 2: 1.0}
"""

from __future__ import annotations

import re

import networkx as nx

from ..errors import GraphFormatError, ResourceLimitError, UnsupportedGraphError
from .validation import count_text, require_load, validate_graph
from .labels import EDGE_LABEL, NODE_LABEL, canonical_label

__all__ = ["from_pyg", "from_smiles", "smiles_atoms", "CHEM_HINT", "SMILES_MAX_ATOMS", "MOLECULE"]

#: How to get RDKit, in the one line printed when it is missing.
CHEM_HINT = 'SMILES input needs RDKit: pip install -e ".[chem]" (or pip install rdkit)'

#: Most atoms a SMILES may have (module docstring: RDKit's ring perception is quadratic; a ring of
#: 5,000 atoms takes about 2 s and 0.7 GB, of 10,000 atoms 8.7 s and 2.8 GB on a 2-core machine).
SMILES_MAX_ATOMS = 5_000

#: ``graph["molecule"]`` of a graph read from SMILES: True (pictures write element symbols and
#: bond orders, :mod:`wltools.draw.figure`).
MOLECULE = "molecule"

#: SMILES atom tokens (OpenSMILES 3.1: a bracket atom, or an organic-subset symbol; ``Cl`` / ``Br``
#: before ``C`` / ``B``), and ring-bond tokens (a digit or ``%nn`` outside brackets).
_ATOM_TOKEN = re.compile(r"\[[^\]]*\]|Cl|Br|[BCNOPSFI]|[bcnops]|\*")
_RING_TOKEN = re.compile(r"%\d\d|\d")


def _check_lengths(data, where: str) -> int:
    """The node count of ``data``, after checking that ``x`` and ``edge_attr`` fit it."""
    ei = getattr(data, "edge_index", None)
    if ei is None or ei.dim() != 2 or ei.shape[0] != 2:
        raise GraphFormatError(f"{where}: edge_index must have shape [2, num_edges]")
    n = int(data.num_nodes) if data.num_nodes is not None else 0
    x = getattr(data, "x", None)
    if x is not None and x.shape[0] != n:
        raise GraphFormatError(f"{where}: x has {x.shape[0]} rows for {n} nodes")
    ea = getattr(data, "edge_attr", None)
    if ea is not None and ea.shape[0] != ei.shape[1]:
        raise GraphFormatError(f"{where}: edge_attr has {ea.shape[0]} rows for {ei.shape[1]} directed edges")
    if ei.numel() and (int(ei.min()) < 0 or int(ei.max()) >= n):
        raise GraphFormatError(f"{where}: edge_index refers to node {int(ei.max())} of {n} nodes")
    return n


def from_pyg(data, name: str | None = None) -> nx.Graph:
    """An undirected labelled graph on ``0..n-1`` from a PyG ``Data`` (module docstring).

    Raises
    ------
    GraphFormatError
        ``x`` or ``edge_attr`` rows not matching the nodes / edges, an edge present in one
        direction only or with different ``edge_attr`` in the two, NaN in a label.
    UnsupportedGraphError
        Self-loops, an edge stored twice in one direction (parallel edges), no nodes.

    Examples
    --------
    >>> import torch
    >>> from torch_geometric.data import Data
    >>> d = Data(edge_index=torch.tensor([[0, 1], [1, 0]]), edge_attr=torch.tensor([[1, 0], [0, 1]]), num_nodes=2)
    >>> from_pyg(d, "mol")
    Traceback (most recent call last):
    ...
    wltools.errors.GraphFormatError: mol: edge (0, 1) has edge_attr (1, 0) and its reverse (1, 0) has (0, 1); an undirected graph needs equal rows
    """
    where = name or "PyG Data"
    n = _check_lengths(data, where)
    x, ea = (_rows(getattr(data, k, None)) for k in ("x", "edge_attr"))  # numpy, dtype kept
    ei = data.edge_index.detach().cpu().numpy()
    slot = {(int(u), int(v)): j for j, (u, v) in enumerate(ei.T)}
    if len(slot) != ei.shape[1]:  # a repeated (u, v): parallel edges, refused as in every file format
        seen: set = set()
        u, v = next((u, v) for u, v in map(tuple, ei.T.tolist()) if (u, v) in seen or seen.add((u, v)))
        raise UnsupportedGraphError(f"{where} stores edge ({u}, {v}) more than once (parallel edges); only simple "
                                    "graphs are supported (torch_geometric.utils.coalesce merges them)")
    G = nx.Graph()
    G.add_nodes_from(range(n))
    if x is not None:
        for v in range(n):
            G.nodes[v][NODE_LABEL] = canonical_label(x[v], f"{where}: x of node {v}")
    for (u, v), j in slot.items():
        if u == v:
            raise UnsupportedGraphError(f"{where} has a self-loop at node {u}; only simple graphs are supported")
        if (v, u) not in slot:
            raise GraphFormatError(f"{where}: edge ({u}, {v}) is stored in one direction only; an undirected "
                                   "graph stores both (torch_geometric.utils.to_undirected)")
        if ea is not None:
            a = canonical_label(ea[j], f"{where}: edge_attr of edge ({u}, {v})")
            b = canonical_label(ea[slot[v, u]], f"{where}: edge_attr of edge ({v}, {u})")
            if a != b:
                raise GraphFormatError(f"{where}: edge ({u}, {v}) has edge_attr {a!r} and its reverse ({v}, {u}) "
                                       f"has {b!r}; an undirected graph needs equal rows")
            G.add_edge(u, v, **{EDGE_LABEL: a})
        else:
            G.add_edge(u, v)
    return validate_graph(G, name=name, node_attr=NODE_LABEL if x is not None else None,
                          edge_attr=EDGE_LABEL if ea is not None else None)


def _rows(t):
    """A torch tensor as numpy of its own dtype (bfloat16, which numpy lacks: float32), or None."""
    if t is None:
        return None
    t = t.detach().cpu()
    return (t.float() if str(t.dtype) == "torch.bfloat16" else t).numpy()


def smiles_atoms(smiles: str) -> tuple[int, int]:
    """``(atoms, upper bound of bonds)`` of a SMILES string, counted from its tokens without
    parsing it: one atom per bracket atom or organic-subset symbol (exact for a valid SMILES), and
    at most one bond per atom plus one per ring-bond digit.

    Examples
    --------
    >>> smiles_atoms("C1CCC2CCCCC2C1"), smiles_atoms("Cl[C@@H](Br)F"), smiles_atoms("[13CH4]")
    ((10, 14), (4, 4), (1, 1))
    """
    outside = re.sub(r"\[[^\]]*\]", "A", smiles)  # bracket atoms hold digits (isotopes, H counts)
    atoms = len(_ATOM_TOKEN.findall(smiles))
    return atoms, atoms + len(_RING_TOKEN.findall(outside))


def _refuse_large(smiles: str, where: str, max_memory: int | None) -> None:
    """Refuse (:class:`~wltools.errors.ResourceLimitError`) a SMILES beyond
    :data:`SMILES_MAX_ATOMS` atoms or the memory budget, before RDKit reads it."""
    atoms, bonds = smiles_atoms(smiles)
    shown = where if len(where) <= 60 else where[:40] + f"... ({len(smiles):,} characters)"
    if atoms > SMILES_MAX_ATOMS:
        raise ResourceLimitError(f"{shown} has {count_text(atoms, 'atoms')}; SMILES input is limited to "
                                 f"{SMILES_MAX_ATOMS:,} atoms (RDKit's ring perception is quadratic in them)")
    require_load(atoms, bonds, shown, max_memory)


def _labels(mol, stereo: bool):
    """Atom and bond labels of an RDKit molecule (module docstring); CIP descriptors when ``stereo``."""
    if stereo:
        from rdkit.Chem import rdCIPLabeler

        rdCIPLabeler.AssignCIPLabels(mol)

    def cip(x) -> str:
        return x.GetProp("_CIPCode") if x.HasProp("_CIPCode") else ""

    atoms = {a.GetIdx(): (a.GetSymbol(), a.GetFormalCharge(), a.GetIsAromatic(), a.GetTotalNumHs())
             + ((cip(a),) if stereo else ()) for a in mol.GetAtoms()}
    bonds = {(b.GetBeginAtomIdx(), b.GetEndAtomIdx()): (str(b.GetBondType()), cip(b)) if stereo
             else str(b.GetBondType()) for b in mol.GetBonds()}
    return atoms, bonds


def from_smiles(smiles: str, name: str | None = None, *, stereo: bool = False,
                max_memory: int | None = None) -> nx.Graph:
    """The labelled molecular graph of a SMILES string (module docstring), through RDKit.

    Parameters
    ----------
    smiles : str
    name : str, optional
        How messages name the input (default ``smiles:SMILES``).
    stereo : bool
        Add CIP descriptors to the labels: ``R`` / ``S`` (``r`` / ``s``) to atoms, ``E`` / ``Z`` to
        bonds (module docstring); default False, the constitution alone.
    max_memory : int, optional
        Memory budget in bytes (:func:`wltools.runtime.memory.require`).

    Returns
    -------
    nx.Graph
        Nodes ``0..n-1`` in the SMILES's atom order, node / edge attribute ``"label"``;
        ``graph["molecule"]`` is True.

    Raises
    ------
    GraphFormatError
        RDKit is not installed (:data:`CHEM_HINT`), or the SMILES is malformed (RDKit's own
        message is suppressed; the string is named).
    ResourceLimitError
        More than :data:`SMILES_MAX_ATOMS` atoms, or over ``max_memory``; refused before parsing.

    Examples
    --------
    >>> G = from_smiles("C=CO")  # doctest: +SKIP
    >>> sorted(G.nodes(data="label"))  # doctest: +SKIP
    [(0, ('C', 0, False, 2)), (1, ('C', 0, False, 1)), (2, ('O', 0, False, 1))]
    >>> from_smiles("F[C@H](Cl)Br", stereo=True).nodes[1]["label"]  # doctest: +SKIP
    ('C', 0, False, 1, 'R')
    """
    try:
        from rdkit import Chem, RDLogger
    except ImportError:
        raise GraphFormatError(CHEM_HINT) from None

    where = name or f"smiles:{smiles}"
    if not smiles.strip():
        raise GraphFormatError(f"{where}: empty SMILES")
    _refuse_large(smiles, where, max_memory)
    RDLogger.DisableLog("rdApp.*")  # RDKit prints parse errors itself; we give one line instead
    try:
        mol = Chem.MolFromSmiles(smiles)
    finally:
        RDLogger.EnableLog("rdApp.*")
    if mol is None:
        raise GraphFormatError(f"{where}: RDKit cannot parse this SMILES (malformed, or valences RDKit rejects)")
    atoms, bonds = _labels(mol, stereo)
    G = nx.Graph()
    G.add_nodes_from((v, {NODE_LABEL: a}) for v, a in atoms.items())
    G.add_edges_from((u, v, {EDGE_LABEL: b}) for (u, v), b in bonds.items())
    if G.number_of_nodes() == 0:
        raise UnsupportedGraphError(f"{where} has no atoms")
    G = validate_graph(G, name=where, node_attr=NODE_LABEL, edge_attr=EDGE_LABEL if G.number_of_edges() else None)
    G.graph[MOLECULE] = True
    return G
