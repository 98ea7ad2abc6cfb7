"""Every error code of the account endpoints has its text in each of the client's languages, so
the account screen says a refusal in the player's language and never shows the server's English."""

import ast
import re
from pathlib import Path

import pagoda.server.accounts
import pagoda.server.app

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = ROOT / "client" / "src" / "lib" / "i18n.ts"
#: The endpoints the account screens call, and the helper that refuses past a rate limit.
ENDPOINTS = {"register", "login", "logout", "password", "too_many"}
#: Refusals of a malformed request, said by the server's reason (the client's ``error.generic``):
#: the account screen never sends one.
GENERIC = {"bad_request", "bad_json", "bad_origin", "too_large", "timeout"}


def _strings(calls: list[ast.Call], index: int) -> set[str]:
    out = set()
    for call in calls:
        arg = call.args[index] if len(call.args) > index else None
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            out.add(arg.value)
    return out


def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name
    ]


def account_codes() -> set[str]:
    """The codes ``Refusal`` carries in :mod:`pagoda.server.accounts`, and those the account
    endpoints of :mod:`pagoda.server.app` answer with ``_fail``."""
    accounts = ast.parse(Path(pagoda.server.accounts.__file__).read_text())
    app = ast.parse(Path(pagoda.server.app.__file__).read_text())
    endpoints = [
        n
        for n in ast.walk(app)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name in ENDPOINTS
    ]
    assert {n.name for n in endpoints} == ENDPOINTS
    codes = _strings(_calls(accounts, "Refusal"), 0)
    for fn in endpoints:
        codes |= _strings(_calls(fn, "_fail"), 1)
    return codes - GENERIC


def catalogues() -> dict[str, str]:
    """Each language's catalogue in the client's source, as text."""
    text = CATALOGUES.read_text()
    found = dict(re.findall(r"\nconst (en|de|ko|ja)\b[^=]*= \{\n(.*?)\n\};", text, re.S))
    assert sorted(found) == ["de", "en", "ja", "ko"]
    return found


def test_the_account_codes_are_read_from_the_server() -> None:
    codes = account_codes()
    # (a few that must be among them: a name refused, a wrong login, the rate limit)
    assert {"name_length", "name_taken", "bad_login", "too_many_attempts", "logged_in"} <= codes
    assert not codes & GENERIC


def test_every_account_code_has_its_text_in_every_language() -> None:
    codes = account_codes()
    for lang, catalogue in catalogues().items():
        keys = set(re.findall(r"^\s*'error\.([a-z_]+)':", catalogue, re.M))
        assert sorted(codes - keys) == [], lang
