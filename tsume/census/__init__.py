"""The census: every position of a small material family solved exactly.

:mod:`.family` enumerates a family's positions (each once, in a canonical
form); :mod:`.retro` solves them by retrograde analysis of the checks-only game
graph, with the df-pn solver for the positions the backward pass cannot settle
exactly; :mod:`.classify` sorts the mates into sound problems and the rest;
:mod:`.run` shards a census over an executor, checkpoints it and tabulates it;
:mod:`.check` checks a finished census against df-pn on a sample
(docs/census.md).
"""

from .family import Family, parse_family

__all__ = ["Family", "parse_family"]
