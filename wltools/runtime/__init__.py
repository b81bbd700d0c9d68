"""The machine a result is computed on: memory budgets (:mod:`.memory`) and provenance
(:mod:`.provenance`: versions, revision, hardware)."""
