"""Source text of ``TinyGNN``, the smallest model a researcher would write (plain torch, no wltools
import), shared by the tests that write model files for the BREC runner (imported by test modules
as ``tiny_gnn``; tests/conftest.py puts this folder on ``sys.path``)."""


def tiny_gnn_source(out_dim: int = 16, wl_bound: bool = True) -> str:
    """``class TinyGNN``: constant inputs, one sum aggregation, sum pooling (bounded by 1-WL), the
    class attribute ``wl_bound = "1wl"`` when ``wl_bound``; needs ``torch`` and ``nn`` imported."""
    bound = '    wl_bound = "1wl"\n\n' if wl_bound else ""
    return f'''
class TinyGNN(nn.Module):
    """Constant inputs, one sum aggregation, sum pooling: bounded by 1-WL."""

{bound}    def __init__(self, hidden=8, out_dim={out_dim}):
        super().__init__()
        self.lin1 = nn.Linear(1, hidden)
        self.out = nn.Linear(hidden, out_dim)

    def reset_parameters(self):
        self.lin1.reset_parameters()
        self.out.reset_parameters()

    def forward(self, batch):
        ei = batch.edge_index
        h = torch.relu(self.lin1(torch.ones(batch.num_nodes, 1)))
        h = torch.tanh(h + torch.zeros_like(h).index_add(0, ei[1], h[ei[0]]))
        g = torch.zeros(batch.num_graphs, h.shape[-1]).index_add(0, batch.batch, h)
        return self.out(g)
'''


def tiny_model_file(path, extra: str = ""):
    """Write a model file at ``path``: the imports, :func:`tiny_gnn_source`, the factory ``tiny()``,
    then ``extra`` (more models and factories); returns ``path``."""
    path.write_text("import torch\nfrom torch import nn\n" + tiny_gnn_source() + "\n\ndef tiny():\n    return TinyGNN()\n"
                    + extra)
    return path
