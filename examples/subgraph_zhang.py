r"""Zhang et al.'s Subgraph GNN for subgraph counting, as a standalone model file.

Zhang, Gai, Du, Ye, He, Wang, "Beyond Weisfeiler-Lehman: A Quantitative Framework for GNN
Expressiveness", ICLR 2024 (arXiv 2401.08514), Sec. 6 and Table 3 ("Subgraph GNN" row). Every
choice below is read from their code, ``github.com/subgraph23/homomorphism-expressivity`` (facts
only; none of their code is copied). It is the sibling of ``examples/mpnn_zhang.py`` (their MPNN):
the same layer, the same readout, the same protocol; only the aggregation and the input differ.

* **Size.** ``main.count.py``: ``--num_layer 5``, ``--dim_embed 96`` multiplied by 4/3 for ``Sub``
  (so 128), ``--max_dis 5``: 5 layers x 128, the ``5-5x128`` of their log names
  ``result.count/Sub-['cycle3', 'g']-5-5x128-512-0.001-{1,2,3,4}.txt``.
* **No normalisation.** ``GNN(..., bn=False)``: every MLP has biases and no BatchNorm.
* **States.** One state :math:`h[u, v]` per ordered node pair of a graph (``src/utils.py``,
  ``subgraph``): row :math:`u` is the subgraph rooted at :math:`u`.
* **Input** (``NodeEmbedding`` with ``enc_a=None``): the learned embedding of the shortest-path
  distance, ``Embedding(max_dis + 1, d)`` at ``clamp(dist(u, v), 0, max_dis)``. Their ``subgraph``
  computes distances in floats with ``inf`` for unreachable pairs and casts them to integers; on
  x86 (where their data loader runs) ``inf`` becomes the most negative int64, which the clamp maps to
  0, so an unreachable pair gets the same embedding as :math:`u = v`. This file does the same,
  explicitly, so that it computes their function on every platform (520 of the benchmark's 5,000
  graphs are disconnected).
* **Layer** (``L("uL")`` inside ``LWL``, ``enc_e=None``, ``gin=True``): messages along the second
  coordinate, inside each subgraph,

  .. math:: h[u, v] \leftarrow \mathrm{ReLU}\Big(\mathrm{MLP}\big((1 + \epsilon)\, h[u, v] +
            \textstyle\sum_{w \in N(v)} \mathrm{ReLU}(W h[u, w] + b)\big)\Big)

  with ``MLP = Linear(d, d) -> ReLU -> Linear(d, d)`` and :math:`\epsilon` a learned scalar
  initialised to 0.
* **Readout** (``Pool(gin=False)``): node :math:`u`'s vector is the sum of its subgraph's states
  :math:`\sum_v h[u, v]`, then ``ReLU(MLP(.))``; at graph level the **mean** over the graph's nodes;
  then ``predict = Linear(d, 2d) -> ReLU -> Linear(2d, 1)``.

**Head.** The runner puts ``Linear(2d, 1)`` on the model's output (``brec_runner/counting/train.py``),
so ``forward`` returns ``ReLU(Linear(d, 2d)(.))``: with the runner's head this is their ``predict``
MLP exactly. ``node_embeddings`` is their node-level readout (no mean over nodes).

**Bound.** Local aggregation inside each rooted subgraph, vertex-then-subgraph pooling: SWL(VS)
(Zhang, Feng, Du, He & Wang, ICML 2023, arXiv 2302.07090, Sec. 4), as in wltools' mapping of
Zhang et al.'s (ICLR 2024, Sec. 3) "Subgraph GNN" (``wltools/claims/hom_expressivity.py``). The
distance input adds nothing over node marking: local refinement from the marked root reaches
:math:`v` after :math:`\mathrm{dist}(u, v)` rounds (the mark moves one hop per round), so the stable
SWL(VS) colour of :math:`(u, v)` determines :math:`\mathrm{dist}(u, v)`, infinity included, and
with it this file's input (unreachable pairs included); colours that start finer by a function of
the stable colouring refine to the same stable partition.

Only ``torch`` and ``torch_geometric`` are imported. Run it::

    wltools count run --model examples/subgraph_zhang.py:subgraph_zhang --task cycle:3 \
        --level graph --seeds 1,2,3,4 --out runs/subgraph-zhang

It keeps :math:`\sum_G n_G^2` states of width ``dim`` per batch (about 210,000 for a batch of 512
benchmark graphs): a GPU trains it in minutes, a CPU core in hours.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn
from torch_geometric.utils import scatter, to_torch_csr_tensor

__all__ = ["SubgraphZhang", "subgraph_zhang", "pair_structure"]


def _mlp(d: int, hidden: int, out: int) -> nn.Sequential:
    """``Linear -> ReLU -> Linear`` with biases, no normalisation (their ``MLP(norm=False)``)."""
    return nn.Sequential(nn.Linear(d, hidden), nn.ReLU(), nn.Linear(hidden, out))


def pair_structure(edge_index: Tensor, index: Tensor, num_graphs: int, max_dis: int):
    """The pairs of a batch of graphs: ``(root, adj, dist)``.

    Pair ``(u, v)`` of graph ``g`` (global node ids) has row ``start[u] + (v - ptr[g])``, so each
    root's subgraph is a contiguous block. ``root[p]`` is ``u``; ``adj`` ([P, P], sparse CSR) has a 1
    at ``((u, v), (u, w))`` for each edge ``w -> v``; ``dist[p]`` is ``clamp(dist(u, v), 0, max_dis)``
    with unreachable pairs at 0 (module docstring, "Input").
    """
    n, device = index.numel(), index.device
    sizes = torch.bincount(index, minlength=num_graphs)  # [B]
    ptr = torch.cumsum(sizes, 0) - sizes  # [B]: first node of each graph
    per_root = sizes[index]  # [n]: pairs per root = its graph's size
    start = torch.cumsum(per_root, 0) - per_root  # [n]: first pair row of each root
    num_pairs = int(per_root.sum())
    root = torch.repeat_interleave(torch.arange(n, device=device), per_root)  # [P]
    local = torch.arange(num_pairs, device=device) - start[root]  # [P]: v - ptr[g]
    # every edge w -> v, once per root u of its graph: ((u, w) -> (u, v))
    src, dst = edge_index
    g = index[src]  # [E]
    copies = sizes[g]  # [E]
    e = torch.repeat_interleave(torch.arange(src.numel(), device=device), copies)  # [E']
    k = torch.arange(e.numel(), device=device) - torch.repeat_interleave(torch.cumsum(copies, 0) - copies, copies)
    u = ptr[g[e]] + k  # [E']: the root of each copy
    base = start[u] - ptr[g[e]]
    pair_edges = torch.stack([base + src[e], base + dst[e]])  # [2, E']: (u, w) -> (u, v)
    adj = to_torch_csr_tensor(pair_edges.flip(0), size=(num_pairs, num_pairs))  # row (u, v) sums (u, w)
    dist = _clamped_distances(adj, local == (root - ptr[index[root]]), max_dis)
    return root, adj, dist


def _clamped_distances(adj: Tensor, diagonal: Tensor, max_dis: int) -> Tensor:
    """``clamp(dist(u, v), 0, max_dis)`` per pair by breadth-first search inside each subgraph;
    unreachable pairs get 0 (their cast of ``inf``; module docstring)."""
    reached = diagonal.clone()  # [P]
    dist = torch.zeros(reached.numel(), dtype=torch.long, device=reached.device)
    frontier, step = reached.to(torch.float32)[:, None], 0
    while bool(frontier.any()):
        step += 1
        new = ((adj @ frontier)[:, 0] > 0) & ~reached  # [P]
        dist[new] = min(step, max_dis)
        reached |= new
        frontier = new.to(torch.float32)[:, None]
    return dist


class _Layer(nn.Module):
    """One layer (module docstring, "Layer")."""

    def __init__(self, d: int) -> None:
        super().__init__()
        self.linear = nn.Linear(d, d)
        self.mlp = _mlp(d, d, d)
        self.eps = nn.Parameter(torch.zeros(1))

    def forward(self, h: Tensor, adj: Tensor) -> Tensor:
        agg = adj @ torch.relu(self.linear(h))  # [P, d]: row (u, v) sums over w in N(v)
        return torch.relu(self.mlp((1.0 + self.eps) * h + agg))  # [P, d]


class SubgraphZhang(nn.Module):
    """``forward(batch) -> [num_graphs, 2 * dim]``; ``node_embeddings(batch) -> [num_nodes, 2 * dim]``."""

    wl_bound = "swl-vs"  # module docstring, "Bound"

    def __init__(self, dim: int = 128, layers: int = 5, max_dis: int = 5) -> None:
        super().__init__()
        if dim < 1 or layers < 1 or max_dis < 1:
            raise ValueError(f"dim, layers and max_dis must be >= 1, got {dim}, {layers}, {max_dis}")
        self.max_dis = max_dis
        self.distance = nn.Embedding(max_dis + 1, dim)
        self.layers = nn.ModuleList(_Layer(dim) for _ in range(layers))
        self.pool = _mlp(dim, dim, dim)
        self.predict_hidden = nn.Linear(dim, 2 * dim)

    def _pooled_nodes(self, batch) -> Tensor:
        """``ReLU(MLP(sum_v h[u, v]))`` per node ``u`` (their ``Pool`` before the mean)."""
        n = int(batch.num_nodes)
        with torch.no_grad():
            root, adj, dist = pair_structure(batch.edge_index, batch.batch, int(batch.num_graphs), self.max_dis)
        h = self.distance(dist)  # [P, d]
        for layer in self.layers:
            h = layer(h, adj)
        return torch.relu(self.pool(scatter(h, root, dim=0, dim_size=n, reduce="sum")))  # [n, d]

    def forward(self, batch) -> Tensor:
        x = scatter(self._pooled_nodes(batch), batch.batch, dim=0, dim_size=int(batch.num_graphs),
                    reduce="mean")  # [B, d]
        return torch.relu(self.predict_hidden(x))  # [B, 2d]

    def node_embeddings(self, batch) -> Tensor:
        return torch.relu(self.predict_hidden(self._pooled_nodes(batch)))  # [n, 2d]


def subgraph_zhang(dim: int = 128, layers: int = 5, max_dis: int = 5) -> SubgraphZhang:
    """The factory the runner calls (``--model examples/subgraph_zhang.py:subgraph_zhang``)."""
    return SubgraphZhang(dim=dim, layers=layers, max_dis=max_dis)


subgraph_zhang.wl_bound = SubgraphZhang.wl_bound
