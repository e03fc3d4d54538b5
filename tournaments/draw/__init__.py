"""The draw: the tournaments' pure algorithms, like the rules engine (games/engine/).

Plain functions over dataclasses, no database and no Django: elimination brackets and their
placings (``brackets``), round robins and their groups (``round_robin``), Swiss pairing
(``swiss``), standings and their tie-breaks (``standings``, ``tiebreaks``), the rounds' names
(``round_names``), table numbers (``tables``) and the format settings' rules (``format_rules``).
The manager, ``tournaments/services/``, reads the rows, calls these functions and saves what
they return. A module here imports the standard library, networkx, its neighbours here and
nothing else of the project but the pure ``common.numbers`` and ``games.clock``
(tests/test_layers.py checks it).
"""
