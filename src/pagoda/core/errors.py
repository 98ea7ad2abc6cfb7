"""The error hierarchy: every error pagoda raises for bad input is a :class:`ValueError`."""


class PagodaError(ValueError):
    """Base of every error about bad input; its message says what is wrong."""


class ParseError(PagodaError):
    """Text that is not valid notation (cards, actions, rules or records)."""


class IllegalAction(PagodaError):
    """An action the rules do not allow in this state; the state is left unchanged.

    Besides its message (English, with notation), it names the rule: ``reason`` is a stable code
    (``"does_not_beat"``, ``"wish_obliges"``, ...) and ``params`` what the message names, as
    numbers (seats from 0, ranks) or notation (cards, plays), so that a client can say it in the
    player's language, with names and card faces (docs/protocol.md lists the codes).

    >>> e = IllegalAction("2k does not beat Ar", "does_not_beat", play="2k", top="Ar")
    >>> str(e), e.reason, e.params
    ('2k does not beat Ar', 'does_not_beat', {'play': '2k', 'top': 'Ar'})
    >>> import pickle
    >>> pickle.loads(pickle.dumps(e)).params
    {'play': '2k', 'top': 'Ar'}
    """

    def __init__(self, message: str, reason: str = "illegal", **params: int | str) -> None:
        super().__init__(message)
        self.reason = reason
        self.params = params

    def __reduce__(self) -> tuple[object, ...]:
        return (_illegal, (str(self), self.reason, self.params))

    def again(self, message: str) -> "IllegalAction":
        """The same refusal with another message (e.g. the action's place in a record before it)."""
        return IllegalAction(message, self.reason, **self.params)


def _illegal(message: str, reason: str, params: dict[str, int | str]) -> IllegalAction:
    return IllegalAction(message, reason, **params)
