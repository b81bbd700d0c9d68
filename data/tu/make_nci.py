"""Write the TU-format folder ``data/tu/NCI1K/`` from the NCI molecules that ship with RDKit.

Source: ``RDConfig.RDDataDir/NCI/first_5K.smi`` (one ``SMILES<TAB>id`` per line) and
``first_5k.tpsa.csv`` (``SMILES,TPSA`` per line, the same molecules in the same order, after one
``#`` comment line), both in RDKit's PyPI wheel (RDKit: BSD-3-Clause; the molecules come from the
NCI open database, public domain). Only this script needs RDKit; reading the folder does not.

Derivation, for the first ``--count`` lines (default 1,000):

* one graph per molecule that RDKit parses (``Chem.MolFromSmiles``, default sanitisation:
  hydrogens implicit, aromaticity perceived by RDKit); a molecule RDKit cannot parse, or one
  with a bond that is not single/double/triple/aromatic, is skipped and counted;
* nodes = atoms in RDKit's order, node label = element code (the elements present, numbered
  0, 1, ... in order of atomic number; the table is printed);
* edges = bonds; ``NCI1K_A.txt`` lists every bond in both directions, lines sorted by
  ``(row, col)``, 1-based node ids as in the TU distribution; edge label = bond code
  (:data:`BOND_CODES`: 0 single, 1 double, 2 triple, 3 aromatic), the same on both lines;
* graph label = 1 if the molecule's TPSA (``first_5k.tpsa.csv``) is strictly above the median
  TPSA of the graphs written, else 0.

The output is deterministic (no randomness, no timestamps). Usage, from the repository root::

    python data/tu/make_nci.py                 # writes data/tu/NCI1K/, prints counts and checksums
    python data/tu/make_nci.py --out ../x      # elsewhere (the folder is named NCI1K)
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
from pathlib import Path

#: Bond type name (RDKit ``BondType``) -> edge label.
BOND_CODES = {"SINGLE": 0, "DOUBLE": 1, "TRIPLE": 2, "AROMATIC": 3}

NAME = "NCI1K"
HERE = Path(__file__).resolve().parent


def read_source(count: int = 1000) -> list[tuple[str, str, float]]:
    """The first ``count`` ``(smiles, id, tpsa)`` triples of RDKit's NCI files."""
    from rdkit import RDConfig

    folder = Path(RDConfig.RDDataDir) / "NCI"
    smi = [line.rstrip("\n").split("\t") for line in (folder / "first_5K.smi").read_text().splitlines()]
    tpsa = [line.rsplit(",", 1) for line in (folder / "first_5k.tpsa.csv").read_text().splitlines()
            if line and not line.startswith("#")]
    if len(smi) < count or len(tpsa) < count:
        raise SystemExit(f"asked for {count} molecules; first_5K.smi has {len(smi)}, the TPSA file {len(tpsa)}")
    out = []
    for i, ((s, ident), (s2, t)) in enumerate(zip(smi[:count], tpsa[:count])):
        if s != s2:
            raise SystemExit(f"line {i + 1}: the SMILES of the two files differ ({s!r}, {s2!r})")
        out.append((s, ident, float(t)))
    return out


def build(count: int = 1000) -> tuple[dict[str, bytes], dict]:
    """The folder's files (name -> bytes) and a summary (counts, code tables, skipped lines)."""
    from rdkit import Chem, RDLogger, rdBase

    RDLogger.DisableLog("rdApp.*")
    mols, skipped = [], {"unparsable": [], "other_bond_type": []}
    for line, (s, ident, tpsa) in enumerate(read_source(count), start=1):
        m = Chem.MolFromSmiles(s)
        if m is None or m.GetNumAtoms() == 0:
            skipped["unparsable"].append(line)
            continue
        if any(str(b.GetBondType()) not in BOND_CODES for b in m.GetBonds()):
            skipped["other_bond_type"].append(line)
            continue
        mols.append((m, ident, tpsa))
    elements = sorted({(a.GetAtomicNum(), a.GetSymbol()) for m, _, _ in mols for a in m.GetAtoms()})
    element_code = {z: i for i, (z, _) in enumerate(elements)}
    median = statistics.median(t for _, _, t in mols)
    A, elab, indicator, nlab, glab = [], [], [], [], []
    offset = 0
    for g, (m, _, tpsa) in enumerate(mols, start=1):
        n = m.GetNumAtoms()
        indicator += [f"{g}"] * n
        nlab += [f"{element_code[a.GetAtomicNum()]}" for a in m.GetAtoms()]
        lines = []
        for b in m.GetBonds():
            u, v, code = b.GetBeginAtomIdx() + offset + 1, b.GetEndAtomIdx() + offset + 1, BOND_CODES[str(b.GetBondType())]
            lines += [(u, v, code), (v, u, code)]
        for u, v, code in sorted(lines):
            A.append(f"{u}, {v}")
            elab.append(f"{code}")
        glab.append("1" if tpsa > median else "0")
        offset += n
    files = {f"{NAME}_A.txt": A, f"{NAME}_edge_labels.txt": elab, f"{NAME}_graph_indicator.txt": indicator,
             f"{NAME}_graph_labels.txt": glab, f"{NAME}_node_labels.txt": nlab}
    files = {k: ("\n".join(v) + "\n").encode() for k, v in files.items()}
    summary = {"rdkit": rdBase.rdkitVersion, "lines_read": count, "graphs": len(mols), "nodes": offset,
               "edges": len(A) // 2, "skipped": skipped, "tpsa_median": median,
               "targets": {"0": glab.count("0"), "1": glab.count("1")},
               "elements": [(i, sym, z, nlab.count(str(i))) for i, (z, sym) in enumerate(elements)],
               "bonds": [(code, name, elab.count(str(code)) // 2) for name, code in BOND_CODES.items()]}
    return files, summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=1000, help="How many lines of first_5K.smi to read.")
    ap.add_argument("--out", default=str(HERE), help="The folder in which NCI1K/ is written.")
    args = ap.parse_args()
    files, s = build(args.count)
    folder = Path(args.out) / NAME
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    print(f"RDKit {s['rdkit']}: {s['lines_read']} lines read, {s['graphs']} graphs, {s['nodes']:,} nodes, "
          f"{s['edges']:,} edges; skipped: {len(s['skipped']['unparsable'])} unparsable "
          f"{s['skipped']['unparsable']}, {len(s['skipped']['other_bond_type'])} with another bond type "
          f"{s['skipped']['other_bond_type']}")
    print(f"TPSA median {s['tpsa_median']:g}; targets 0: {s['targets']['0']}, 1: {s['targets']['1']}")
    print("\n| code | element | atomic number | atoms |\n|---:|---|---:|---:|")
    for code, sym, z, k in s["elements"]:
        print(f"| {code} | {sym} | {z} | {k:,} |")
    print("\n| code | bond | bonds |\n|---:|---|---:|")
    for code, name, k in s["bonds"]:
        print(f"| {code} | {name.lower()} | {k:,} |")
    print("\n| file | bytes | sha256 |\n|---|---:|---|")
    for name, data in sorted(files.items()):
        print(f"| `{name}` | {len(data):,} | `{hashlib.sha256(data).hexdigest()}` |")
    print(f"wrote {folder}")


if __name__ == "__main__":
    main()
