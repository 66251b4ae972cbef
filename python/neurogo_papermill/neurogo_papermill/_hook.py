"""Registers the Go translator when papermill.translators is imported.

Imported from a .pth file at interpreter start: it only installs a tiny
import hook (no papermill import), so Python start-up stays fast.
"""
import importlib.abc
import importlib.machinery
import sys

_TARGET = "papermill.translators"


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname != _TARGET:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return None
        loader = spec.loader
        original = loader.exec_module

        def exec_module(module):
            original(module)
            translator = sys.modules.get("neurogo_papermill.translator")
            if translator is not None and not hasattr(translator, "register"):
                # papermill is being imported by neurogo_papermill.translator
                # itself, which registers the translator when it has loaded
                return
            try:
                from neurogo_papermill.translator import register

                register(module)
            except Exception as exc:  # never break papermill itself
                print(f"neurogo_papermill: could not register the Go translator: {exc}", file=sys.stderr)

        loader.exec_module = exec_module
        return spec


if not any(isinstance(f, _Finder) for f in sys.meta_path):
    sys.meta_path.insert(0, _Finder())
