"""Advice: the ranked actions of a position with their estimated values (``pagoda advise``)."""
