"""Practice against the computer (games/practice.py, games/services/practice.py; docs/decisions.md
D131, D132): the match, the computer's turns, a whole match through the API, the hint's rules."""

import importlib
import random

import pytest
from django.apps import apps as django_apps
from django.urls import reverse
from django.utils import translation

from common.errors import ConflictError, InvalidRequestError
from games import selectors, services
from games.models import Match
from players.models import Player

pytestmark = pytest.mark.django_db

_capture = None


@pytest.fixture
def eager(django_capture_on_commit_callbacks):
    """Each write's tasks queued on commit run when it returns, as they would after a real
    commit (Celery is eager in the tests; the test's own transaction never commits)."""
    global _capture
    _capture = django_capture_on_commit_callbacks
    yield
    _capture = None


def committed(service, **kwargs):
    if _capture is None:
        return service(**kwargs)
    with _capture(execute=True):
        return service(**kwargs)


def practice(alice, strength="club", length=1, cycle=("tabla",)) -> Match:
    return committed(
        services.practice_start,
        user=alice.user,
        strength=strength,
        target_score=length,
        options={"cycle": list(cycle)},
    )


def human_move(game, alice, rng):
    """Alice's next decision: roll, or a random legal play."""
    if selectors.is_roll_due(game):
        return committed(services.dice_roll, game=game, user=alice.user).game
    outcome = rng.choice(selectors.game_legal_plays(game))
    return committed(
        services.play_submit, game=game, user=alice.user, ply=game.ply, moves=outcome.play.to_json()
    ).game


def test_practice_match_is_unrated_private_and_against_a_computer(weights, alice, eager):
    match = practice(alice)
    assert not match.rated and not match.has_clock and not match.is_public
    computer = match.player_two
    assert computer.computer == "club" and computer.user is None
    assert computer.display_name == "Computer (club)"
    assert practice(alice).player_two == computer  # one computer player per strength
    game = selectors.current_game(match)
    # Whoever started, it is now the human's turn: the computer answered at once.
    assert selectors.player_to_move(game) == alice


def test_the_computer_moves_after_the_human(weights, alice, eager):
    match = practice(alice, strength="strong")
    rng = random.Random(5)
    game = selectors.current_game(match)
    plays_before = game.turns.filter(side="w" if game.white == alice else "b").count()
    for _ in range(6):
        game = selectors.current_game(match)
        if game is None:
            break
        assert selectors.player_to_move(game) == alice
        human_move(game, alice, rng)
    computer_side = "b" if game.white == alice else "w"
    assert game.turns.filter(side=computer_side).exists()
    assert plays_before >= 0


def test_no_practice_without_an_evaluator(tmp_path, settings, alice):
    settings.ANALYSIS_WEIGHTS_DIR = tmp_path / "none"
    with pytest.raises(ConflictError, match="no evaluator"):
        practice(alice)
    assert not Match.objects.exists()


def test_unknown_strength_refused(weights, alice):
    with pytest.raises(InvalidRequestError):
        practice(alice, strength="grandmaster")


def test_computer_play_is_idempotent(weights, alice, eager):
    match = practice(alice)
    game = selectors.current_game(match)
    ply = game.ply
    assert services.computer_play(match=match.pk) == 0  # the human's turn: nothing
    game.refresh_from_db()
    assert game.ply == ply


def api_start(client, **body):
    return client.post(reverse("games:practice-create"), body, format="json")


def test_a_whole_practice_match_through_the_api(weights, alice, eager, client_for):
    """Alice plays random legal plays through the API, the computer answers each time, to the
    match's end; nobody's rating changes."""
    client = client_for(alice)
    with _capture(execute=True):
        response = api_start(client, strength="beginner", target_score=1)
    assert response.status_code == 201, response.json()
    match = Match.objects.get(pk=response.json()["id"])
    computer = match.player_two
    rng = random.Random(11)
    for _ in range(400):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        game = selectors.current_game(match)
        assert selectors.player_to_move(game) == alice  # the computer always answered
        base = f"/api/v1/games/{game.pk}/"
        with _capture(execute=True):
            if selectors.is_roll_due(game):
                answer = client.post(base + "roll/", format="json")
            else:
                hint = client.get(base + "hint/")
                assert hint.status_code == 200
                assert hint.json()["moves"] in [
                    o.play.to_json() for o in selectors.game_legal_plays(game)
                ]
                legal = selectors.game_legal_plays(game)
                assert legal[hint.json()["play"]].play.to_json() == hint.json()["moves"]
                moves = rng.choice(selectors.game_legal_plays(game)).play.to_json()
                answer = client.post(
                    base + "plays/", {"ply": game.ply, "moves": moves}, format="json"
                )
        assert answer.status_code == 200, answer.json()
    assert match.status == Match.Status.FINISHED
    assert match.winner in (alice, computer)
    alice.refresh_from_db()
    computer.refresh_from_db()
    assert (alice.rating, alice.rating_games) == (1500.0, 0)
    assert (computer.rating, computer.rating_games) == (1500.0, 0)


def test_hint_only_in_practice(weights, alice, bob, online_match, client_for):
    game = selectors.current_game(online_match)
    for player in (alice, bob):
        answer = client_for(player).get(f"/api/v1/games/{game.pk}/hint/")
        assert answer.status_code == 404


def test_hint_not_for_anonymous_nor_others(weights, alice, bob, client_for, client):
    match = services.practice_start(user=alice.user, strength="club", target_score=1)
    game = selectors.current_game(match)
    assert client.get(f"/api/v1/games/{game.pk}/hint/").status_code in (401, 403)
    assert client_for(bob).get(f"/api/v1/games/{game.pk}/hint/").status_code == 404  # private


def test_api_refuses_practice_without_an_evaluator(tmp_path, settings, alice, client_for):
    settings.ANALYSIS_WEIGHTS_DIR = tmp_path / "none"
    answer = api_start(client_for(alice), strength="club")
    assert answer.status_code == 409
    assert "no evaluator" in str(answer.json())
    assert api_start(client_for(alice), strength="godlike").status_code == 400


def test_lobby_offers_practice_and_the_match_page_has_the_hint(weights, alice, eager, client):
    client.force_login(alice.user)
    assert 'id="practice"' in client.get("/lobby/").content.decode()
    with _capture(execute=True):
        answer = client.post(
            "/lobby/practice/", {"rules": "macedonian", "match_length": "1", "strength": "strong"}
        )
    match = Match.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/matches/{match.pk}/"
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f"/api/v1/matches/{match.pk}/hint/" in page
    hint = client.get(f"/api/v1/matches/{match.pk}/hint/")
    assert hint.status_code in (200, 409)  # 409: a roll is due first


def test_the_form_says_what_each_strength_plays_like(weights, alice, client):
    client.force_login(alice.user)
    page = client.get("/lobby/").content.decode()
    assert 'aria-describedby="practice-strengths"' in page
    assert 'id="practice-strengths"' in page
    assert "casual club player" in page and "looking one roll ahead" in page


def test_no_practice_form_without_an_evaluator(tmp_path, settings, alice, client):
    settings.ANALYSIS_WEIGHTS_DIR = tmp_path / "none"
    client.force_login(alice.user)
    assert 'id="practice"' not in client.get("/lobby/").content.decode()


def test_no_hint_button_in_other_matches(weights, alice, online_match, client):
    client.force_login(alice.user)
    page = client.get(f"/matches/{online_match.pk}/").content.decode()
    assert "practice-hint" not in page
    assert client.get(f"/api/v1/matches/{online_match.pk}/hint/").status_code == 404


# --- the home page's offer (D145) and the hint's play number for the board (D146) -------------

HOME = "/"


def test_home_offers_the_lobby_practice_form_to_a_player(weights, alice, eager, client):
    client.force_login(alice.user)
    page = client.get(HOME).content.decode()
    section = page.split('id="practice"')[1].split("</section>")[0]
    assert f'action="{reverse("web:practice-start")}"' in section  # the lobby's endpoint
    for strength in ("beginner", "club", "strong"):
        assert f'<option value="{strength}"' in section
    assert 'name="rules"' in section and 'name="match_length"' in section
    with _capture(execute=True):
        answer = client.post(
            reverse("web:practice-start"),
            {"rules": "macedonian", "match_length": "1", "strength": "beginner"},
        )
    match = Match.objects.get()
    assert answer["Location"] == f"/matches/{match.pk}/"
    assert match.player_two.computer == "beginner" and not match.rated


def test_home_asks_a_visitor_to_log_in_or_sign_up_and_come_back(weights, client):
    page = client.get(HOME).content.decode()
    section = page.split('id="practice"')[1].split("</section>")[0]
    assert "<form" not in section and "data-practice-login" in section
    back = "next=%2F%23practice"  # the home page's practice form, once logged in
    assert f'href="{reverse("login")}?{back}">Log in</a>' in section
    assert f'href="{reverse("signup")}?{back}">Sign up</a>' in section
    for way_in in ("login", "signup"):
        form = client.get(f"{reverse(way_in)}?{back}").content.decode()
        assert 'name="next" value="/#practice"' in form


def test_home_asks_a_user_without_a_player_to_claim_one(weights, client):
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_user("nobody", password="x" * 12))
    section = client.get(HOME).content.decode().split('id="practice"')[1].split("</section>")[0]
    assert "<form" not in section and reverse("players_web:claim") in section


def test_no_practice_on_home_without_an_evaluator(no_weights, alice, client):
    assert 'id="practice"' not in client.get(HOME).content.decode()
    client.force_login(alice.user)
    assert 'id="practice"' not in client.get(HOME).content.decode()


def test_the_home_offer_reads_no_query(weights, alice, client, settings, tmp_path):
    """The offer asks the evaluators (files, loaded once a process), never the database: the
    home page reads as many queries with it as without it."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(alice.user)

    def count() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(HOME).status_code == 200
        return len(captured)

    client.get(HOME)  # the session and the evaluators, read once
    offered = count()
    settings.ANALYSIS_WEIGHTS_DIR = tmp_path / "none"
    client.get(HOME)
    assert 'id="practice"' not in client.get(HOME).content.decode()
    assert count() == offered


def test_the_hint_names_its_play_as_the_board_numbers_it(weights, alice, eager, client):
    """The hint's ``play`` is the index of the board's step graph (D146): a state of the graph
    completes that play, and its steps are the hint's moves."""
    match = practice(alice, strength="strong")
    game = selectors.current_game(match)
    for _ in range(20):
        if not selectors.is_roll_due(game):
            break
        game = committed(services.dice_roll, game=game, user=alice.user).game
    client.force_login(alice.user)
    hint = client.get(f"/api/v1/matches/{match.pk}/hint/").json()
    graph = selectors.game_step_graph(game)
    assert graph is not None

    def steps_to(state: int) -> list[str] | None:  # board_play.js pathTo
        if graph.states[state].play == hint["play"]:
            return []
        for step in graph.states[state].steps:
            rest = steps_to(step.state)
            if rest is not None:
                return [step.move, *rest]
        return None

    path = steps_to(0)
    assert path is not None
    assert sorted(m.rstrip("*") for m in path) == sorted(m.rstrip("*") for m in hint["moves"])
    legal = selectors.game_legal_plays(game)
    assert legal[hint["play"]].play.to_json() == hint["moves"]


def hint_position(alice, eager):
    """A practice game with alice to play dice that leave her more than two plays."""
    rng = random.Random(5)
    match = practice(alice, strength="strong")
    for _ in range(200):
        game = selectors.current_game(match)
        if not selectors.is_roll_due(game) and len(selectors.game_legal_plays(game)) > 2:
            return game
        human_move(game, alice, rng)
    raise AssertionError("no decision with a choice")


@pytest.mark.parametrize(("seconds", "depth"), [(60.0, 1), (0.0, 0)])
def test_the_hint_looks_1_ply_ahead_when_it_has_the_time(
    weights, alice, eager, client_for, settings, seconds, depth
):
    """Within HINT_SECONDS the hint is the 1-ply search's best play; with no time at all it is
    the 0-ply best (the search is cut after its first candidate); it says which."""
    from games import chances
    from games.analysis.net import equity
    from games.analysis.player import evaluate_plays
    from games.analysis.ply import search_plays
    from games.state import game_position, match_options

    game = hint_position(alice, eager)
    settings.HINT_SECONDS = seconds
    answer = client_for(alice).get(f"/api/v1/games/{game.pk}/hint/").json()
    assert answer["lookahead"] == f"{depth}-ply"
    outcomes = selectors.game_legal_plays(game)
    network = chances.evaluator(game.variant)
    position, options = game_position(game), match_options(game.match)
    if depth:
        searched = search_plays(network, game.variant, position, outcomes, options)
        best, value = searched.best(), equity(searched.chances)[searched.best()]
    else:
        evaluated = evaluate_plays(network, game.variant, position, outcomes, options)
        best, value = evaluated.best(), equity(evaluated.chances)[evaluated.best()]
    assert answer["moves"] == outcomes[best].play.to_json()
    assert answer["equity"] == pytest.approx(value, abs=1e-4)


@pytest.mark.parametrize("depth", [1, 0])
def test_the_strong_computer_plays_1_ply_deep(weights, alice, eager, settings, depth):
    from games import chances
    from games import practice as practice_reads
    from games.analysis.player import evaluate_plays
    from games.analysis.ply import search_plays
    from games.state import game_position, match_options

    game = hint_position(alice, eager)
    settings.PRACTICE_STRONG_DEPTH = depth
    outcomes = selectors.game_legal_plays(game)
    network = chances.evaluator(game.variant)
    position, options = game_position(game), match_options(game.match)
    if depth:
        want = search_plays(network, game.variant, position, outcomes, options).best()
    else:
        want = evaluate_plays(network, game.variant, position, outcomes, options).best()
    assert practice_reads.choose(game, outcomes, "strong") == want


def test_the_computer_s_name_is_in_the_reader_s_language_whoever_created_it(
    weights, alice, bob, eager, client, client_for
):
    """The UX review: the name was stored in the language of whoever first asked for that
    computer, so English pages said "Компјутер (силен)" (docs/decisions.md D163)."""
    with translation.override("mk"):
        match = practice(alice, strength="strong")
        mk_name = translation.gettext("Computer (%s)") % translation.gettext("strong")
    assert mk_name == "Компјутер (силен)"
    computer = match.player_two
    # The row keeps a neutral name; the instance, loaded or just created, shows the reader's.
    assert Player.objects.filter(pk=computer.pk).values_list("display_name", flat=True).get() == (
        "Computer (strong)"
    )
    for loaded in (computer, Player.objects.get(pk=computer.pk)):
        assert str(loaded) == "Computer (strong)"
        with translation.override("mk"):
            assert str(loaded) == mk_name and f"{loaded.display_name}" == mk_name
    # A row stored in another language before (the data migration makes it neutral again).
    Player.objects.filter(pk=computer.pk).update(display_name=mk_name)
    client.force_login(alice.user)
    for path in (f"/matches/{match.pk}/", "/"):  # the match page, the home page's own matches
        english = client.get(path, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "Computer (strong)" in english and mk_name not in english, path
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="mk").content.decode()
    assert mk_name in page and "Computer (strong)" not in page
    api = client_for(alice)
    url = reverse("games:match-detail", kwargs={"pk": match.pk})
    for language, name in (("en", "Computer (strong)"), ("mk", mk_name)):
        data = api.get(url, HTTP_ACCEPT_LANGUAGE=language).json()
        assert data["player_two"]["display_name"] == name
    exported = api.get(reverse("games:match-export", kwargs={"pk": match.pk}))
    assert exported.status_code == 200


def test_the_migration_makes_the_computers_stored_names_neutral(alice):
    migration = importlib.import_module("players.migrations.0008_computer_names_neutral")
    computer = Player.objects.create(computer="club", display_name="x")
    Player.objects.filter(pk=computer.pk).update(display_name="Компјутер (клупски)")
    migration.neutral_names(django_apps, None)
    names = dict(Player.objects.values_list("pk", "display_name"))
    assert names == {alice.pk: "Alice", computer.pk: "Computer (club)"}


# --- the dice rolled for the human by default (D164) -------------------------------------------


def test_a_practice_match_rolls_for_the_human_by_default(weights, alice, eager):
    """The server rolls whenever a roll is due (the cube is off in practice's presets): the
    human finds dice to play on every turn of theirs, never a Roll to press; asked not to, the
    match leaves the roll to them."""
    match = practice(alice)
    assert match.auto_roll
    rng = random.Random(3)
    for _ in range(6):
        game = selectors.current_game(match)
        if game is None or match.status != Match.Status.IN_PROGRESS:
            break
        assert selectors.player_to_move(game) == alice
        assert not selectors.is_roll_due(game) and game.dice is not None
        human_move(game, alice, rng)
        match.refresh_from_db()

    by_hand = committed(
        services.practice_start, user=alice.user, strength="club", target_score=1, auto_roll=False
    )
    assert not by_hand.auto_roll
    assert selectors.is_roll_due(selectors.current_game(by_hand))


def test_with_the_cube_on_a_player_who_may_double_rolls_by_hand(weights, alice, eager):
    """Only the API can turn the cube on in practice: then the human, who may double before
    rolling, chooses between Double and Roll (auto_roll waits for them)."""
    match = committed(
        services.practice_start,
        user=alice.user,
        strength="club",
        target_score=3,
        options={"cycle": ["tabla"], "cube": "tabla_only"},
    )
    game = selectors.current_game(match)
    assert selectors.player_to_move(game) == alice
    assert selectors.may_double(game) and selectors.is_roll_due(game)


def test_the_practice_form_ticks_roll_my_dice_and_posts_it(weights, alice, eager, client):
    client.force_login(alice.user)
    section = client.get("/lobby/").content.decode().split('id="practice"')[1]
    assert '<input type="checkbox" name="auto_roll" checked>' in section.split("</form>")[0]
    body = {"rules": "macedonian", "match_length": "1", "strength": "beginner"}
    with _capture(execute=True):
        client.post(reverse("web:practice-start"), {**body, "auto_roll": "on"})
        client.post(reverse("web:practice-start"), body)  # the box unticked: not sent
    ticked, unticked = Match.objects.order_by("pk")
    assert ticked.auto_roll and not unticked.auto_roll


def test_the_api_rolls_for_the_human_unless_asked_not_to(weights, alice, eager, client_for):
    client = client_for(alice)
    with _capture(execute=True):
        default = api_start(client, strength="club", target_score=1)
        by_hand = api_start(client, strength="club", target_score=1, auto_roll=False)
    assert default.status_code == by_hand.status_code == 201
    assert default.json()["auto_roll"] is True and by_hand.json()["auto_roll"] is False
    assert Match.objects.get(pk=default.json()["id"]).auto_roll
    assert not Match.objects.get(pk=by_hand.json()["id"]).auto_roll
