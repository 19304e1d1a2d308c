"""The errors of input that cannot describe a hand, below every module that raises them.

:class:`HandError` is what every front end turns into one line (the command line's exit 2, the
web's JSON error, an invalid score in a batch); :class:`UnknownKeyError` is the one kind the
front ends answer apart: a key of a structured form that nobody reads is a misspelling of the
request itself (``flag:`` for ``flags:``), never a hand that is no win, so the web answers it 422
like any body that does not fit its form. They live here, not in :mod:`scoring.hand`, because the
situation's parser (:mod:`scoring.context`) sits below the hand and raises them too.
"""

from __future__ import annotations


class HandError(ValueError):
    """Input that cannot describe a hand; the message names the field and the problem."""


class UnknownKeyError(HandError):
    """A structured form's key that nobody reads; the message lists the keys the form knows."""
