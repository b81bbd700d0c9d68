"""Float forms of SPD, RD and RRWP for the models' positional encodings, from a PyG
``edge_index``. The same definitions as the exact forms (checked against them in the tests);
:mod:`wltools.distances` imports this module, and with it torch, only when one of them is used.
"""

from __future__ import annotations

import numpy as np
import torch

from .rrwp import check_steps
from .spd import components, spd_from_adjacency

__all__ = ["spd_float", "resistance_float", "rrwp_float"]


def _adjacency_from_edge_index(edge_index: torch.Tensor, num_nodes: int) -> np.ndarray:
    """Symmetric 0/1 int64 adjacency from a PyG ``edge_index`` (self-loops dropped)."""
    ei = torch.as_tensor(edge_index).detach().cpu().long().numpy()
    A = np.zeros((num_nodes, num_nodes), dtype=np.int64)
    if ei.size:
        A[ei[0], ei[1]] = 1
        A[ei[1], ei[0]] = 1
    np.fill_diagonal(A, 0)
    return A


def spd_float(edge_index: torch.Tensor, num_nodes: int) -> torch.Tensor:
    """Shortest-path distances as a LongTensor ``[n, n]``, ``-1`` = unreachable (same BFS as
    :func:`~wltools.distances.spd.spd_matrix`).

    Examples
    --------
    >>> import torch
    >>> spd_float(torch.tensor([[0, 1], [1, 0]]), 3)
    tensor([[ 0,  1, -1],
            [ 1,  0, -1],
            [-1, -1,  0]])
    """
    A = _adjacency_from_edge_index(edge_index, num_nodes)
    return torch.from_numpy(spd_from_adjacency(A))


def resistance_float(
    edge_index: torch.Tensor, num_nodes: int, dtype: torch.dtype = torch.float64
) -> torch.Tensor:
    """Resistance distances ``[n, n]`` in ``dtype`` (computed in float64); ``inf`` across components.

    Uses ``X = (L + sum_c J_c / |c|)^-1 = L^+ + sum_c J_c / |c|`` (block-wise over components
    ``c``), so ``R_ij = X_ii + X_jj - 2 X_ij`` within a component.

    Examples
    --------
    >>> import torch
    >>> resistance_float(torch.tensor([[0, 1, 1, 2], [1, 2, 0, 1]]), 4)
    tensor([[0., 1., 2., inf],
            [1., 0., 1., inf],
            [2., 1., 0., inf],
            [inf, inf, inf, 0.]], dtype=torch.float64)
    """
    A = _adjacency_from_edge_index(edge_index, num_nodes)
    n = num_nodes
    if n == 0:
        return torch.zeros((0, 0), dtype=dtype)
    Lap = np.diag(A.sum(axis=1)).astype(np.float64) - A
    same = np.zeros((n, n), dtype=bool)
    for c in components(A):
        Lap[np.ix_(c, c)] += 1.0 / len(c)
        same[np.ix_(c, c)] = True
    X = np.linalg.inv(Lap)
    d = np.diag(X)
    R = d[:, None] + d[None, :] - 2 * X
    R = (R + R.T) / 2
    np.fill_diagonal(R, 0.0)
    R = np.where(same, np.maximum(R, 0.0), np.inf)
    return torch.from_numpy(R).to(dtype)


def rrwp_float(
    edge_index: torch.Tensor, num_nodes: int, K: int, dtype: torch.dtype = torch.float32
) -> torch.Tensor:
    """RRWP (GRIT Eq. 1) as a Tensor ``[n, n, K]``: channel ``k`` is ``(D^-1 A)^k``, ``k < K``.

    Computed in float64 then cast to ``dtype``; isolated nodes give zero rows beyond the identity.

    Examples
    --------
    >>> import torch
    >>> P = rrwp_float(torch.tensor([[0, 1, 1, 2], [1, 0, 2, 1]]), 3, K=3)  # the path 0-1-2
    >>> P.shape
    torch.Size([3, 3, 3])
    >>> P[0, 2]  # (I, M, M^2) from node 0 to node 2
    tensor([0.0000, 0.0000, 0.5000])
    """
    check_steps(K)
    A = torch.from_numpy(_adjacency_from_edge_index(edge_index, num_nodes)).double()
    deg = A.sum(dim=1, keepdim=True)
    M = torch.where(deg > 0, A / deg.clamp(min=1), torch.zeros_like(A))
    P = torch.eye(num_nodes, dtype=torch.float64)
    out = [P]
    for _ in range(K - 1):
        P = P @ M
        out.append(P)
    return torch.stack(out, dim=-1).to(dtype)
