"""The error hierarchy: every error pagoda raises for bad input is a :class:`ValueError`."""


class PagodaError(ValueError):
    """Base of every error about bad input; its message says what is wrong."""


class ParseError(PagodaError):
    """Text that is not valid notation (cards, actions, rules or records)."""


class IllegalAction(PagodaError):
    """An action the rules do not allow in this state; the state is left unchanged."""
