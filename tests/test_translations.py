"""The catalogues of locale/ (docs/translations.md): every language of settings.LANGUAGES but
English has one; each translates every message, with nothing fuzzy, the placeholders of its
message and as many plural forms as its Plural-Forms header says; each compiled django.mo says
what its django.po says; makemessages, run on a copy of the sources, finds no message the
catalogues lack and none they keep for nothing; and the pages in each language show no English.

The .po and .mo files are read here with the standard library only; the makemessages check needs
GNU gettext (xgettext, msgmerge), as makemessages itself does."""

from __future__ import annotations

import ast
import os
import re
import shutil
import struct
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


@dataclass
class Entry:
    context: str | None = None
    msgid: str = ""
    plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)

    @property
    def key(self) -> tuple[str | None, str]:
        return self.context, self.msgid


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file, the header ("" msgid) first; obsolete (#~) ones left out."""
    entries: list[Entry] = []
    entry = Entry()
    target: tuple[str, int] | None = None
    started = False

    def finish() -> None:
        nonlocal entry, started
        if started:
            entries.append(entry)
        entry, started = Entry(), False

    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = line.strip()
        if not line:
            finish()
        elif line.startswith("#,"):
            entry.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        else:
            keyword, _, rest = line.partition(" ")
            if line.startswith('"'):
                keyword, rest = "", line
            text = ast.literal_eval(rest)
            if keyword == "msgctxt":
                entry.context, target, started = text, ("context", 0), True
            elif keyword == "msgid":
                entry.msgid, target, started = text, ("msgid", 0), True
            elif keyword == "msgid_plural":
                entry.plural, target = text, ("plural", 0)
            elif keyword.startswith("msgstr"):
                index = int(keyword[7:-1]) if keyword != "msgstr" else 0
                entry.msgstr.append(text)
                target = ("msgstr", index)
            elif keyword == "" and target is not None:
                name, index = target
                if name == "msgstr":
                    entry.msgstr[index] += text
                else:
                    setattr(entry, name, getattr(entry, name) + text)
    return entries


def read_mo(path: Path) -> dict[str, str]:
    """A compiled catalogue as gettext stores it: "context\\x04msgid[\\x00plural]" → msgstr (the
    plural forms joined by \\x00)."""
    data = path.read_bytes()
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    _, count, originals, translations = struct.unpack(order + "4I", data[4:20])
    catalogue = {}
    for i in range(count):
        length, offset = struct.unpack(
            order + "2I", data[originals + 8 * i : originals + 8 * i + 8]
        )
        key = data[offset : offset + length].decode()
        length, offset = struct.unpack(
            order + "2I", data[translations + 8 * i : translations + 8 * i + 8]
        )
        catalogue[key] = data[offset : offset + length].decode()
    return catalogue


def mo_key(entry: Entry) -> str:
    key = entry.msgid if entry.plural is None else f"{entry.msgid}\x00{entry.plural}"
    return key if entry.context is None else f"{entry.context}\x04{key}"


def header(entries: list[Entry]) -> dict[str, str]:
    assert entries and entries[0].msgid == "" and entries[0].context is None
    lines = entries[0].msgstr[0].splitlines()
    return {
        name.strip(): value.strip() for name, _, value in (line.partition(":") for line in lines)
    }


def nplurals(entries: list[Entry]) -> int:
    match = re.search(r"nplurals\s*=\s*(\d+)", header(entries).get("Plural-Forms", ""))
    assert match, "the header has no Plural-Forms"
    return int(match.group(1))


def catalogue(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "django.po"


def test_every_language_of_the_site_has_a_catalogue_and_no_other():
    found = sorted(path.parts[-3] for path in LOCALE.glob("*/LC_MESSAGES/django.po"))
    assert found == sorted(LANGUAGES)
    assert len(LANGUAGES) >= 4  # Macedonian, Bulgarian, Greek and Turkish (issue 21 §5)


def problems(entries: list[Entry]) -> list[str]:
    """What keeps a catalogue from being complete: fuzzy or untranslated messages, the wrong
    number of plural forms, a placeholder added or lost."""
    forms = nplurals(entries)
    problems = []
    for entry in entries[1:]:
        wanted = set(PLACEHOLDER.findall(entry.msgid + (entry.plural or "")))
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {entry.msgid!r}")
        if not all(entry.msgstr):
            problems.append(f"untranslated: {entry.msgid!r}")
        if entry.plural is not None and len(entry.msgstr) != forms:
            problems.append(f"{len(entry.msgstr)} plural forms, not {forms}: {entry.msgid!r}")
        for text in entry.msgstr:
            names = set(PLACEHOLDER.findall(text))
            # A plural form may leave the number out ("one point" for 1); nothing else may go.
            if names - wanted or (entry.plural is None and names != wanted):
                problems.append(f"placeholders {sorted(names)} for {entry.msgid!r}")
    return problems


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_with_its_placeholders_and_plural_forms(language):
    entries = read_po(catalogue(language))
    assert header(entries).get("Language") == language
    assert "fuzzy" not in entries[0].flags, "a fuzzy header is ignored, Plural-Forms with it"
    assert not problems(entries), f"{language}: " + "; ".join(problems(entries))
    assert len(entries) > 500


def test_the_checks_see_a_fuzzy_an_untranslated_and_a_wrong_placeholder(tmp_path):
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: xx\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        '#, fuzzy, python-format\nmsgid "Round %(number)s"\nmsgstr "Kolo %(number)s"\n\n'
        'msgid "Home"\nmsgstr ""\n\n'
        'msgid "to %(target)s"\nmsgid_plural "to %(target)s points"\nmsgstr[0] "do %(t)s"\n'
        'msgstr[1] "do %(target)s"\n',
        encoding="utf-8",
    )
    entries = read_po(po)
    assert [entry.msgid for entry in entries] == ["", "Round %(number)s", "Home", "to %(target)s"]
    assert entries[3].msgstr == ["do %(t)s", "do %(target)s"] and nplurals(entries) == 2
    assert problems(entries) == [
        "fuzzy: 'Round %(number)s'",
        "untranslated: 'Home'",
        "placeholders ['t'] for 'to %(target)s'",
    ]
    entries[3].msgstr.pop()
    assert "1 plural forms, not 2: 'to %(target)s'" in problems(entries)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogue_says_what_the_po_says(language):
    """django.mo is committed: after editing a .po, run `manage.py compilemessages`."""
    entries = read_po(catalogue(language))
    compiled = read_mo(catalogue(language).with_suffix(".mo"))
    expected = {mo_key(entry): "\x00".join(entry.msgstr) for entry in entries[1:]}
    plural_forms = header(entries)["Plural-Forms"]
    assert f"Plural-Forms: {plural_forms}" in compiled.pop("", ""), "recompile: Plural-Forms"
    assert compiled == expected, f"{language}: django.mo is older than django.po: recompile it"


SOURCES_LEFT_OUT = {"tests", "docs", "deploy", "bench", "locale"}


def test_makemessages_finds_no_message_the_catalogues_lack(tmp_path):
    """makemessages on a copy of the sources (every top-level folder but the hidden ones and
    those above) and of locale/: the catalogues it writes hold the same messages as ours."""
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        pytest.fail("makemessages needs GNU gettext: apt-get install gettext")
    root = Path(settings.BASE_DIR)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".*")
    for source in root.iterdir():
        if (
            source.is_dir()
            and not source.name.startswith(".")
            and source.name not in SOURCES_LEFT_OUT
        ):
            shutil.copytree(source, tmp_path / source.name, ignore=ignore)
    shutil.copy(root / "manage.py", tmp_path)
    shutil.copytree(LOCALE, tmp_path / "locale", ignore=ignore)
    command = [sys.executable, "manage.py", "makemessages", "--no-obsolete"]
    for language in LANGUAGES:
        command += ["-l", language]
    env = {
        **os.environ,
        "PYTHONPATH": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
    }
    subprocess.run(command, cwd=tmp_path, env=env, check=True, capture_output=True, timeout=120)
    for language in LANGUAGES:
        ours = {entry.key for entry in read_po(catalogue(language))}
        fresh = {
            entry.key
            for entry in read_po(tmp_path / "locale" / language / "LC_MESSAGES" / "django.po")
        }
        missing, unused = sorted(fresh - ours, key=str), sorted(ours - fresh, key=str)
        assert not missing, f"{language} lacks (run makemessages): {missing}"
        assert not unused, f"{language} keeps unused messages: {unused}"


# --- the pages in each language -----------------------------------------------------------------


class VisibleText(HTMLParser):
    """The text a reader sees or hears: text outside <script>/<style>, and the title, aria-label,
    placeholder, alt and data-confirm attributes; but not the text of an element marked
    translate="no" (an address or a code to type in, data like a name)."""

    SAID = {"title", "aria-label", "placeholder", "alt", "data-confirm"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0
        self.untranslated: list[str] = []  # the open tags from a translate="no" element in

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.hidden += 1
        if self.untranslated or ("translate", "no") in attrs:
            self.untranslated.append(tag)
        self.parts += [value for name, value in attrs if name in self.SAID and value]

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.parts += [value for name, value in attrs if name in self.SAID and value]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.hidden -= 1
        if tag in self.untranslated:
            while self.untranslated.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if not self.hidden and not self.untranslated:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return " ".join(parser.parts)


def test_the_visible_text_leaves_out_what_is_marked_translate_no():
    html = (
        '<p title="Hello">Join at <a href="/" translate="no">http://club.example/ <b>AB</b></a>'
        ' with <span translate="no">FWYZ-NDZU</span><img alt="QR"> now</p>'
    )
    assert visible_text(html).split() == ["Hello", "Join", "at", "with", "QR", "now"]


# Latin words a page in Cyrillic or Greek may show: data (the players' and the tournament's
# names), the brand, the footer's language names, key names and technical terms.
ALLOWED_LATIN = {
    "Root",
    "Cup",
    "Tabla",
    "English",
    "Türkçe",
    "SHA",
    "JSON",
    "CSV",
    "API",
    "Crawford",
    "Tab",
    "Enter",
    "Space",
    "Esc",
    "Backspace",
    # the example list of players in the players' boxes (data: names in any language)
    "Ana",
    "Petrovska",
    "Boris",
    "Ivanov",
    "Vesna",
    "Trajkovska",
}
# A page in Turkish is in Latin letters: it must have none of these English words.
ENGLISH_WORDS = re.compile(
    r"\b(the|and|of|to|your|is|are|with|Round|Results|Settings|Registration|Rounds|Standings|"
    r"Save|Start|Home|Tournaments|Match|Matches|Players?|Points?|Desk|Print|Withdraw|Confirm|"
    r"Seed|Entries|Log|Rating|Game|Games|Board|Submit|Undo|Clock)\b"
)


@pytest.fixture
def pages(db, django_capture_on_commit_callbacks, django_user_model) -> tuple[Client, dict]:
    """A superuser's client (a player too, whose turn it is in an online match) and the home,
    match, player, tournament, new-tournament, claim and desk pages of a running Swiss."""
    from games import services
    from tests.tournaments.conftest import Api
    from tests.tournaments.factories import ClubFactory, PlayerFactory, UserFactory
    from tests.tournaments.helpers import tournament_running

    root = django_user_model.objects.create_superuser("root", "root@example.com", "password")
    club = ClubFactory(name="Охрид")  # data in no language of the pages
    me = PlayerFactory(user=root, display_name="Root", club=club)
    api = Api(UserFactory(username="o1"), django_capture_on_commit_callbacks)
    players = [PlayerFactory(display_name=f"P{i}", rating=1800.0 - i, club=club) for i in range(4)]
    cup = tournament_running(api, [me, *players[:3]], format="swiss", match_length=3)["id"]
    mine = services.match_create(creator=root, player_one=me, player_two=players[3])
    client = Client()
    client.force_login(root)
    desk = reverse("tournaments_web:desk", args=[cup])
    urls = {
        "home": reverse("web:home"),
        "match": reverse("web:match", args=[mine.pk]),
        "player": reverse("web:player", args=[me.pk]),
        "tournaments": reverse("tournaments_web:index"),
        "tournament": reverse("tournaments_web:tournament", args=[cup]),
        "new tournament": reverse("tournaments_web:new"),
        "claim": reverse("players_web:claim"),
        **{
            f"desk {tab}": f"{desk}?tab={tab}"
            for tab in ("registration", "settings", "rounds", "results")
        },
        "round print": reverse("tournaments_web:desk-print-round", args=[cup, 1]),
    }
    return client, urls


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pages_show_no_english(pages, language):
    client, urls = pages
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    for kind, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (kind, response.status_code)
        text = visible_text(response.content.decode())
        if language == "tr":
            english = sorted(set(ENGLISH_WORDS.findall(text)))
        else:
            english = sorted(set(re.findall(r"\b[A-Za-z]{3,}\b", text)) - ALLOWED_LATIN)
        assert not english, f"{language}, {kind}: {english}"
