"""The one build setting pyproject.toml cannot express: the package list.

It is every package under ``inspector/`` plus ``inspector.resources``, which pyproject.toml's
``[tool.setuptools.package-dir]`` maps to the top-level ``resources/`` folder. pyproject.toml holds
everything else.
"""

from setuptools import find_namespace_packages, setup

setup(packages=[*find_namespace_packages(include=["inspector*"]), "inspector.resources"])
