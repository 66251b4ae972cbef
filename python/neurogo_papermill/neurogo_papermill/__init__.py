"""papermill support for the neurogo Go kernel.

papermill ships translators for Python, R, Scala, Julia, ... but not Go.
Installing this package (``pip install python/neurogo_papermill``, done by
``scripts/start``) registers :class:`GoTranslator` for the kernel name
``neurogo`` and the language ``go`` as soon as papermill loads its
translators, so that::

    papermill -k neurogo in.ipynb out.ipynb -p n_neurons 50 -p label "x"

injects a cell of Go assignments after the cell tagged ``parameters``. The
variables must be declared in that cell (``var n_neurons = 100``); lists and
dicts become typed Go slices and maps when their elements share a type.
"""

__all__ = ["GoTranslator", "go_literal", "register"]


def __getattr__(name):
    # Lazy: this package is imported at every Python start (from a .pth
    # file) and must not import papermill then.
    if name in __all__:
        from . import translator

        return getattr(translator, name)
    raise AttributeError(name)
