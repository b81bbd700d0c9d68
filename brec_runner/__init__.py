"""BREC runner: dataset, theoretical verdicts, the RPC protocol, and realised-vs-theory reports."""
