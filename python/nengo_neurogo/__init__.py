"""Nengo backend of neurogo (in preparation).

The design of the exchange between Nengo's builder and neurogo's Go
executor is in DESIGN.md; the operator census of Nengo's test suite that
it rests on is in CENSUS.md, produced by the tools in ``tools``.
"""
