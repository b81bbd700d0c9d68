"""SMILES input with stereo (wltools.graphs.inputs.from_smiles(stereo=True), `check` / `iso --stereo`)
and its size check. Stereo labels must not depend on how the SMILES is written: isomorphism of the
labelled graphs is checked against RDKit's canonical isomeric SMILES (an independent reference) on
molecules rewritten in random atom orders."""

import itertools
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import cli
from wltools.errors import ResourceLimitError
from wltools.graphs import load_graph
from wltools.graphs.inputs import SMILES_MAX_ATOMS, smiles_atoms
from wltools.iso import is_isomorphic

ROOT = Path(__file__).resolve().parents[2]
ENANTIOMERS = ("smiles:F[C@H](Cl)Br", "smiles:F[C@@H](Cl)Br")

#: stereoisomers: enantiomers, diastereomers (threonine), a meso form (tartaric acid), E / Z, and
#: ring cis / trans that only pseudo-asymmetric r / s describe
STEREO = ["F[C@H](Cl)Br", "F[C@@H](Cl)Br", "C[C@@H](C(=O)O)N", "C[C@H](C(=O)O)N",
          "C[C@@H]([C@@H](C(=O)O)N)O", "C[C@H]([C@@H](C(=O)O)N)O", "O[C@@H]([C@H](O)C(O)=O)C(O)=O",
          "O[C@H]([C@H](O)C(O)=O)C(O)=O", "F/C=C/F", "F/C=C\\F", "C/C=C/C(=O)O", "C/C=C\\C(=O)O",
          "C[C@H]1CC[C@@H](C)CC1", "C[C@H]1CC[C@H](C)CC1"]


def _cli(*args):
    return CliRunner().invoke(cli.cli, list(args))


def _rewritten(smiles: str, count: int, seed: int) -> list[str]:
    """``smiles`` written in ``count`` random atom orders (RDKit), stereo kept."""
    from rdkit import Chem

    mol = Chem.MolFromSmiles(smiles)
    Chem.rdBase.SeedRandomNumberGenerator(seed)
    return [Chem.MolToSmiles(mol, doRandom=True, isomericSmiles=True) for _ in range(count)]


def test_enantiomers_are_one_graph_without_stereo_and_two_with_it():
    pytest.importorskip("rdkit")
    for command in ("iso", "check"):
        plain, stereo = _cli(command, *ENANTIOMERS), _cli(command, *ENANTIOMERS, "--stereo")
        assert plain.exit_code == stereo.exit_code == 0, (plain.output, stereo.output)
        assert re.search(r"^isomorphic", plain.output, re.M) and "isomorphic: no" not in plain.output
        assert "not isomorphic" in stereo.output or "isomorphic: no" in stereo.output
    r = _cli("check", *ENANTIOMERS, "--stereo", "--test", "1wl")
    assert "1wl   distinguished" in r.output and "'R'" in r.output and "'S'" in r.output
    G = load_graph(ENANTIOMERS[0], stereo=True)
    assert G.nodes[1]["label"] == ("C", 0, False, 1, "R") and G.edges[0, 1]["label"] == ("SINGLE", "")
    from wltools.draw.figure import label_texts  # a picture writes the descriptor beside the symbol

    assert label_texts(G) == ({0: "F", 1: "C R", 2: "Cl", 3: "Br"}, {})
    assert label_texts(load_graph("smiles:F/C=C/F", stereo=True))[1] == {(1, 2): "2 E"}


def test_stereo_isomorphism_agrees_with_rdkit_canonical_smiles_in_any_atom_order():
    pytest.importorskip("rdkit")
    from rdkit import Chem

    forms = [(s, w) for i, s in enumerate(STEREO) for w in [s] + _rewritten(s, 2, seed=i)]
    graphs = {w: (load_graph("smiles:" + w), load_graph("smiles:" + w, stereo=True)) for _, w in forms}
    canon = {w: (Chem.MolToSmiles(Chem.MolFromSmiles(w), isomericSmiles=False),
                 Chem.MolToSmiles(Chem.MolFromSmiles(w))) for _, w in forms}
    told_apart = 0
    for (_, a), (_, b) in itertools.combinations(forms, 2):
        for k in (0, 1):  # without stereo, with it
            if graphs[a][k].number_of_nodes() == graphs[b][k].number_of_nodes():
                assert is_isomorphic(graphs[a][k], graphs[b][k]) == (canon[a][k] == canon[b][k]), (a, b, k)
        told_apart += canon[a][0] == canon[b][0] and canon[a][1] != canon[b][1]
    assert told_apart >= 7 * 9  # each stereoisomer pair, in every pair of their writings


def test_double_bond_stereo():
    pytest.importorskip("rdkit")
    e, z = (load_graph(f"smiles:{s}", stereo=True) for s in ("F/C=C/F", "F/C=C\\F"))
    assert e.edges[1, 2]["label"] == ("DOUBLE", "E") and z.edges[1, 2]["label"] == ("DOUBLE", "Z")
    assert not is_isomorphic(e, z) and is_isomorphic(load_graph("smiles:F/C=C/F"), load_graph("smiles:F/C=C\\F"))


def test_atom_count_matches_rdkit():
    pytest.importorskip("rdkit")
    from rdkit import Chem

    for s in STEREO + ["c1ccc2ccccc2c1", "[13CH4]", "Cl[Cu-2](Cl)(Cl)Cl", "C%10CCCC%10", "[2H]OC([2H])=O", "*C(Br)I"]:
        atoms, bonds = smiles_atoms(s)
        mol = Chem.MolFromSmiles(s)
        assert atoms == mol.GetNumAtoms() and bonds >= mol.GetNumBonds(), s


def test_huge_smiles_refused_before_parsing(monkeypatch):
    ring = "C1" + "C" * 59_998 + "C1"  # 60,000 atoms: RDKit would need tens of GB
    chem = pytest.importorskip("rdkit.Chem")
    monkeypatch.setattr(chem, "MolFromSmiles", lambda *a, **k: pytest.fail("parsed"))
    start = time.perf_counter()
    with pytest.raises(ResourceLimitError, match="has 60,000 atoms; SMILES input is limited to 5,000 atoms"):
        load_graph("smiles:" + ring)
    assert time.perf_counter() - start < 1
    r = _cli("check", "smiles:" + ring, "smiles:CC")
    assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1 and r.stderr.startswith("error: smiles:C1CC")
    assert "(60,002 characters) has 60,000 atoms" in r.stderr and len(r.stderr) < 300
    with pytest.raises(ResourceLimitError, match="--max-memory"):  # the memory budget, as other loaders
        load_graph("smiles:" + "C" * SMILES_MAX_ATOMS, max_memory=1 << 20)


def test_the_label_is_documented():
    help_text = " ".join(_cli("check", "--help").output.split())
    assert "(element symbol, formal charge, aromatic, hydrogens), e.g. ('C', 0, False, 2)" in help_text
    assert "--stereo" in help_text and "--stereo" in _cli("iso", "--help").output
    doc = (ROOT / "docs" / "getting-started.md").read_text()
    assert 'wltools check "smiles:F[C@H](Cl)Br" "smiles:F[C@@H](Cl)Br" --stereo' in doc
    assert "('C', 0, False, 2)" in doc
