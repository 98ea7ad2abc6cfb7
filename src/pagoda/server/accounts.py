"""Accounts: names, argon2-hashed passwords, server-side sessions, and guests merged into accounts.

A player is known by a player id. A guest's id is signed into its guest token; an account has the
id of the guest that registered it, so the guest's tables and ratings are the account's from then
on. A guest who logs in to an existing account is *merged* into it: its id becomes an alias of the
account, its finished matches and their rating changes become the account's, its ratings merge
(:meth:`Accounts._merge_ratings`) and its live tables are handed over. An id
claimed by an account is never again accepted from a guest token: only a session speaks for it.

Sessions are random tokens in a signed cookie; the database keeps only their SHA-256, so neither
a copy of the database nor any response body holds a session token.

>>> check_name("Ada_Lovelace")
'ada_lovelace'
>>> check_name("ab")
Traceback (most recent call last):
...
pagoda.server.accounts.Refusal: a name has 3 to 20 characters, not 2
>>> check_name("Straße") == check_name("STRASSE")
True
"""

import asyncio
import hashlib
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from pagoda.core import PagodaError
from pagoda.server.store import (
    SqlStore,
    accounts,
    aliases,
    rating_changes,
    ratings,
    result_seats,
    sessions,
    tables,
)

NAME_MIN, NAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 256
#: Names nobody may take: they would pass for the server, a bot or a role.
RESERVED = frozenset(
    {"admin", "administrator", "anonymous", "bot", "guest", "moderator", "nobody", "pagoda", "root"}
    | {"server", "spectator", "system"}
)
#: Seconds a session lasts.
SESSION_LIFE = 30 * 86400.0


class Refusal(PagodaError):
    """A refused account request: an error ``code``, its ``params`` and the HTTP ``status``."""

    def __init__(self, code: str, message: str, status: int = 400, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.params = params


#: The one answer to a failed login, whether the name is unknown or the password wrong.
BAD_LOGIN = "the name and password do not match an account"


def check_name(name: object) -> str:
    """The key a name is unique by (NFKC, case-folded); :class:`Refusal` says why a name is refused."""
    if not isinstance(name, str):
        raise Refusal("name_missing", "name is a string")
    text = unicodedata.normalize("NFKC", name)
    if not NAME_MIN <= len(text) <= NAME_MAX:
        raise Refusal(
            "name_length",
            f"a name has {NAME_MIN} to {NAME_MAX} characters, not {len(text)}",
            min=NAME_MIN,
            max=NAME_MAX,
            length=len(text),
        )
    for ch in text:
        if not (ch.isalnum() or ch in "_-"):
            shown = ch if ch.isprintable() and not ch.isspace() else f"U+{ord(ch):04X}"
            raise Refusal(
                "name_chars",
                f"a name is letters, digits, _ and -; {shown!r} is none of these",
                char=shown,
            )
    if not text[0].isalnum():
        raise Refusal("name_start", "a name starts with a letter or a digit")
    key = text.casefold()
    if key in RESERVED or key.startswith(("bot-", "bot_")):
        raise Refusal("name_reserved", f"the name {text!r} is reserved", name=text)
    return key


def limit_key(name: str) -> str:
    """The key login attempts at a name are counted by: the form names are unique by (NFKC,
    case-folded), so that no other spelling of a name gets attempts of its own.

    >>> limit_key("ＡＤＡ") == limit_key("ada") == limit_key("Ada")
    True
    """
    return unicodedata.normalize("NFKC", name).casefold()[: 4 * NAME_MAX]


def check_password(password: object, name: str) -> str:
    """The password, if it may be one; :class:`Refusal` says why not.

    >>> check_password("correct horse", "ada")
    'correct horse'
    >>> check_password("short", "ada")
    Traceback (most recent call last):
    ...
    pagoda.server.accounts.Refusal: a password has 8 to 256 characters
    """
    if not isinstance(password, str):
        raise Refusal("password_missing", "password is a string")
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Refusal(
            "password_length",
            f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters",
            min=PASSWORD_MIN,
            max=PASSWORD_MAX,
        )
    if "\x00" in password:
        raise Refusal("password_chars", "a password holds no NUL character")
    if unicodedata.normalize("NFKC", password).casefold() == unicodedata.normalize("NFKC", name).casefold():
        raise Refusal("password_is_name", "the password may not be the name")
    return password


def token_hash(token: str) -> str:
    """What the database keeps of a session token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Account:
    """An account as the endpoints use it (never with its password hash)."""

    id: int
    name: str
    player: str
    created: float

    def public(self) -> dict[str, Any]:
        """What anyone may see of it."""
        return {"name": self.name, "created": round(self.created, 3)}


async def identities(store: SqlStore, players: list[str]) -> dict[str, tuple[str, str]]:
    """Of ``players``, those that are accounts or merged guests: each one's account player id and
    account name."""
    if not players:
        return {}
    async with store.engine.connect() as conn:
        own = select(accounts.c.player, accounts.c.name).where(accounts.c.player.in_(players))
        merged = (
            select(aliases.c.player, accounts.c.player, accounts.c.name)
            .join(accounts, accounts.c.id == aliases.c.account_id)
            .where(aliases.c.player.in_(players))
        )
        found = {str(r[0]): (str(r[0]), str(r[1])) for r in (await conn.execute(own)).all()}
        found.update({str(r[0]): (str(r[1]), str(r[2])) for r in (await conn.execute(merged)).all()})
    return found


class Accounts:
    """The accounts, sessions and aliases in the server's store.

    ``time_cost`` and ``memory_kib`` are argon2id's (the defaults are argon2-cffi's, RFC 9106's
    second recommendation); hashing runs in a worker thread, never on the event loop.
    """

    def __init__(self, store: SqlStore, time_cost: int = 3, memory_kib: int = 65536) -> None:
        self.store = store
        self.hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=1)
        # Verified against when the name is unknown, so that both failures take as long.
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))

    async def _hash(self, password: str) -> str:
        return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, stored: str, password: str) -> bool:
        def check() -> bool:
            try:
                return self.hasher.verify(stored, password)
            except (VerificationError, InvalidHashError):
                return False

        return await asyncio.to_thread(check)

    @staticmethod
    def _account(row: Any) -> Account:
        return Account(row.id, row.name, row.player, row.created)

    async def register(self, name: object, password: object, player: str) -> Account:
        """A new account playing as ``player``; :class:`Refusal` when the name is taken or bad."""
        key = check_name(name)
        assert isinstance(name, str)
        password = check_password(password, name)
        text = unicodedata.normalize("NFKC", name)
        hashed = await self._hash(password)
        now = time.time()
        try:
            async with self.store._write, self.store.engine.begin() as conn:
                taken = (await conn.execute(select(accounts.c.id).where(accounts.c.name_key == key))).first()
                if taken is not None:
                    raise Refusal("name_taken", f"the name {text!r} is taken", 409, name=text)
                claimed = await self._owner_of(conn, player)
                if claimed is not None:
                    raise Refusal("already_registered", "this guest already belongs to an account", 409)
                result = await conn.execute(
                    insert(accounts).values(
                        name=text, name_key=key, player=player, password=hashed, created=now, updated=now
                    )
                )
                made = result.inserted_primary_key
                assert made is not None
                account_id = int(made[0])
        except IntegrityError:  # registered by another process between the check and the insert
            raise Refusal("name_taken", f"the name {text!r} is taken", 409, name=text) from None
        return Account(account_id, text, player, now)

    async def login(self, name: object, password: object) -> Account:
        """The account whose name and password these are; :class:`Refusal` (one text for both
        failures) otherwise. An outdated hash is upgraded on the way."""
        if not isinstance(name, str) or not isinstance(password, str):
            raise Refusal("bad_request", "name and password are strings")
        if len(password) > PASSWORD_MAX or len(name) > 4 * NAME_MAX:
            raise Refusal("bad_login", BAD_LOGIN, 401)
        key = unicodedata.normalize("NFKC", name).casefold()
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(accounts).where(accounts.c.name_key == key))).first()
        if row is None:
            await self._verify(self._dummy, password)
            raise Refusal("bad_login", BAD_LOGIN, 401)
        if not await self._verify(row.password, password):
            raise Refusal("bad_login", BAD_LOGIN, 401)
        if self.hasher.check_needs_rehash(row.password):
            await self._set_password(row.id, password)
        return self._account(row)

    async def _set_password(self, account_id: int, password: str) -> None:
        hashed = await self._hash(password)
        async with self.store._write, self.store.engine.begin() as conn:
            query = update(accounts).where(accounts.c.id == account_id)
            await conn.execute(query.values(password=hashed, updated=time.time()))

    async def change_password(self, account: Account, old: object, new: object, keep: str) -> None:
        """Set a new password after checking the old one; every other session is ended (``keep``
        is the hash of the session that asked)."""
        if not isinstance(old, str) or not isinstance(new, str):
            raise Refusal("bad_request", "old and new are strings")
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(accounts).where(accounts.c.id == account.id))).first()
        if row is None or len(old) > PASSWORD_MAX or not await self._verify(row.password, old):
            raise Refusal("wrong_password", "the current password is not right", 403)
        check_password(new, account.name)
        await self._set_password(account.id, new)
        async with self.store._write, self.store.engine.begin() as conn:
            gone = delete(sessions).where(sessions.c.account_id == account.id, sessions.c.token_hash != keep)
            await conn.execute(gone)

    # ------------------------------------------------------------------ sessions

    async def open_session(self, account: Account) -> str:
        """A new session token for ``account`` (the database keeps its hash)."""
        token = secrets.token_urlsafe(32)
        now = time.time()
        async with self.store._write, self.store.engine.begin() as conn:
            await conn.execute(
                insert(sessions).values(
                    token_hash=token_hash(token),
                    account_id=account.id,
                    created=now,
                    expires=now + SESSION_LIFE,
                )
            )
        return token

    async def session(self, token: str) -> Account | None:
        """The account of a live session token, or None."""
        query = (
            select(accounts)
            .join(sessions, sessions.c.account_id == accounts.c.id)
            .where(sessions.c.token_hash == token_hash(token), sessions.c.expires > time.time())
        )
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else self._account(row)

    async def close_session(self, token: str) -> None:
        """End a session (and drop the expired ones)."""
        async with self.store._write, self.store.engine.begin() as conn:
            await conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash(token)))
            await conn.execute(delete(sessions).where(sessions.c.expires <= time.time()))

    # ------------------------------------------------------------------ identities

    async def _owner_of(self, conn: Any, player: str) -> int | None:
        row = (await conn.execute(select(accounts.c.id).where(accounts.c.player == player))).first()
        if row is None:
            row = (await conn.execute(select(aliases.c.account_id).where(aliases.c.player == player))).first()
        return None if row is None else int(row[0])

    async def claimed(self, player: str) -> bool:
        """Does ``player`` belong to an account (as its own id or a merged guest's)?"""
        async with self.store.engine.connect() as conn:
            return await self._owner_of(conn, player) is not None

    async def ids(self, account: Account) -> list[str]:
        """Every player id that is ``account``: its own, then the guests merged into it."""
        query = select(aliases.c.player).where(aliases.c.account_id == account.id).order_by(aliases.c.created)
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [account.player, *(r[0] for r in rows)]

    async def by_name(self, name: str) -> Account | None:
        """The account of a name (any case), or None."""
        key = unicodedata.normalize("NFKC", name).casefold()
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(accounts).where(accounts.c.name_key == key))).first()
        return None if row is None else self._account(row)

    async def names(self, players: list[str]) -> dict[str, str]:
        """The account names of those of ``players`` that are accounts (or merged guests)."""
        if not players:
            return {}
        async with self.store.engine.connect() as conn:
            own = select(accounts.c.player, accounts.c.name).where(accounts.c.player.in_(players))
            merged = (
                select(aliases.c.player, accounts.c.name)
                .join(accounts, accounts.c.id == aliases.c.account_id)
                .where(aliases.c.player.in_(players))
            )
            rows = [*(await conn.execute(own)).all(), *(await conn.execute(merged)).all()]
        return {r[0]: r[1] for r in rows}

    async def merge(self, guest: str, account: Account) -> bool:
        """Merge the guest ``guest`` into ``account``: an alias from then on, its stored tables
        owned by the account, its finished matches and rating changes the account's, and its
        ratings merged (see :meth:`_merge_ratings`). False (nothing done) when the guest already
        belongs to an account."""
        now = time.time()
        async with self.store._write, self.store.engine.begin() as conn:
            if guest == account.player or await self._owner_of(conn, guest) is not None:
                return False
            await conn.execute(insert(aliases).values(player=guest, account_id=account.id, created=now))
            await conn.execute(update(tables).where(tables.c.owner == guest).values(owner=account.player))
            # Its finished matches name the account, as a match settled after the merge does.
            seats = update(result_seats).where(result_seats.c.player == guest)
            await conn.execute(seats.values(player=account.player))
            # Each match's change stays with the history (the account's own row wins in a match
            # where both sat: one change per match and player).
            own = select(rating_changes.c.table_id).where(rating_changes.c.player == account.player)
            moved = update(rating_changes).where(
                rating_changes.c.player == guest, rating_changes.c.table_id.not_in(own)
            )
            await conn.execute(moved.values(player=account.player))
            await self._merge_ratings(conn, guest, account.player, now)
        return True

    @staticmethod
    async def _merge_ratings(conn: Any, guest: str, player: str, now: float) -> None:
        """Give ``player`` the guest's ratings: in a game only the guest is rated in, the guest's
        rating; in a game both are, the rating (mu, sigma) of the one with more rated games (the
        account's on a tie), with the games and wins of both. The guest keeps no rating."""
        query = select(ratings).where(ratings.c.player.in_([guest, player]))
        if conn.dialect.name == "postgresql":
            query = query.with_for_update()
        rows = (await conn.execute(query)).all()
        mine = {r.game: r for r in rows if r.player == player}
        for theirs in (r for r in rows if r.player == guest):
            at = (ratings.c.player == guest) & (ratings.c.game == theirs.game)
            have = mine.get(theirs.game)
            if have is None:
                await conn.execute(update(ratings).where(at).values(player=player, updated=now))
                continue
            kept = theirs if theirs.games > have.games else have
            await conn.execute(
                update(ratings)
                .where((ratings.c.player == player) & (ratings.c.game == theirs.game))
                .values(
                    mu=kept.mu,
                    sigma=kept.sigma,
                    ordinal=kept.ordinal,
                    games=have.games + theirs.games,
                    wins=have.wins + theirs.wins,
                    updated=now,
                )
            )
            await conn.execute(delete(ratings).where(at))
