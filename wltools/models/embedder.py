""":class:`GraphEmbedder`, the base class of every registered model."""

from __future__ import annotations

from torch import nn

__all__ = ["GraphEmbedder"]


class GraphEmbedder(nn.Module):
    """Base class of the registered models: a PyG ``Data``/``Batch`` in, ``[num_graphs, out_dim]``
    out. Subclasses set ``invariant_encodings`` and define ``reset_parameters`` and ``forward``."""

    invariant_encodings: bool

    def num_parameters(self) -> int:
        """Number of trainable parameters."""
        return sum(p.numel() for p in self.parameters() if p.requires_grad)

    def prepare_batch(self, batch):
        """Attach data-only inputs to a collated ``batch`` that will be fed many times (a training
        batch, once per epoch), so ``forward`` reads them instead of recomputing them.

        The default does nothing. An override must leave every output unchanged (it computes the
        same tensors with the same code) and may skip a batch whose extra tensors would be too
        large; ``forward`` must work on unprepared batches.
        """
        return batch
