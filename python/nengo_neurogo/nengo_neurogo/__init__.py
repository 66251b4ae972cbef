"""nengo_neurogo: a Nengo backend that runs models on neurogo's Go simulator.

Change one line of an existing Nengo script::

    import nengo_neurogo
    with nengo_neurogo.Simulator(net) as sim:   # was nengo.Simulator(net)
        sim.run(1.0)

Nengo's own builder builds the model; neurogo's executor runs it. See
``Simulator`` for what runs where.
"""

from .simulator import Simulator

__version__ = "0.1.0"
__all__ = ["Simulator"]
