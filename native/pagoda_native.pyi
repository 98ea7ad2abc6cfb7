"""Type stubs of the native extension (kept in step with native/src/python/)."""

__version__: str
