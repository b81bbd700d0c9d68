"""What a run writes and why it can be trusted: run directories, identities, checksums, locks.

:mod:`~brec_runner.records.record` is the only writer of a run directory's files and checks every
line it reads back; :mod:`~brec_runner.records.identity` is a record's identity (settings hash, code
version, checksum); :mod:`~brec_runner.records.upgrade` stamps an older run with the current format;
:mod:`~brec_runner.records.fileio` and :mod:`~brec_runner.records.locks` read and write files safely,
one writer at a time; :mod:`~brec_runner.records.source_closure` keys a cache on the source files a
computation imports.
"""
