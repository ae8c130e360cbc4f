"""The package version (one place; read by the build and the PDF producer line)."""

__version__ = "0.1.0"
