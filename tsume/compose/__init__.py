"""Composing tsume: candidates from several sources, filtered cheapest first,
rated, and written to a collection (docs/compose.md).

The stages, each usable on its own:

* :mod:`tsume.compose.candidate` -- an editable position (:class:`Candidate`)
  and the canonical key of a position;
* :mod:`tsume.compose.idea` -- when two problems are the same idea (a
  collection holds each once);
* :mod:`tsume.compose.material` -- material profiles (:class:`Material`) and
  random placement from them;
* :mod:`tsume.compose.sources` -- where candidates come from: random
  placement, mutation of a parent, and the reverse method (which walks back
  with the engine's un-moves, ``Position.unmoves``);
* :mod:`tsume.compose.filters` -- mate, te-amari repair, soundness, economy;
* :mod:`tsume.compose.memo` -- the filters' outcomes, remembered within a
  process (the climb meets the same candidates again and again);
* :mod:`tsume.compose.rating` -- features of a sound problem and its score;
* :mod:`tsume.compose.run` -- the whole pipeline, sharded over an
  :class:`concurrent.futures.Executor` (:mod:`tsume.shards`);
* :mod:`tsume.compose.state` -- the state a run keeps beside its collection,
  so that ``--resume`` goes on.
"""

from .candidate import Candidate, canonical_key
from .material import Material, parse_material

__all__ = ["Candidate", "canonical_key", "Material", "parse_material"]
