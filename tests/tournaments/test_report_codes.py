"""Results from the tables (issue 22 §1, docs/decisions.md D83, D84): the printed slips carry
each player's code and its QR code; with a code, no account, a player reports the final score,
the opponent confirms it with theirs or disputes it with their own score, and wrong codes are
counted per address."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from common.errors import ConflictError, InvalidRequestError, NotAllowedError
from common.site import qr_svg
from games import report_codes
from games.models import Match, MatchReportCode, ResultReport
from games.services import (
    Slip,
    report_codes_issue,
    result_confirm,
    result_confirm_by_code,
    result_dispute_by_code,
    result_override,
    result_report_by_code,
)
from games.services.report_codes import UNKNOWN, ReportCodeUnknownError
from tests.tournaments.factories import PlayerFactory, UserFactory
from tests.tournaments.helpers import tournament_running
from tournaments.models import TournamentMatch

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(org_api):
    """A running single elimination of four players (each with an account) over the board,
    matches to 5: two matches ready in round 1."""
    players = [
        PlayerFactory(
            display_name=name, rating=1800.0 - 20 * i, user=UserFactory(username=name.lower())
        )
        for i, name in enumerate(["Ana", "Boris", "Cvetan", "Dora"])
    ]
    return tournament_running(
        org_api, players, format="single_elimination", match_length=5, match_mode="over_the_board"
    )


@pytest.fixture
def matches(cup):
    rows = TournamentMatch.objects.filter(tournament_id=cup["id"], status="ready").order_by("index")
    return [row.match for row in rows.select_related("match")]


@pytest.fixture
def codes(matches, organiser):
    """Each match's codes: (player one's, player two's)."""
    made = report_codes_issue(user=organiser, slips=[Slip(match_id=m.pk) for m in matches])
    by = {(c.match_id, c.player_id): c.code for c in made}
    return [(by[m.pk, m.player_one_id], by[m.pk, m.player_two_id]) for m in matches]


def print_url(cup, **query):
    url = reverse("tournaments_web:desk-print-round", kwargs={"pk": cup["id"], "number": 1})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def page(code):
    return reverse("web:report-code", kwargs={"code": code})


# --- the services ----------------------------------------------------------------------------


def test_codes_are_made_once_per_player_and_kept_on_reprints(matches, codes, organiser):
    assert MatchReportCode.objects.count() == 4
    for one, two in codes:
        for code in (one, two):
            assert len(code) == 8 and set(code) <= set(report_codes.CODE_ALPHABET)
        assert one != two
    again = report_codes_issue(
        user=organiser, slips=[Slip(match_id=m.pk, label="Cup · Round 1") for m in matches]
    )
    assert sorted(c.code for c in again) == sorted(c for pair in codes for c in pair)
    assert MatchReportCode.objects.count() == 4
    assert set(MatchReportCode.objects.values_list("label", flat=True)) == {"Cup · Round 1"}


def test_only_the_matchs_organisers_issue_codes(matches):
    with pytest.raises(NotAllowedError):
        report_codes_issue(user=UserFactory(), slips=[Slip(match_id=matches[0].pk)])
    assert not MatchReportCode.objects.exists()


def test_a_score_reported_with_a_code_waits_for_the_other_code(
    matches, codes, django_capture_on_commit_callbacks
):
    match = matches[0]
    one, two = codes[0]
    report = result_report_by_code(code=one.lower(), score_one=5, score_two=2)
    assert report.status == "pending" and report.reporter is None
    assert report.reported_with.player_id == match.player_one_id
    assert report.winner_id == match.player_one_id
    match.refresh_from_db()
    assert match.status == "in_progress"
    with pytest.raises(ConflictError):  # one open report at a time
        result_report_by_code(code=two, score_one=5, score_two=2)
    with django_capture_on_commit_callbacks(execute=True):
        confirmed = result_confirm_by_code(code=f"{two[:4]}-{two[4:]}", report_id=report.pk)
    assert confirmed.status == "confirmed" and confirmed.responded_by is None
    assert confirmed.responded_with.player_id == match.player_two_id
    match.refresh_from_db()
    assert (match.status, match.score_one, match.score_two) == ("finished", 5, 2)
    assert match.winner_id == match.player_one_id
    row = TournamentMatch.objects.get(match=match)
    assert (row.status, row.score_one, row.score_two) == ("done", 5, 2)


def test_the_codes_player_never_confirms_their_own_report(matches, codes):
    match = matches[0]
    one, _ = codes[0]
    report = result_report_by_code(code=one, score_one=5, score_two=2)
    with pytest.raises(NotAllowedError):
        result_confirm_by_code(code=one, report_id=report.pk)
    with pytest.raises(NotAllowedError):
        result_dispute_by_code(code=one, report_id=report.pk, score_one=2, score_two=5)
    with pytest.raises(NotAllowedError):  # nor signed in, as the same player
        result_confirm(report=report, user=match.player_one.user)
    assert ResultReport.objects.get(pk=report.pk).status == "pending"


def test_a_signed_in_players_report_is_confirmed_with_the_opponents_code(matches, codes):
    from games.services import result_report

    match = matches[0]
    report = result_report(
        match=match, user=match.player_two.user, scope="match", score_one=3, score_two=5
    )
    with pytest.raises(NotAllowedError):  # player two's own code
        result_confirm_by_code(code=codes[0][1], report_id=report.pk)
    confirmed = result_confirm_by_code(code=codes[0][0], report_id=report.pk)
    assert confirmed.status == "confirmed"
    match.refresh_from_db()
    assert (match.status, match.winner_id) == ("finished", match.player_two_id)


def test_a_mismatch_goes_to_the_desk_with_both_scores(matches, codes, organiser):
    one, two = codes[0]
    report = result_report_by_code(code=one, score_one=5, score_two=2)
    with pytest.raises(InvalidRequestError):  # the same score is confirmed, not disputed
        result_dispute_by_code(code=two, report_id=report.pk, score_one=5, score_two=2)
    with pytest.raises(InvalidRequestError):  # no match ends 4-4
        result_dispute_by_code(code=two, report_id=report.pk, score_one=4, score_two=4)
    disputed = result_dispute_by_code(
        code=two, report_id=report.pk, score_one=3, score_two=5, reason="I won the last game"
    )
    assert disputed.status == "disputed"
    assert (disputed.score_one, disputed.score_two) == (5, 2)
    assert (disputed.disputed_score_one, disputed.disputed_score_two) == (3, 5)
    assert disputed.responded_with.player_id == matches[0].player_two_id
    with pytest.raises(ConflictError):  # answered: a code no longer changes it
        result_confirm_by_code(code=two, report_id=report.pk)
    decided = result_override(
        report=disputed, user=organiser, scope="match", score_one=3, score_two=5
    )
    assert decided.status == "overridden"


def test_a_code_touches_only_its_own_match(matches, codes):
    report = result_report_by_code(code=codes[0][0], score_one=5, score_two=2)
    with pytest.raises(NotAllowedError):
        result_confirm_by_code(code=codes[1][1], report_id=report.pk)
    with pytest.raises(NotAllowedError):
        result_dispute_by_code(code=codes[1][0], report_id=report.pk, score_one=2, score_two=5)
    assert ResultReport.objects.get(pk=report.pk).status == "pending"
    assert not matches[1].reports.exists()


def test_a_code_is_dead_once_its_match_is_confirmed(matches, codes):
    one, two = codes[0]
    report = result_report_by_code(code=one, score_one=5, score_two=2)
    result_confirm_by_code(code=two, report_id=report.pk)
    assert report_codes.code_open(one) is None and report_codes.code_open(two) is None
    for code in (one, two):
        with pytest.raises(ReportCodeUnknownError):
            result_report_by_code(code=code, score_one=5, score_two=0)
    assert report_codes.code_open(codes[1][0]) is not None  # the other match's still work


def test_wrong_codes_are_unknown_alike(matches, codes):
    for typed in ("", "ABCD", "00000000", "ABCDEFGH", codes[0][0] + "X"):
        with pytest.raises(ReportCodeUnknownError) as refused:
            result_report_by_code(code=typed, score_one=5, score_two=2)
        assert str(refused.value) == UNKNOWN


def test_the_desk_confirms_a_code_report(matches, codes, organiser):
    report = result_report_by_code(code=codes[0][1], score_one=1, score_two=5)
    assert result_confirm(report=report, user=organiser).status == "confirmed"
    match = Match.objects.get(pk=matches[0].pk)
    assert (match.status, match.winner_id) == ("finished", match.player_two_id)


# --- the page --------------------------------------------------------------------------------


def test_the_page_reports_and_the_opponents_page_confirms(matches, codes, org_api, cup):
    match = matches[0]
    one, two = codes[0]
    client = Client()
    shown = client.get(page(f"{one[:4]}-{one[4:]}".lower()))
    html = shown.content.decode()
    assert shown.status_code == 200 and "data-report-form" in html
    assert "Ana" in html and "Dora" in html

    posted = client.post(page(one), {"action": "report", "score_one": "5", "score_two": "3"})
    assert posted.status_code == 302
    waiting = client.get(page(one)).content.decode()
    assert "data-waiting" in waiting and "Waiting for Dora to confirm" in waiting

    other = Client()
    answer = other.get(page(two)).content.decode()
    assert "data-confirm-form" in answer and "Ana reported the final score" in answer
    report = match.reports.get()
    done = other.post(page(two), {"action": "confirm", "report": str(report.pk)})
    assert done.status_code == 200 and "data-done" in done.content.decode()
    match.refresh_from_db()
    assert (match.status, match.score_one, match.score_two) == ("finished", 5, 3)
    assert other.get(page(two)).status_code == 404  # dead once confirmed

    # The desk's audit trail names the report, which names the code it came with.
    log = org_api.get("tournaments:audit-log", pk=cup["id"])["results"]
    entry = next(e for e in log if e["action"] == "result")
    assert entry["changes"]["report"] == [None, report.pk]


def test_the_page_disputes_with_the_players_own_score(matches, codes, organiser):
    one, two = codes[0]
    Client().post(page(one), {"action": "report", "score_one": "5", "score_two": "0"})
    report = matches[0].reports.get()
    bad = Client().post(page(two), {"action": "report", "score_one": "5", "score_two": "1"})
    assert bad.status_code == 409  # the opponent's report waits for an answer first
    refused = Client().post(
        page(two), {"action": "dispute", "report": report.pk, "score_one": "9", "score_two": "9"}
    )
    assert refused.status_code == 400 and "data-error" in refused.content.decode()
    sent = Client().post(
        page(two), {"action": "dispute", "report": report.pk, "score_one": "4", "score_two": "5"}
    )
    assert sent.status_code == 302
    assert "data-disputed" in Client().get(page(one)).content.decode()
    desk = Client()
    desk.force_login(organiser)
    pk = TournamentMatch.objects.get(match=matches[0]).tournament_id
    tab = desk.get(reverse("tournaments_web:desk", kwargs={"pk": pk}), {"tab": "results"})
    tab = tab.content.decode()
    assert "Ana (slip code)" in tab
    assert "data-disputed-score" in tab and "Ana 4–5 Dora" in tab


@override_settings(REPORT_CODE_LIMIT_FAILURES=3, REPORT_CODE_LIMIT_SECONDS=600)
def test_wrong_codes_from_an_address_are_refused_past_the_limit(matches, codes):
    client = Client(REMOTE_ADDR="198.51.100.7")
    for wrong in ("AAAAAAAA", "BBBB-BBBB", "nonsense"):
        answer = client.get(page(wrong))
        assert answer.status_code == 404
        assert "This code opens no match" in answer.content.decode()
    blocked = client.get(page(codes[0][0]))  # even a right code, so guessing learns nothing
    assert blocked.status_code == 429 and int(blocked["Retry-After"]) > 0
    assert client.post(page(codes[0][0]), {"action": "report"}).status_code == 429
    elsewhere = Client(REMOTE_ADDR="203.0.113.9")
    assert elsewhere.get(page(codes[0][0])).status_code == 200


@override_settings(REPORT_CODE_LIMIT_FAILURES=2, REPORT_CODE_LIMIT_SECONDS=60)
def test_the_limit_lifts_when_its_window_has_passed(matches, codes, monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(report_codes, "clock", lambda: now[0])
    client = Client(REMOTE_ADDR="198.51.100.8")
    for _ in range(2):
        assert client.get(page("ZZZZZZZZ")).status_code == 404
    assert client.get(page(codes[0][0])).status_code == 429
    now[0] += 61
    assert client.get(page(codes[0][0])).status_code == 200


def test_an_expired_code_gets_the_same_answer_as_a_wrong_one(matches, codes):
    one, two = codes[0]
    report = result_report_by_code(code=one, score_one=5, score_two=2)
    result_confirm_by_code(code=two, report_id=report.pk)
    expired = Client().get(page(one))
    wrong = Client().get(page("QQQQQQQQ"))
    assert expired.status_code == wrong.status_code == 404

    def said(answer):
        return re.search(r"<section.*?</section>", answer.content.decode(), re.S).group(0)

    assert said(expired) == said(wrong)


# --- the print ---------------------------------------------------------------------------------


def test_the_printed_slips_carry_both_players_codes_and_qr_codes(cup, matches, organiser):
    client = Client()
    client.force_login(organiser)
    html = client.get(print_url(cup)).content.decode()
    made = MatchReportCode.objects.select_related("player")
    assert made.count() == 4
    for code in made:
        shown = report_codes.code_shown(code.code)
        assert html.count(f'<span class="report-code-value">{shown}</span>') == 1  # its slip
        assert f"http://testserver/r/{code.code}/" not in html  # the QR holds it, as SVG
        title = f"{code.player.display_name}: scan to report"
        # The QR code of the page's full address (SITE_URL, else this host), drawn inline.
        assert qr_svg(f"http://testserver/r/{code.code}/", title=title) in html
    assert html.count('class="qr"') == 4
    labels = {c.match_id: c.label for c in made}
    assert [labels[m.pk] for m in matches] == [
        "Cup · Round 1 · Semi-final · Table 1",
        "Cup · Round 1 · Semi-final · Table 2",
    ]
    again = client.get(print_url(cup, qr=1)).content.decode()
    assert again.count('class="qr"') == 8  # and on the pairings' rows
    assert MatchReportCode.objects.count() == 4
    assert set(re.findall(r'data-report-code="([A-Z0-9-]+)"', again)) == {
        report_codes.code_shown(c.code) for c in made
    }


def test_the_api_names_the_codes_player_as_the_reporter(matches, codes, org_api):
    match = matches[0]
    report = result_report_by_code(code=codes[0][0], score_one=5, score_two=1)
    result_dispute_by_code(code=codes[0][1], report_id=report.pk, score_one=2, score_two=5)
    (listed,) = org_api.get("games:result-list", pk=match.pk)
    assert (listed["reporter"], listed["reporter_username"]) == (match.player_one_id, None)
    assert (listed["status"], listed["responded_by"]) == ("disputed", None)
    assert (listed["disputed_score_one"], listed["disputed_score_two"]) == (2, 5)
    assert "code" not in str(listed)  # the codes themselves are never served


def test_a_new_code_that_is_taken_is_made_again(matches, organiser, monkeypatch):
    from games.services import report_codes as service

    report_codes_issue(user=organiser, slips=[Slip(match_id=matches[0].pk)])
    taken = MatchReportCode.objects.values_list("code", flat=True).first()
    fresh = iter(["TAKEN", taken, "NEWCODE2", "NEWCODE3"])
    monkeypatch.setattr(service, "code_new", lambda: next(fresh).replace("TAKEN", taken))
    made = report_codes_issue(user=organiser, slips=[Slip(match_id=matches[1].pk)])
    assert sorted(code.code for code in made) == ["NEWCODE2", "NEWCODE3"]
    assert MatchReportCode.objects.count() == 4


def test_a_code_report_waits_for_the_opponent_only(matches, codes):
    from games.selectors import matches_awaiting

    match = matches[0]
    result_report_by_code(code=codes[0][0], score_one=5, score_two=2)
    assert [a.reason for a in matches_awaiting(match.player_two)] == ["confirm_result"]
    assert matches_awaiting(match.player_one) == []
    page_of = Client()
    page_of.force_login(match.player_one.user)  # the reporter, signed in, answers nothing
    html = page_of.get(reverse("web:match", kwargs={"pk": match.pk})).content.decode()
    opponent = Client()
    opponent.force_login(match.player_two.user)
    theirs = opponent.get(reverse("web:match", kwargs={"pk": match.pk})).content.decode()
    confirm = 'data-action="confirm" data-url="'
    assert (html.count(confirm), theirs.count(confirm)) == (0, 1)
