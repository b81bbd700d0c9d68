"""Numeric claims: PPGT Prop. E.3 (norms) and GRIT Prop. 3.3 (LayerNorm removes degree
information). Each must PASS with the project's layers and FAIL with a deliberately broken one."""

import networkx as nx
import torch
from torch import nn

from wltools.claims.grit_numeric import check_layernorm_degree
from wltools.claims.ppgt import check_norm_magnitude
from wltools.claims.registry import Claim, run_claim
from wltools.models.layers import RMSNorm

FAST = dict(dims=(8, 32), samples=200)


def test_norm_magnitude_passes_with_project_layers():
    r = check_norm_magnitude(**FAST, seed=1)
    assert r.status == "PASS", r.summary
    assert r.evidence["max relative error"]["layernorm"] <= 1e-9


class _NoNorm(nn.Module):
    """A 'norm' that only applies a gain: not magnitude-invariant."""

    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * self.weight


class _FakeAda(RMSNorm):
    """Claims to be AdaRMSN but ignores alpha and beta (so it is magnitude-invariant)."""

    def __init__(self, dim):
        super().__init__(dim)
        self.alpha = nn.Parameter(torch.zeros(dim))
        self.beta = nn.Parameter(torch.ones(dim))

    def reset_parameters(self):
        super().reset_parameters()
        if hasattr(self, "alpha"):
            nn.init.zeros_(self.alpha)
            nn.init.ones_(self.beta)


def test_norm_magnitude_fails_for_a_norm_that_keeps_magnitude():
    r = check_norm_magnitude(**FAST, layernorm=_NoNorm)
    assert r.status == "FAIL" and "layernorm" in r.summary


def test_norm_magnitude_fails_for_an_adarmsn_that_cannot_keep_magnitude():
    r = check_norm_magnitude(**FAST, adarmsnorm=_FakeAda)
    assert r.status == "FAIL"
    assert "AdaRMSN" in r.summary and "identity" in r.summary


def test_layernorm_degree_passes_and_reports_controls():
    r = check_layernorm_degree(seed=3)
    assert r.status == "PASS", r.summary
    assert r.evidence["max relative error LN(variant) vs LN(mean)"] <= 1e-9
    assert r.evidence["control: min rel. gap BatchNorm(sum) vs BatchNorm(mean)"] > 1e-3


class _CentreOnly(nn.Module):
    """A broken 'LayerNorm' that centres each node but forgets to divide by the deviation."""

    def __init__(self, dim):
        super().__init__()

    def forward(self, x):
        return x - x.mean(-1, keepdim=True)


def test_layernorm_degree_fails_when_the_norm_does_not_rescale():
    r = check_layernorm_degree(layernorm=_CentreOnly)
    assert r.status == "FAIL" and r.witness


def test_layernorm_degree_rejects_isolated_nodes_as_a_crash_not_a_verdict():
    G = nx.path_graph(4)
    G.add_node(4)
    claim = Claim("x", "s", "src", "numeric",
                  lambda: check_layernorm_degree(graphs=[("P4+K1", G)]))
    r = run_claim(claim)
    assert r.status == "ERROR" and "positive degree" in r.summary
