"""wltools: exact WL-family colour refinement, graph transformers and BREC evaluation."""

__version__ = "0.1.0"
