r"""Zhang et al.'s MPNN for subgraph counting, as a standalone model file.

Zhang, Gai, Du, Ye, He, Wang, "Beyond Weisfeiler-Lehman: A Quantitative Framework for GNN
Expressiveness", ICLR 2024 (arXiv 2401.08514), Sec. 6 and Table 3 ("MPNN" row). Every choice below
is read from their code, ``github.com/subgraph23/homomorphism-expressivity`` (facts only; none of
their code is copied):

* **Size.** ``main.count.py``: ``--num_layer 5``, ``--dim_embed 96`` multiplied by 4/3 for ``MP``
  (so 128), ``max_dis = 0`` for ``MP``: 5 layers x 128, the ``5x128`` of their log names
  ``result.count/MP-['cycle3', 'g']-0-5x128-512-0.001-{1,2,3,4}.txt``.
* **No normalisation.** ``main.count.py`` builds ``GNN(..., bn=False)``: every MLP has biases and
  no BatchNorm, and the per-layer BatchNorm is the identity (``src/model.py``, ``MLP`` and ``LWL``).
* **Input.** ``src/dataset.py`` gives every node the constant ``x = 1``; with ``enc_a=None`` it is
  not embedded, and the only input is the learned distance embedding ``Embedding(max_dis + 1, d)``
  at distance ``clamp(d, 0, max_dis) = 0``: one learned vector :math:`e` for every node
  (``NodeEmbedding``). Here: ``self.start`` (``nn.Embedding(1, d)``, its default N(0, 1) init).
* **Layer** (``L("vL")`` inside ``LWL``, ``enc_e=None``, ``gin=True``):

  .. math:: h_v \leftarrow \mathrm{ReLU}\Big(\mathrm{MLP}\big((1 + \epsilon)\, h_v +
            \textstyle\sum_{w \in N(v)} \mathrm{ReLU}(W h_w + b)\big)\Big)

  with ``MLP = Linear(d, d) -> ReLU -> Linear(d, d)`` and :math:`\epsilon` a learned scalar
  initialised to 0.
* **Readout** (``Pool(gin=False)`` with task ``"g"``): each node's vector is the sum of its rows
  ``h[u, .]``, then ``ReLU(MLP(.))`` (``MLP = Linear(d, d) -> ReLU -> Linear(d, d)``), then the
  **mean** over the graph's nodes, then ``predict = Linear(d, 2d) -> ReLU -> Linear(2d, 1)``.

**Why one copy is enough.** Their MPNN runs on all :math:`n^2` node pairs ``(u, v)``
(``src/utils.py``, ``subgraph``), passing messages along the first coordinate only (``index_vL``):
for each second coordinate ``v`` it is one copy of the MPNN above on the whole graph. With
``max_dis = 0`` every pair starts from the same vector :math:`e`, so the :math:`n` copies are the
same function and ``h[u, v] = h_u`` for every ``v``; the readout's sum over ``v`` is then
:math:`n \cdot h_u`. This file runs the one copy and multiplies by the graph's :math:`n`: the same
function of the graph, :math:`n` times cheaper.

**Head.** The runner puts ``Linear(2d, 1)`` on the model's output (``brec_runner/counting/train.py``),
so ``forward`` returns ``ReLU(Linear(d, 2d)(.))``: with the runner's head this is their
``predict`` MLP exactly. ``node_embeddings`` is their node-level readout (``Pool`` with task
``"v"``: no mean over nodes).

Only ``torch`` and ``torch_geometric`` are imported. Run it::

    wltools count run --model examples/mpnn_zhang.py:mpnn_zhang --task cycle:3 --level graph \
        --seeds 1,2,3,4 --out runs/mpnn-zhang
"""

from __future__ import annotations

import torch
from torch import Tensor, nn
from torch_geometric.utils import scatter, to_torch_csr_tensor

__all__ = ["MPNNZhang", "mpnn_zhang"]


def _mlp(d: int, hidden: int, out: int) -> nn.Sequential:
    """``Linear -> ReLU -> Linear`` with biases, no normalisation (their ``MLP(norm=False)``)."""
    return nn.Sequential(nn.Linear(d, hidden), nn.ReLU(), nn.Linear(hidden, out))


class _Layer(nn.Module):
    """One message-passing layer (module docstring, "Layer")."""

    def __init__(self, d: int) -> None:
        super().__init__()
        self.linear = nn.Linear(d, d)
        self.mlp = _mlp(d, d, d)
        self.eps = nn.Parameter(torch.zeros(1))

    def forward(self, h: Tensor, adj: Tensor) -> Tensor:
        agg = adj @ torch.relu(self.linear(h))  # [n, d]: row v sums the messages of v's neighbours
        return torch.relu(self.mlp((1.0 + self.eps) * h + agg))  # [n, d]


class MPNNZhang(nn.Module):
    """``forward(batch) -> [num_graphs, 2 * dim]``; ``node_embeddings(batch) -> [num_nodes, 2 * dim]``."""

    wl_bound = "1wl"  # a message-passing network on constant inputs (Xu et al. ICLR 2019, Lemma 2)

    def __init__(self, dim: int = 128, layers: int = 5) -> None:
        super().__init__()
        if dim < 1 or layers < 1:
            raise ValueError(f"dim and layers must be >= 1, got {dim}, {layers}")
        self.start = nn.Embedding(1, dim)
        self.layers = nn.ModuleList(_Layer(dim) for _ in range(layers))
        self.pool = _mlp(dim, dim, dim)
        self.predict_hidden = nn.Linear(dim, 2 * dim)

    def _pooled_nodes(self, batch) -> Tensor:
        """``ReLU(MLP(n_G * h_u))`` per node ``u`` of graph ``G`` (their ``Pool`` before the mean)."""
        index = batch.batch  # [n]
        n = int(batch.num_nodes)
        h = self.start.weight.expand(n, -1)  # [n, d]
        # adj[v, w] = 1 for each edge w -> v (sparse CSR; the same sums as a scatter, ~3x faster on CPU)
        adj = to_torch_csr_tensor(batch.edge_index.flip(0), size=(n, n))
        for layer in self.layers:
            h = layer(h, adj)
        sizes = torch.bincount(index, minlength=int(batch.num_graphs)).to(h.dtype)  # [B]
        return torch.relu(self.pool(sizes[index, None] * h))  # [n, d]

    def forward(self, batch) -> Tensor:
        x = scatter(self._pooled_nodes(batch), batch.batch, dim=0, dim_size=int(batch.num_graphs),
                    reduce="mean")  # [B, d]
        return torch.relu(self.predict_hidden(x))  # [B, 2d]

    def node_embeddings(self, batch) -> Tensor:
        return torch.relu(self.predict_hidden(self._pooled_nodes(batch)))  # [n, 2d]


def mpnn_zhang(dim: int = 128, layers: int = 5) -> MPNNZhang:
    """The factory the runner calls (``--model examples/mpnn_zhang.py:mpnn_zhang``)."""
    return MPNNZhang(dim=dim, layers=layers)


mpnn_zhang.wl_bound = MPNNZhang.wl_bound
