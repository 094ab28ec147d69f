"""An English question on a Chinese library: cosines without the passages' pull toward English.

A multilingual model places text near the centre of its language, whatever its topic, so an
English question stands close to every English passage. In a Chinese book the English ones
are link-reference lists and compiler output: with multilingual-e5 on the Rust book, two such
chunks were the meaning side's first of 18 of its 69 English questions (16 of them wrong). The
model's centroids of English and of Chinese passages (``floor_reference``, measured once on
the public sets) measure that pull: a passage's excess closeness to English text over Chinese
text, ``max(0, v·en − v·zh)``, is language, not topic, and it is taken off the cosine of a
question in English before fusion. No constant is fitted; a question with Chinese in it, a
library measured as English, or a model without both centroids is left as it is.
"""

from __future__ import annotations

import numpy as np

from desktop_kb.retrieval.calibration import Calibration
from desktop_kb.retrieval.candidates import Candidates
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.retrieval.floor_reference import FloorReference

__all__ = ["without_language_pull"]


def without_language_pull(cand: Candidates, dense: DenseIndex | None, reference: FloorReference | None,
                          calibration: Calibration | None) -> Candidates:
    """``cand`` with each cosine less its passage's excess closeness to English text."""
    if (cand.has_cjk or dense is None or reference is None or reference.english is None
            or calibration is None or calibration.han_share < 0.5):
        return cand
    known = np.flatnonzero(~np.isnan(cand.cosine))
    if not known.size:
        return cand
    excess = dense.similarities(reference.english - reference.centroid, cand.ids[known].tolist(), cand.seen)
    if not excess:
        return cand
    cosine = cand.cosine.copy()
    for i in known:
        cosine[i] -= max(0.0, excess.get(int(cand.ids[i]), 0.0))
    # The meaning list follows the cosines it is read with: its first place before the pull
    # (an English page) is not what the agreement rule must compare with the keyword favourite.
    return cand.with_cosines(cosine)
