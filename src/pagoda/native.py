"""Which rules engine runs: the native core (Rust, the ``pagoda_native`` extension) or the Python reference.

The Python cores (:mod:`pagoda.tichu`, :mod:`pagoda.doudizhu`) are the readable reference; the native
core in ``native/`` gives the same answers faster, proven equal by the differential tests in
``tests/native/``. pagoda runs without the native core: ``engine="auto"`` picks it when it is built
(``make native``) and the Python reference when it is not.

>>> engine_name("python")
'python'
>>> engine_name("rust")
Traceback (most recent call last):
...
ValueError: unknown engine 'rust': one of auto, native, python
"""

from types import ModuleType

ENGINES = ("auto", "native", "python")


def module() -> ModuleType | None:
    """The native extension module, or None when it is not built."""
    try:
        import pagoda_native
    except ImportError:
        return None
    return pagoda_native


def available() -> bool:
    """Is the native core built and importable?"""
    return module() is not None


def engine_name(engine: str = "auto") -> str:
    """The engine ``engine`` resolves to: ``"native"`` or ``"python"`` (``"auto"``: native when built).

    Asking for ``"native"`` when it is not built is an error that says how to build it.
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}: one of {', '.join(ENGINES)}")
    if engine == "python":
        return "python"
    if available():
        return "native"
    if engine == "native":
        raise RuntimeError("the native core is not built: run `make native` (needs a Rust toolchain)")
    return "python"


def describe() -> str:
    """One line saying which engine ``auto`` uses, for logs and ``--help`` texts."""
    mod = module()
    if mod is None:
        return "rules engine: python (the native core is not built: `make native`)"
    return f"rules engine: native {mod.__version__} (Rust)"
