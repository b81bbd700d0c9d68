"""What a test can see: homomorphism expressivity (Zhang, Gai, Du, Ye, He, Wang, ICLR 2024, "Beyond
Weisfeiler-Lehman: A Quantitative Framework for GNN Expressiveness", arXiv 2401.08514).

Modules:

* :mod:`~wltools.hom.decompose`: exact treewidth and optimal tree decompositions of patterns;
* :mod:`~wltools.hom.count`: exact homomorphism counts hom(F, G), rooted too, each by the
  cheaper of :mod:`~wltools.hom.dense` (dynamic programming over a tree decomposition) and
  :mod:`~wltools.hom.sparse` (elimination over sparse tables); :mod:`~wltools.hom.batch`: many
  graphs at once; :mod:`~wltools.hom.brute`: the backtracking reference;
* :mod:`~wltools.hom.families`, :mod:`~wltools.hom.ear`: each test's pattern family (Theorems
  3.4-3.10) with exact membership; :mod:`~wltools.hom.patterns`: connected (rooted) patterns;
* :mod:`~wltools.hom.spasm`: homomorphic images and subgraph-countability (Theorem 4.5);
* :mod:`~wltools.hom.witness`: the smallest family pattern whose counts into two graphs differ.
"""
