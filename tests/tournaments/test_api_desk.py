"""What the organiser's desk does, through the API: every organiser of a tournament organises its
matches (D38), the reports waiting for an answer, a round's tables (D40), and who may act."""

import pytest
from django.urls import reverse

from games.models import Match, ResultReport
from tests.tournaments.factories import PlayerFactory, UserFactory
from tests.tournaments.helpers import tournament_running
from tournaments.management.commands.demo_setup import rated_organisers_group
from tournaments.models import Tournament, TournamentMatch

pytestmark = pytest.mark.django_db


def ready_rows(pk):
    return list(
        TournamentMatch.objects.filter(tournament_id=pk, status="ready")
        .select_related("entry_one__player", "entry_two__player", "match")
        .order_by("round", "index")
    )


def results(match_id):
    return reverse("games:result-list", kwargs={"pk": match_id})


def report_action(match_id, rid, action):
    return reverse(f"games:result-{action}", kwargs={"pk": match_id, "rid": rid})


FINAL_5_2 = {"scope": "match", "score_one": 5, "score_two": 2}


@pytest.fixture
def cup(org_api, players):
    """A running single elimination of four players over the board, matches to 5."""
    return tournament_running(
        org_api,
        players[:4],
        format="single_elimination",
        match_length=5,
        match_mode="over_the_board",
    )


def test_every_organiser_of_a_tournament_organises_its_matches(cup, api_as, organiser):
    """docs/decisions.md D38: a co-organiser enters, confirms and overrides results and declares
    forfeits, as the creator does; an organiser of another tournament does none of it."""
    co = UserFactory(username="co-organiser")
    Tournament.objects.get(pk=cup["id"]).organisers.add(co)
    first, second = ready_rows(cup["id"])
    elsewhere = UserFactory(username="elsewhere")
    api_as(elsewhere).post("tournaments:tournament-list", {"name": "Other", "format": "swiss"}, 201)
    for user in (elsewhere, UserFactory(username="stranger")):
        client = api_as(user).client
        assert client.post(results(first.match_id), FINAL_5_2, format="json").status_code == 403
        loser = {"loser": first.entry_one.player_id}
        forfeit = reverse("games:match-forfeit", kwargs={"pk": first.match_id})
        assert client.post(forfeit, loser, format="json").status_code == 403

    entered = api_as(co).post("games:result-list", FINAL_5_2, status=201, pk=first.match_id)
    assert (entered["status"], entered["reporter_username"]) == ("confirmed", "co-organiser")
    first.refresh_from_db()
    assert first.status == "done" and first.winner == first.entry_one
    audited = [e for e in api_as(co).get("tournaments:audit-log", pk=cup["id"])["results"]
               if e["action"] == "result"]  # fmt: skip
    assert [(e["actor"], e["changes"]) for e in audited] == [
        (
            "co-organiser",
            {"W1-1": [None, [first.entry_one_id, 5, 2]], "report": [None, entered["id"]]},
        )
    ]
    forfeit = {"loser": second.entry_two.player_id}
    api_as(co).post("games:match-forfeit", forfeit, pk=second.match_id)
    log = api_as(co).get("tournaments:audit-log", pk=cup["id"])["results"]
    assert [(e["actor"], e["changes"]) for e in log if e["action"] == "forfeit"] == [
        ("co-organiser", {"W1-2": [None, [second.entry_one_id, 0, 0]]})
    ]
    final = TournamentMatch.objects.get(tournament_id=cup["id"], key="W2-1")
    assert final.status == "ready" and (final.entry_one, final.entry_two) == (
        first.entry_one,
        second.entry_one,
    )
    assert Match.objects.get(pk=final.match_id).organiser == organiser, "still the creator"


def test_the_queue_lists_pending_and_disputed_reports_of_the_tournament(
    cup, api_as, org_api, organiser
):
    first, second = ready_rows(cup["id"])
    one = first.entry_one.player
    pending = api_as(one).post("games:result-list", FINAL_5_2, status=201, pk=first.match_id)
    three, four = second.entry_one.player, second.entry_two.player
    body = {"scope": "match", "score_one": 1, "score_two": 5}
    disputed = api_as(four).post("games:result-list", body, status=201, pk=second.match_id)
    api_as(three).post(
        "games:result-dispute", {"reason": "I won 5-4"}, pk=second.match_id, rid=disputed["id"]
    )

    queue = org_api.get("tournaments:report-list", pk=cup["id"])
    assert [(r["id"], r["status"]) for r in queue] == [
        (pending["id"], "pending"),
        (disputed["id"], "disputed"),
    ]
    item = queue[1]
    assert item["tournament_match"] == {"id": second.pk, "key": "W1-2", "stage": "main", "round": 1}
    assert item["player_one"] == {"id": three.pk, "display_name": three.display_name}
    assert item["player_two"]["id"] == four.pk
    assert (item["score_one"], item["score_two"], item["dispute_reason"]) == (1, 5, "I won 5-4")
    only = org_api.get("tournaments:report-list", pk=cup["id"], params={"status": "disputed"})
    assert [r["id"] for r in only] == [disputed["id"]]

    # The organiser accepts the first as reported (D39) and overrides the second.
    org_api.post("games:result-confirm", pk=first.match_id, rid=pending["id"])
    decision = {"scope": "match", "score_one": 5, "score_two": 4}
    org_api.post("games:result-override", decision, pk=second.match_id, rid=disputed["id"])
    assert org_api.get("tournaments:report-list", pk=cup["id"]) == []
    done = org_api.get(
        "tournaments:report-list", pk=cup["id"], params={"status": "confirmed,overridden"}
    )
    assert [(r["status"], r["responded_by"]) for r in done] == [
        ("confirmed", organiser.pk),
        ("overridden", organiser.pk),
    ]
    final = TournamentMatch.objects.get(tournament_id=cup["id"], key="W2-1")
    assert (final.entry_one.player, final.entry_two.player) == (one, three)


def test_the_queue_refuses_an_unknown_status_and_an_unknown_tournament(cup, org_api):
    url = reverse("tournaments:report-list", kwargs={"pk": cup["id"]})
    response = org_api.client.get(url, {"status": "pending,lost"})
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert detail.startswith("status must be") and detail.endswith("not 'pending,lost'")
    missing = reverse("tournaments:report-list", kwargs={"pk": 999_999})
    assert org_api.client.get(missing).status_code == 404


def test_players_cannot_confirm_override_or_correct_for_a_tournament_they_do_not_run(cup, api_as):
    first, second = ready_rows(cup["id"])
    reporter, opponent = first.entry_one.player, first.entry_two.player
    outsider = second.entry_one.player  # plays in the tournament, not in this match
    pending = api_as(reporter).post("games:result-list", FINAL_5_2, status=201, pk=first.match_id)
    confirm = report_action(first.match_id, pending["id"], "confirm")
    override = report_action(first.match_id, pending["id"], "override")
    for player in (reporter, outsider, PlayerFactory()):
        client = api_as(player).client
        assert client.post(confirm).status_code == 403
        assert client.post(override, FINAL_5_2, format="json").status_code == 403
    api_as(opponent).post("games:result-confirm", pk=first.match_id, rid=pending["id"])

    correct = reverse("tournaments:result-correct", kwargs={"pk": cup["id"], "mid": first.pk})
    body = {"winner": first.entry_two_id, "score_one": 3, "score_two": 5}
    for player in (reporter, opponent, outsider):
        response = api_as(player).client.post(correct, body, format="json")
        assert response.status_code == 403
        assert response.json()["detail"] == "only the tournament's organisers may do this"
    first.refresh_from_db()
    assert first.winner == first.entry_one


def test_a_swiss_round_lists_its_tables_top_pairing_first_and_the_bye_without_one(org_api, players):
    """docs/decisions.md D40."""
    pk = tournament_running(org_api, players[:5], format="swiss", swiss_rounds=3)["id"]
    sheet = org_api.get("tournaments:round-tables", pk=pk, number=1)
    assert [(t["table"], t["key"]) for t in sheet["tables"]] == [(1, "R1-1"), (2, "R1-2")]
    assert [b["key"] for b in sheet["byes"]] == ["R1-bye"]
    assert sheet["tables"][0]["players"][0]["seed"] == 1, "the top seed at table 1"
    assert (sheet["stage"], sheet["number"], sheet["is_finished"]) == ("main", 1, False)
    missing = reverse("tournaments:round-tables", kwargs={"pk": pk, "number": 2})
    assert org_api.client.get(missing).status_code == 404


def test_a_bracket_round_is_a_play_level_with_its_own_tables(org_api, players):
    """Winners round 2 and losers round 1 of a double elimination are played side by side."""
    pk = tournament_running(org_api, players[:8], format="double_elimination")["id"]
    first = org_api.get("tournaments:round-tables", pk=pk, number=1)
    assert [(t["table"], t["key"]) for t in first["tables"]] == [
        (1, "W1-1"), (2, "W1-2"), (3, "W1-3"), (4, "W1-4"),
    ]  # fmt: skip
    second = org_api.get("tournaments:round-tables", pk=pk, number=2)
    assert [(t["table"], t["key"]) for t in second["tables"]] == [
        (1, "W2-1"), (2, "W2-2"), (3, "L1-1"), (4, "L1-2"),
    ]  # fmt: skip
    assert second["deadline"] is None
    # The play level names the bracket rounds it holds, as the desk's Rounds tab shows them.
    assert first["round_names"] == ["Winners' quarter-final"]
    assert second["round_names"] == ["Winners' semi-final", "Losers' round 1"]
    swiss = tournament_running(org_api, players[:4], format="swiss", swiss_rounds=2)["id"]
    assert org_api.get("tournaments:round-tables", pk=swiss, number=1)["round_names"] == []


def test_every_desk_action_is_refused_to_a_player_and_to_another_tournaments_organiser(
    api_as, org_api, players
):
    """What the desk's buttons call, called by hand: a player of the tournament and a rated
    organiser (the demo's group) who runs another tournament get 403 on each, and nothing
    changes. Reads stay public; the desk pages are tests/web/test_desk*.py's."""
    pk = tournament_running(
        org_api, players[:6], format="swiss", swiss_rounds=3, match_mode="over_the_board"
    )["id"]
    tournament = Tournament.objects.get(pk=pk)
    first, second, _third = ready_rows(pk)
    insider = first.entry_one.player  # plays in the tournament
    other = UserFactory(username="other-organiser")
    other.groups.add(rated_organisers_group())
    api_as(other).post(
        "tournaments:tournament-list", {"name": "Theirs", "format": "swiss"}, status=201
    )

    def url(name, **kwargs):
        return reverse(name, kwargs={"pk": pk, **kwargs})

    someone_else = second.entry_one  # an entry that is not the insider's
    calls = [
        (url("tournaments:registration-open"), None),
        (url("tournaments:registration-close"), None),
        (url("tournaments:start"), None),
        (url("tournaments:seed"), {"method": "random"}),
        (url("tournaments:entry-check-in", eid=someone_else.pk), None),
        (url("tournaments:entry-withdraw", eid=someone_else.pk), None),
        (url("tournaments:round-pair"), {}),
        (url("tournaments:round-deadline", number=1), {"deadline": "2030-01-01T20:00:00Z"}),
        (url("tournaments:round-no-shows", number=1), {}),
        (url("tournaments:result-correct", mid=second.pk),
         {"winner": second.entry_one_id, "score_one": 1, "score_two": 0}),
        (reverse("games:match-forfeit", kwargs={"pk": second.match_id}),
         {"loser": second.entry_two.player_id}),
        (results(second.match_id), {"scope": "match", "score_one": 1, "score_two": 0}),
    ]  # fmt: skip
    for user in (insider, other):
        client = api_as(user).client
        for address, body in calls:
            response = client.post(address, body, format="json")
            assert response.status_code == 403, (user, address, response.content)
        patch = client.patch(url("tournaments:tournament-detail"), {"name": "Mine"}, format="json")
        assert patch.status_code == 403
    assert ResultReport.objects.filter(match__tournament_match__tournament=tournament).count() == 0
    tournament.refresh_from_db()
    assert (tournament.name, tournament.current_round, tournament.status) == ("Cup", 1, "running")
    assert all(row.status == "ready" for row in ready_rows(pk))
    assert not tournament.entries.filter(checked_in=True).exists()
    assert not tournament.entries.exclude(status="active").exists()
    # Reads are public: the queue, the tables, the audit log.
    for name, kwargs in [("tournaments:report-list", {}), ("tournaments:round-tables",
                         {"number": 1}), ("tournaments:audit-log", {})]:  # fmt: skip
        assert api_as(insider).client.get(url(name, **kwargs)).status_code == 200


# --- an organiser who plays (docs/decisions.md D39) ---------------------------------------------

PARTY = "you play in this match: a co-organiser or staff decides it"


@pytest.fixture
def own_cup(org_api, organiser, players):
    """The organiser plays in their own cup: players[0] is theirs, seed 1, in W1-1."""
    players[0].user = organiser
    players[0].save()
    return tournament_running(
        org_api,
        players[:4],
        format="single_elimination",
        match_length=5,
        match_mode="over_the_board",
    )


def test_an_organiser_who_plays_never_decides_their_own_match(own_cup, api_as, org_api, players):
    """Issue 19: the organiser reported his own win, the opponent disputed, he overrode the
    dispute and the rated result stood. Override, confirm, forfeit, correct and withdrawing the
    opponent are refused to him with a 403 saying why; a co-organiser decides."""
    first, _second = ready_rows(own_cup["id"])
    mine, theirs = first.entry_one, first.entry_two
    assert mine.player == players[0]
    report = org_api.post("games:result-list", FINAL_5_2, status=201, pk=first.match_id)
    assert report["status"] == "pending", "his report waits for the opponent, as any player's"
    api_as(theirs.player).post(
        "games:result-dispute", {"reason": "I won"}, pk=first.match_id, rid=report["id"]
    )

    client = org_api.client
    refused = [
        client.post(report_action(first.match_id, report["id"], "override"), FINAL_5_2,
                    format="json"),
        client.post(report_action(first.match_id, report["id"], "confirm")),
        client.post(reverse("games:match-forfeit", kwargs={"pk": first.match_id}),
                    {"loser": theirs.player_id}, format="json"),
        client.post(reverse("tournaments:entry-withdraw",
                            kwargs={"pk": own_cup["id"], "eid": theirs.pk})),
    ]  # fmt: skip
    for response in refused:
        assert (response.status_code, response.json()["detail"]) == (403, PARTY)
    first.refresh_from_db()
    theirs.refresh_from_db()
    assert first.status == "ready" and theirs.status == "active"
    assert Match.objects.get(pk=first.match_id).status == "in_progress"

    co = UserFactory(username="co-organiser")
    Tournament.objects.get(pk=own_cup["id"]).organisers.add(co)
    decision = {"scope": "match", "score_one": 2, "score_two": 5}
    api_as(co).post("games:result-override", decision, pk=first.match_id, rid=report["id"])
    first.refresh_from_db()
    assert first.status == "done" and first.winner == theirs

    correct = reverse("tournaments:result-correct", kwargs={"pk": own_cup["id"], "mid": first.pk})
    body = {"winner": mine.pk, "score_one": 5, "score_two": 2}
    response = client.post(correct, body, format="json")
    assert (response.status_code, response.json()["detail"]) == (403, PARTY)
    first.refresh_from_db()
    assert first.winner == theirs


def test_an_organiser_who_plays_may_still_withdraw_and_leaves_own_no_shows_alone(
    own_cup, api_as, org_api, players
):
    first, second = ready_rows(own_cup["id"])
    pk = own_cup["id"]
    Tournament.objects.filter(pk=pk).update(check_in_required=True)
    org_api.post("tournaments:round-deadline", {"deadline": "2020-01-01T00:00:00Z"}, pk=pk,
                 number=1)  # fmt: skip
    absent = {"absent": [first.entry_two_id, second.entry_two_id]}
    forfeited = org_api.post("tournaments:round-no-shows", absent, pk=pk, number=1)
    assert forfeited == {"forfeited": ["W1-2"]}, "his own match waits for a co-organiser"
    first.refresh_from_db()
    assert first.status == "ready"

    org_api.post("tournaments:entry-withdraw", pk=pk, eid=first.entry_one_id)
    first.refresh_from_db()
    assert first.status == "done" and first.winner_id == first.entry_two_id and first.is_forfeit


def test_an_organiser_adds_a_co_organiser_by_username(own_cup, api_as, org_api, organiser):
    """The desk's Settings tab adds co-organisers (docs/decisions.md D39): an organiser who plays
    needs one to decide their own matches."""
    pk = own_cup["id"]
    UserFactory(username="vesna")
    body = org_api.post("tournaments:organiser-add", {"username": "vesna"}, pk=pk)
    assert body["organisers"] == ["organiser", "vesna"]
    log = org_api.get("tournaments:audit-log", pk=pk)["results"]
    added = [e for e in log if e["action"] == "organiser_add"]
    assert [(e["actor"], e["changes"]) for e in added] == [
        ("organiser", {"organisers": [["organiser"], ["organiser", "vesna"]]})
    ]
    org_api.post("tournaments:organiser-add", {"username": "vesna"}, status=409, pk=pk)
    org_api.post("tournaments:organiser-add", {"username": "nobody"}, status=400, pk=pk)
    org_api.post("tournaments:organiser-add", {}, status=400, pk=pk)
    stranger = api_as(UserFactory(username="stranger"))
    stranger.post("tournaments:organiser-add", {"username": "stranger"}, status=403, pk=pk)
    # The new co-organiser adds another: every organiser may.
    UserFactory(username="marko")
    co = api_as(Tournament.objects.get(pk=pk).organisers.get(username="vesna"))
    co.post("tournaments:organiser-add", {"username": "marko"}, pk=pk)
    assert Tournament.objects.get(pk=pk).organisers.filter(username="marko").exists()
