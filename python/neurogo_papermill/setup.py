"""Installs neurogo_papermill and a .pth file that registers the Go
translator whenever papermill's translators module is imported."""
import os

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithPth(build_py):
    def run(self):
        super().run()
        self.copy_file(
            os.path.join(os.path.dirname(__file__), "neurogo_papermill.pth"),
            os.path.join(self.build_lib, "neurogo_papermill.pth"),
        )


setup(cmdclass={"build_py": BuildPyWithPth})
