"""Answers worked out from runs' summaries, kept while those summaries stand: the Models view asks
the same questions of a study each time it is shown (its groups, their bars and verdicts, the
factors' correlations: 0.3 s of engine time on 8,640 runs), and the answer to the same question of
the same runs is the same.

The store keeps each run's summary until its run changes (a new revision: tags, drive state) and
then reads a new one, so an answer is current exactly while every summary it was worked out from is
the very object the store gives now. The kept answer holds those objects, so none can be freed and
another take its identity.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TypeVar

from pydantic import BaseModel

from ssdprof.model.run_summary import AnyRun

__all__ = ["KeptAnswers"]

A = TypeVar("A", bound=BaseModel)

_MOST = 32
"""Answers kept at most (a few dozen kB each): the last questions of a session or two."""


class KeptAnswers:
    def __init__(self, most: int = _MOST):
        self._most = most
        self._kept: OrderedDict[str, tuple[tuple[AnyRun, ...], BaseModel]] = OrderedDict()

    def answer(self, method: str, params: BaseModel, runs: Sequence[AnyRun], work: Callable[[], A]) -> A:
        """``work()``'s answer to ``method`` asked with ``params`` of ``runs``: kept from the last time it
        was asked while every one of ``runs`` is the object it was then."""
        ask = f"{method} {params.model_dump_json()}"
        found = self._kept.get(ask)
        if found is not None and len(found[0]) == len(runs) and all(a is b for a, b in zip(found[0], runs, strict=True)):
            self._kept.move_to_end(ask)
            return found[1]  # type: ignore[return-value]  # kept under its own method's ask
        answer = work()
        self._kept[ask] = (tuple(runs), answer)
        self._kept.move_to_end(ask)
        while len(self._kept) > self._most:
            self._kept.popitem(last=False)
        return answer
