"""The binding's version (the library's is :func:`pathconfig.library_version`)."""

__version__ = "1.1.0"
