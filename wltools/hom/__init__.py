"""What a test can see: homomorphism expressivity (Zhang, Gai, Du, Ye, He, Wang, ICLR 2024, "Beyond
Weisfeiler-Lehman: A Quantitative Framework for GNN Expressiveness", arXiv 2401.08514).

Modules: :mod:`~wltools.hom.decompose` (exact treewidth and optimal tree decompositions of
patterns).
"""
