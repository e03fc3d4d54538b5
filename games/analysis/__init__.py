"""Chances: an evaluator of Tabla, Gjul Bara and Tapa positions trained by TD(lambda) self-play.

Pure Python and numpy beside the rules engine (games/engine), nothing of Django. The modules:

- ``encode``: a position, seen by the side to move, as a float32 vector (docs/analysis.md);
- ``net``: the network (one sigmoid hidden layer, three outputs), its gradient, TD(lambda)
  with eligibility traces, weights saved as .npz with their provenance;
- ``train``: self-play training, ``python -m games.analysis.train --variant tapa --games N``.
"""
