"""The JSON Schema for path configurations, as installed with this package."""

from __future__ import annotations

from pathlib import Path

#: The schema's file name, in this package and at docs/ of the repository.
SCHEMA_NAME = "path-configuration.schema.json"


def schema_path() -> Path:
    """The JSON Schema (draft 2020-12) for path configurations that this
    package carries, ``pathconfig/path-configuration.schema.json``: the file
    ``pathconfig schema`` prints and the repository keeps at
    docs/path-configuration.schema.json. For a validator or an editor setting::

        schema = json.loads(pathconfig.schema_path().read_text(encoding="utf-8"))

    The build copies it into the package (``pip install``, a wheel, an
    editable install); importing ``pathconfig`` from a clone's source tree
    without a build gives the path where it would be.
    """
    return Path(__file__).resolve().parent / SCHEMA_NAME
