"""The client's protocol types are the ones generated from the server's models."""

from pathlib import Path

from pagoda.server.messages import CLIENT, SERVER
from pagoda.server.typescript import typescript

WIRE = Path(__file__).resolve().parents[2] / "client" / "src" / "lib" / "wire.ts"


def test_the_committed_types_are_what_the_generator_writes() -> None:
    # (`make wire` writes them again; an edit by hand or a model changed without it fails here)
    assert WIRE.read_text(encoding="utf-8") == typescript()


def test_every_message_of_both_directions_has_its_type() -> None:
    text = typescript()
    for schemas in (CLIENT, SERVER):
        for kind, schema in schemas.items():
            assert f'export interface {schema["title"]} {{\n  type: "{kind}";' in text
    assert "export type ClientMessage = Hello | Sit | Stand | Swap | Bot | Unbot | Start | Act" in text
    # A field the model makes optional is optional in TypeScript, a required one is not.
    assert 'export interface DoudizhuGame {\n  game: "doudizhu";' in text
    assert 'export interface Hello {\n  type: "hello";\n  protocol: 1;\n  name?: string;' in text


def test_the_http_bodies_answers_and_error_codes_have_their_types() -> None:
    text = typescript()
    assert "export interface Register {\n  name: string;\n  password: string;\n}" in text
    assert (
        "export interface Me {\n  player: string;\n  guest: string | null;\n  account: AccountInfo | null;\n}"
        in text
    )
    assert "export type Logout = Record<string, never>;" in text
    # A union of literals the client names is a constant list and its type, and fields use the name.
    assert 'export const API_ERROR_CODES = ["bad_json", ' in text
    assert "export type ApiErrorCode = (typeof API_ERROR_CODES)[number];" in text
    assert "  error: ApiErrorCode;\n" in text
    assert "  code: ErrorCode;\n" in text
    assert "export interface TableOptions {\n  game: GameName;" in text
    # the table request's body too: the lobby reads the fields of this model
    assert "export interface CreateTable {\n  game: GameName;\n  preset?: string | null;" in text
