r"""A researcher's own spectral model on BREC: GIN over heat-kernel pair features, bounded by EPWL.

Every graph gets, once before training (the transform :class:`AddHeatKernel`), the heat kernels of
its Laplacian :math:`L = D - A` at a few fixed times,

.. math::
    \mathbf{k}_{uv} = \big[\, e^{-t_0 L},\ e^{-t_1 L},\ \dots \big]_{uv}, \qquad t_0 = 0
    \ (\text{the identity}),

computed in float64 from the eigendecomposition :math:`L = \sum_i \lambda_i v_i v_i^\top`. Each
channel is a spectral filter, :math:`e^{-tL} = \sum_\lambda e^{-t\lambda} P_\lambda` with
:math:`P_\lambda` the orthogonal projection onto the eigenspace of :math:`\lambda`: it does not
depend on the eigenvector basis (no sign or rotation ambiguity), only on the pairs
:math:`\{(\lambda, P_\lambda(u, v))\}` that EPWL refines by (eigenspace projection WL, Zhang,
Zhao & Maron 2024; the EPNN row of the PPGT paper's Table 1 places it between GD-WL and 3-WL).

The model is GD-WL-shaped, dense over all node pairs:

.. math::
    h_v^{(0)} = W^{(0)} \mathbf{k}_{vv}, \qquad
    h_v^{(k)} = \mathrm{MLP}^{(k)}\Big((1 + \epsilon^{(k)})\, h_v^{(k-1)}
                + \textstyle\sum_{u \in V} \mathrm{ReLU}\big(h_u^{(k-1)} + W^{(k)} \mathbf{k}_{vu}\big)\Big)

then sum pooling of every layer and an MLP head. Why EPWL over the Laplacian (``epwl-lap``) bounds
it: EPWL's first round gives ``v`` the multiset :math:`\{\{(\{(\lambda, P_\lambda(v,u))\}, \cdot)
: u\}\}`, in which ``u = v`` is recognisable (:math:`\sum_\lambda P_\lambda(v, u) = [u = v]`), so
it determines :math:`\mathbf{k}_{vv}` and :math:`h^{(0)}_v`; and if the round-``k`` EPWL colours
determine :math:`h^{(k-1)}`, the round-``k+1`` colour of ``v``, which holds
:math:`\{\{(\{(\lambda, P_\lambda(v,u))\}, \chi(u)) : u\}\}`, determines the multiset of
:math:`(\mathbf{k}_{vu}, h^{(k-1)}_u)` that layer ``k`` sums over. So ``wl_bound = "epwl-lap"``.
Float eigendecomposition makes equal kernels equal only up to about 1e-12, far below what the
network resolves.

Run it::

    wltools brec run --model examples/gin_heat.py:gin_heat --category basic --out runs/gin-heat

Only ``torch`` and ``torch_geometric`` are imported.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn
from torch_geometric.nn import global_add_pool
from torch_geometric.utils import scatter

__all__ = ["TIMES", "AddHeatKernel", "transform", "GINHeat", "gin_heat"]

#: Heat-kernel times; 0 gives the identity channel.
TIMES = (0.0, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)


class AddHeatKernel:
    """PyG-style transform: ``data.pair_index`` ``[2, n*n]`` (every ordered pair, row-major) and
    ``data.heat`` ``[n*n, len(times)]`` (row ``u*n + v`` is :math:`[e^{-tL}]_{uv}` per time)."""

    def __init__(self, times=TIMES) -> None:
        self.times = tuple(float(t) for t in times)
        if any(t < 0 for t in self.times) or not self.times:
            raise ValueError(f"times must be non-negative and not empty, got {times!r}")

    def __call__(self, data):
        n = int(data.num_nodes)
        A = torch.zeros(n, n, dtype=torch.float64)
        A[data.edge_index[0], data.edge_index[1]] = 1.0
        L = torch.diag(A.sum(1)) - A
        lam, V = torch.linalg.eigh(L)
        t = torch.tensor(self.times, dtype=torch.float64)
        filt = torch.exp(-t[:, None] * lam[None, :])  # [T, n]
        heat = torch.einsum("ui,ti,vi->uvt", V, filt, V)  # [n, n, T]
        idx = torch.arange(n)
        data.pair_index = torch.stack([idx.repeat_interleave(n), idx.repeat(n)])
        data.heat = heat.reshape(n * n, len(self.times)).to(torch.float32)
        return data

    def __repr__(self) -> str:  # shown in the run config (the cache key is the full state)
        return f"AddHeatKernel(times={self.times})"


#: The transform the runner applies to every graph before training (the factory carries it too).
transform = AddHeatKernel()


def _mlp(in_dim: int, hidden: int, out_dim: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, out_dim))


class GINHeat(nn.Module):
    """GIN over all node pairs with heat-kernel pair features: ``forward(batch)`` maps a PyG
    ``Batch`` (with :data:`transform` applied) to ``[num_graphs, out_dim]``."""

    wl_bound = "epwl-lap"  # see the module docstring

    def __init__(self, channels: int = len(TIMES), hidden: int = 64, layers: int = 4,
                 out_dim: int = 16) -> None:
        super().__init__()
        if layers < 1:
            raise ValueError(f"layers must be >= 1, got {layers}")
        self.channels = channels
        self.node_in = nn.Linear(channels, hidden)
        self.pair_in = nn.ModuleList(nn.Linear(channels, hidden) for _ in range(layers))
        self.mlps = nn.ModuleList(_mlp(hidden, hidden, hidden) for _ in range(layers))
        self.eps = nn.Parameter(torch.zeros(layers))
        self.head = _mlp(hidden * (layers + 1), hidden, out_dim)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Re-initialise every parameter."""
        self.node_in.reset_parameters()
        for lin in self.pair_in:
            lin.reset_parameters()
        for mods in (self.mlps, self.head):
            for m in mods.modules():
                if isinstance(m, nn.Linear):
                    m.reset_parameters()
        nn.init.zeros_(self.eps)

    def forward(self, batch) -> Tensor:
        if batch.heat.shape[-1] != self.channels:
            raise ValueError(f"batch.heat has {batch.heat.shape[-1]} channels, the model expects "
                             f"{self.channels} (apply AddHeatKernel)")
        dtype = self.node_in.weight.dtype
        heat = batch.heat.to(dtype)  # [P, T], P = sum of n_g^2
        v, u = batch.pair_index  # pair (v, u): row v*n + u of its graph, offset by batching
        diag = v == u
        h = torch.zeros(batch.num_nodes, self.node_in.out_features, dtype=dtype, device=heat.device)
        h[v[diag]] = self.node_in(heat[diag])  # h_v^(0) = W k_vv
        index, B = batch.batch, batch.num_graphs
        pooled = [global_add_pool(h, index, size=B)]
        for k, (lin, mlp) in enumerate(zip(self.pair_in, self.mlps)):
            msg = torch.relu(h[u] + lin(heat))  # [P, hidden]
            agg = scatter(msg, v, dim=0, dim_size=batch.num_nodes, reduce="sum")
            h = torch.relu(mlp((1 + self.eps[k]) * h + agg))
            pooled.append(global_add_pool(h, index, size=B))
        return self.head(torch.cat(pooled, dim=-1))


def gin_heat(hidden: int = 64, layers: int = 4, out_dim: int = 16) -> GINHeat:
    """The factory the runner calls (``--model examples/gin_heat.py:gin_heat``); it carries
    ``wl_bound`` and ``transform``."""
    return GINHeat(len(transform.times), hidden=hidden, layers=layers, out_dim=out_dim)


gin_heat.wl_bound = GINHeat.wl_bound
gin_heat.transform = transform
