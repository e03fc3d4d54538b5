"""Chances: an evaluator of Tabla, Gjul Bara and Tapa positions trained by TD(lambda) self-play.

Pure Python and numpy beside the rules engine (games/engine), nothing of Django. The modules:

- ``encode``: a position, seen by the side to move, as a float32 vector (docs/analysis.md);
- ``net``: the network (one sigmoid hidden layer, three outputs), its gradient, TD(lambda)
  with eligibility traces, weights saved as .npz with their provenance;
- ``player``: 0-ply play, every legal play's position after it evaluated in one batch;
- ``ply``: 1-ply lookahead, a play against the 21 rolls and the best reply to each, behind a
  move filter;
- ``review``: a game's plays against the best one, at 0 or 1 ply;
- ``train``: self-play training, ``python -m games.analysis.train --variant tapa --games N``;
- ``opponents``: what bench/evaluator.py measures the networks against (pubeval for Tabla, a
  heuristic player per game);
- ``rates``: each game's outcome rates from the first mover's view, measured by self-play
  (``python -m games.analysis.rates``, kept in ``rates.json``);
- ``match_table``: the exact match table of the cycling match from those rates, and a
  position's match-winning chance;
- ``gnubg_board``: a Tabla position in GNU Backgammon's board layout, for the outside check of
  ``bench/evaluator.py --gnubg`` (gnubg itself is a dev-only extra, never imported here);
- ``bearoff``: the exact one-sided bear-off tables that answer pure races both sides are home
  in (``python -m games.analysis.bearoff build``), carried by a loaded network as ``races``.
"""

import os

# The network's matrices are small (a batch of ~20 plays times 80 x 244 weights): OpenBLAS's
# threads only cost here, and on the shared 2-core machine they made a forward pass 8 ms
# instead of 60 us (docs/decisions.md D100). Set before numpy loads; a caller may override it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
