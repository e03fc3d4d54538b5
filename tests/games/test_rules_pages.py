"""The rules pages (/rules/, games/rules_pages.py): every page answers with the board drawn by
the match page's own template, the diagrams are positions the engine reached by legal plays
and show what their captions say, the presets page lists every preset with what it changes,
and the footer and the match page link to them (issue 21 §6)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import rules_pages
from games.engine import (
    DEFAULT_OPTIONS,
    PRESETS,
    IllegalPlayError,
    Options,
    check_play,
    legal_plays,
    start_position,
    validate_position,
)
from games.engine.variants import find_variant
from tests.web.helpers import match_url

PAGES = [
    reverse("web:rules"),
    reverse("web:rules-game", kwargs={"game": "tabla"}),
    reverse("web:rules-game", kwargs={"game": "gul-bara"}),
    reverse("web:rules-game", kwargs={"game": "tapa"}),
    reverse("web:rules-presets"),
    reverse("web:rules-faq"),
]
BOARD = '<svg class="board"'


@pytest.mark.parametrize("url", PAGES)
def test_every_rules_page_answers_and_links_to_the_others(url, db):
    response = Client().get(url)
    assert response.status_code == 200
    html = response.content.decode()
    for other in PAGES:
        assert f'href="{other}"' in html


@pytest.mark.parametrize("url", PAGES)
def test_the_pages_draw_the_board(url, db):
    html = Client().get(url).content.decode()
    assert BOARD in html and "<figcaption>" in html
    assert 'class="checker w' in html and 'class="checker b' in html


def test_each_game_page_shows_its_diagrams(db):
    for slug, (variant, _name) in rules_pages.GAMES.items():
        html = Client().get(reverse("web:rules-game", kwargs={"game": slug})).content.decode()
        diagrams = rules_pages.DIAGRAMS[variant]
        assert len(diagrams) >= 3
        assert html.count(BOARD) == len(diagrams)
        for diagram in diagrams:
            assert f'data-diagram="{diagram.key}"' in html


def test_an_unknown_game_is_a_404(db):
    assert Client().get("/rules/backgammon/").status_code == 404


ALL_DIAGRAMS = [
    *(d for diagrams in rules_pages.DIAGRAMS.values() for d in diagrams),
    *(d for diagrams in rules_pages.PRESET_DIAGRAMS.values() for d in diagrams),
]


@pytest.mark.parametrize("diagram", ALL_DIAGRAMS, ids=lambda d: f"{d.variant}-{d.key}")
def test_every_diagram_is_a_legal_position_reached_by_legal_plays(diagram):
    variant, options = diagram.variant, PRESETS[diagram.preset]
    rules = find_variant(variant)
    position = diagram.start or rules.start_position()
    validate_position(rules, position, options)
    for dice, moves in diagram.plays:
        outcome = check_play(variant, position, dice, moves, options)
        position = outcome.position
        if outcome.result is None:  # an ended game is no position to play on
            validate_position(rules, position, options)
    assert position == diagram.position()
    if diagram.dice:  # a roll on the board: it is the side to move's, and can be played
        assert legal_plays(variant, position, diagram.dice, options)


@pytest.mark.django_db
def test_the_first_runner_diagram_is_what_the_preset_changes():
    [diagram] = rules_pages.PRESET_DIAGRAMS["greek_tavli"]
    start = start_position("gul_bara")
    plays = legal_plays("gul_bara", start, (6, 6), PRESETS["greek_tavli"])
    assert [str(o.play) for o in plays] == ["24/18"] == [diagram.plays[0][1]]
    assert [str(o.play) for o in legal_plays("gul_bara", start, (6, 6))] == [
        "24/18 24/18 24/18 24/18"
    ]
    html = Client().get(reverse("web:rules-presets")).content.decode()
    assert html.count(BOARD) == 1 and 'data-diagram="first-runner"' in html


def _diagram(variant: str, key: str) -> rules_pages.Diagram:
    return next(d for d in rules_pages.DIAGRAMS[variant] if d.key == key)


def test_the_tapa_page_draws_the_pinned_checker(db):
    html = Client().get(reverse("web:rules-game", kwargs={"game": "tapa"})).content.decode()
    assert 'class="pin-ring"' in html


def test_the_diagrams_show_what_their_captions_say():
    hit = _diagram("tabla", "hit").position().to_json()
    assert hit["bar"] == {"w": 0, "b": 1} and hit["points"][6] == [["w", 2]]
    bar = _diagram("tabla", "bar")
    [only] = legal_plays("tabla", bar.position(), bar.dice)
    assert str(only.play) == ""  # black cannot enter: the turn passes

    block = _diagram("gul_bara", "block")
    for refused in ("24/20 24/23", "17/16 24/20"):
        with pytest.raises(IllegalPlayError):
            check_play("gul_bara", block.position(), block.dice, refused)
    check_play("gul_bara", block.position(), block.dice, "19/15 15/14")
    cascade = _diagram("gul_bara", "cascade")
    first = check_play("gul_bara", cascade.position(), cascade.dice, "6/1 6/1 6/1 6/1")
    assert first.position.to_json()["pending"] == [6, 6, 6, 6]
    following = _diagram("gul_bara", "cascade-next")
    won = check_play("gul_bara", following.position(), None, "1/off 1/off 1/off 1/off")
    assert won.result is not None and won.result.kind == "mars" and won.result.points == 2

    pin = _diagram("tapa", "pin").position().to_json()
    assert pin["points"][9] == [["b", 1], ["w", 2]]
    mother = _diagram("tapa", "mother")
    start = mother.start
    assert start is not None
    won = check_play("tapa", start, (6, 2), "3/1")
    assert won.result is not None and won.result.kind == "mother" and won.result.points == 2
    assert any(piece.get("pinned") for piece in rules_pages.diagrams("tapa")[1]["pieces"])


def test_the_presets_page_lists_every_preset_and_what_it_changes(db):
    html = Client().get(reverse("web:rules-presets")).content.decode()
    for name, options in PRESETS.items():
        assert f'data-preset="{name}"' in html
        changed = [
            key
            for key, value in options.to_json().items()
            if value != DEFAULT_OPTIONS.to_json()[key]
        ]
        shown = [row["key"] for row in rules_pages.preset_changes(options)]
        assert shown == changed
        for key in changed:
            assert f'data-option="{key}"' in html
    assert "Changes nothing" in html  # the Macedonian preset is the defaults
    assert "Tabla → Tapa → Gjul Bara" in html  # greek_tavli's cycle, in the games' names


def test_every_option_and_preset_has_its_words():
    assert set(rules_pages.OPTION_TEXT) == {f for f in Options.__dataclass_fields__}
    assert set(rules_pages.PRESET_TEXT) == set(PRESETS)
    for options in PRESETS.values():  # every value a preset sets or changes, in words
        for key, value in options.to_json().items():
            if isinstance(value, str):
                assert (key, value) in rules_pages.VALUE_TEXT, (key, value)
                assert (key, getattr(DEFAULT_OPTIONS, key)) in rules_pages.VALUE_TEXT


def test_each_choice_in_words_is_a_value_the_engine_accepts():
    for key, value in rules_pages.VALUE_TEXT:
        Options.from_json({key: value})


def test_the_footer_and_the_match_page_link_to_the_rules(online_match):
    html = Client().get(match_url(online_match)).content.decode()
    assert f'<a href="{reverse("web:rules")}">' in html  # the footer
    variant = online_match.games.get().variant
    assert f'href="{rules_pages.game_rules_url(variant)}" data-rules-link' in html
    assert f'href="{reverse("web:rules")}" data-rules-link' in html


@pytest.mark.parametrize("url", PAGES)
def test_the_rules_pages_carry_the_policy_and_no_inline_code(url, db):
    response = Client().get(url)
    assert "script-src" in response["Content-Security-Policy"]
    html = response.content.decode()
    assert "<script>" not in html and " style=" not in html and " onclick=" not in html
