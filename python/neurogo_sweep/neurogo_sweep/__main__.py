import sys

from .cli import main

# Guarded: the worker processes of a LocalCluster are started with
# multiprocessing's spawn method, which imports this module again (as
# __mp_main__) in each of them.
if __name__ == "__main__":
    sys.exit(main())
