"""Where the shipped resource files are: icons, the ``.desktop`` file and the tokenizer rank files (no Qt).

They live in the repository's top-level ``resources/`` folder. The build maps that folder into the
package as ``inspector/resources`` (``package-dir`` in pyproject.toml for the wheel and sdist,
``datas`` in packaging/mcp-lens.spec for the bundle); an editable install or a source checkout reads
the top-level folder itself.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

# The repository's top-level resources/, as seen from inspector/resource_files.py in a checkout.
_SOURCE_TREE = Path(__file__).resolve().parent.parent / "resources"


def resource_dir() -> Path:
    """The resources folder: ``inspector/resources`` in a wheel or the bundle, else the checkout's ``resources/``."""
    installed = Path(str(resources.files("inspector"))) / "resources"
    return installed if installed.is_dir() else _SOURCE_TREE


def resource_path(*parts: str) -> Path:
    """A file under the resources folder, e.g. ``resource_path("tokenizers", "o200k_base.tiktoken.gz")``."""
    return resource_dir().joinpath(*parts)
