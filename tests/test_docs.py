"""The documentation: the API docs work offline (Swagger UI from our static files, not from a
CDN), and the project's own docs (README.md, docs/) link only inside the repository, every
citation of a docs section names one that exists, and their worked examples are true."""

import json
import os
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import reverse

LINKED = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""")


@pytest.mark.django_db
def test_swagger_ui_loads_only_local_static_files(client):
    response = client.get(reverse("docs"))
    html = response.content.decode()

    assert response.status_code == 200
    urls = LINKED.findall(html)
    assert any(url.endswith("swagger-ui-bundle.js") for url in urls)
    assert "://" not in html and "cdn" not in html.lower()
    for url in urls:
        if url == reverse("docs") + "?script=":  # Swagger UI's start-up script, not inline (CSP)
            script = client.get(url)
            assert script.status_code == 200 and b"://" not in script.content
            continue
        assert url.startswith(settings.STATIC_URL), url
        assert finders.find(url.removeprefix(settings.STATIC_URL)), url


# --- the project's own documentation (README.md and docs/) -------------------------------------
# Every link stays inside the repository and names a file (and heading) that exists; every
# citation of a docs page in code, tests and docs ("docs/rules.md §4.4 item 8", "docs/rules.md
# B5") names a section that exists; the worked examples of the engine's answers are true.

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
PAGES = [REPO / "README.md", *sorted(DOCS.glob("*.md"))]
SKIPPED_DIRS = {".git", ".venv", "node_modules", "staticfiles", "artifacts", "__pycache__"}
CITING_SUFFIXES = {".py", ".md", ".html", ".js", ".txt", ".toml", ".cfg"}
# Until every citation of the team's former specification files is rewritten, they are read
# as citations of the pages that replaced them (the same section numbers).
LEGACY_NAMES: dict[str, str] = {}  # the former team-internal spec files: none cited any more
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "[::1]"}

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
INLINE_LINK = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'][^)]*)?\)")
REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^>\s]+)>")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
CITATION = re.compile(r"(?<![\w./-])((?:docs/)?[A-Za-z][\w-]*\.md)\b")


def markdown_links(text: str) -> list[str]:
    """The targets of inline, reference and auto links, outside code blocks and code spans."""
    prose = CODE_SPAN.sub("", FENCE.sub("", text))
    return [
        *INLINE_LINK.findall(prose),
        *REFERENCE_LINK.findall(prose),
        *AUTOLINK.findall(prose),
    ]


def headings(path: Path) -> list[tuple[int, str, int]]:
    """(level, text, line number) of each heading of a Markdown file, outside code blocks."""
    found, fenced = [], False
    for number, line in enumerate(path.read_text().splitlines()):
        if line.startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and (match := HEADING.match(line)):
            found.append((len(match.group(1)), match.group(2), number))
    return found


def slug(text: str, seen: dict[str, int]) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    plain = re.sub(r"[^\w\- ]", "", CODE_SPAN.sub(lambda m: m.group(0)[1:-1], text).lower())
    anchor = plain.replace(" ", "-")
    count = seen.get(anchor, 0)
    seen[anchor] = count + 1
    return anchor if count == 0 else f"{anchor}-{count}"


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    return {slug(text, seen) for _level, text, _line in headings(path)}


def link_problem(page: Path, target: str) -> str | None:
    """Why the link ``target`` on ``page`` is not allowed, or None."""
    parts = urlsplit(target)
    if parts.scheme:
        if parts.scheme in ("http", "https") and parts.hostname in LOOPBACK_HOSTS:
            return None  # the local service (make run), not an outside site
        return "links outside the repository are not allowed"
    file_part, _, fragment = target.partition("#")
    resolved = (page.parent / unquote(file_part)).resolve() if file_part else page
    if not resolved.is_relative_to(REPO):
        return "points outside the repository"
    if not resolved.exists():
        return "names a file that does not exist"
    if fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
        return f"names no heading of {resolved.relative_to(REPO)}"
    return None


# --- citations of sections ----------------------------------------------------------------------

SECTION = re.compile(
    r"§\s*(\d+(?:\.\d+)*)(?:\s*[-–]\s*§?\s*(\d+(?:\.\d+)*))?"
    r"(?:\s+items?\s+(\d+(?:\s*(?:,|and)\s*\d+)*))?"
)
APPENDIX = re.compile(r"\bAppendix\s+([A-Z])\b(?!\d)(?:/([A-Z])\b)?")
CASE_ID = re.compile(r"\b([A-Z])(\d{1,2})\b(?:\s*[-–]\s*([A-Z])(\d{1,2})\b)?")
CASE = re.compile(r"\bCases?\s+(\d+)(?:\s*[-–]\s*(\d+))?")
LAYER = re.compile(r"\btest layer\s+(\d+)", re.IGNORECASE)
KEY_OF_HEADING = (
    (re.compile(r"^(\d+(?:\.\d+)*)\.?(?:\s|$)"), "§{}"),
    (re.compile(r"^Appendix\s+([A-Z])\b"), "Appendix {}"),
    (re.compile(r"^([A-Z]\d+)\b"), "{}"),
    (re.compile(r"^Case\s+(\d+)\b"), "Case {}"),
    (re.compile(r"^Layer\s+(\d+)\b"), "Layer {}"),
)


def section_keys(path: Path) -> dict[str, list[str]]:
    """Each citable heading of a docs page ("§4.4", "Appendix B", "B5", "Case 13", "Layer 2")
    with the lines of its section (up to the next heading of the same or a higher level)."""
    lines = path.read_text().splitlines()
    found = headings(path)
    keys: dict[str, list[str]] = {}
    for index, (level, text, start) in enumerate(found):
        end = next((line for lvl, _t, line in found[index + 1 :] if lvl <= level), len(lines))
        for pattern, key in KEY_OF_HEADING:
            if match := pattern.match(text):
                keys[key.format(match.group(1))] = lines[start + 1 : end]
                break
    return keys


def _span(first: str, last: str | None) -> list[str]:
    """The numbers a range such as "2-5" or "5.4-5.5" covers (its ends, and those between)."""
    if last is None:
        return [first]
    head, _, low = first.rpartition(".")
    last_head, _, high = last.rpartition(".")
    if head != last_head or int(high) < int(low):
        return [first, last]
    return [f"{head}.{n}" if head else str(n) for n in range(int(low), int(high) + 1)]


def cited_keys(reference: str) -> list[tuple[str, str | None]]:
    """The sections a citation's text names, each with a list item it names (or None)."""
    cited: list[tuple[str, str | None]] = []
    for first, last, items in SECTION.findall(reference):
        numbers = _span(first, last or None)
        cited += [(f"§{n}", None) for n in numbers]
        cited += [(f"§{numbers[-1]}", item) for item in re.findall(r"\d+", items)]
    for first, second in APPENDIX.findall(reference):
        cited += [(f"Appendix {letter}", None) for letter in (first, second) if letter]
    for letter, low, last_letter, high in CASE_ID.findall(reference):
        if high and last_letter == letter:
            cited += [(f"{letter}{n}", None) for n in range(int(low), int(high) + 1)]
        else:
            cited += [(f"{letter}{low}", None)] + ([(f"{last_letter}{high}", None)] if high else [])
    for low, high in CASE.findall(reference):
        cited += [(f"Case {n}", None) for n in range(int(low), int(high or low) + 1)]
    cited += [(f"Layer {n}", None) for n in LAYER.findall(reference)]
    return cited


def citation_problems(text: str, where: Path) -> list[str]:
    """Every citation in ``text`` (a file at ``where``) of a docs page or of one of its sections
    that does not resolve, as "file: citation: why"."""
    problems = []
    for match in CITATION.finditer(text):
        name = match.group(1)
        if name in LEGACY_NAMES:
            page = REPO / LEGACY_NAMES[name]
        elif name.startswith("docs/"):
            page = REPO / name
        elif where.parent == DOCS and (DOCS / name).exists():
            page = DOCS / name  # a docs page citing another by its bare name
        else:
            continue
        rest = text[match.end() : match.end() + 80].replace("App. ", "Appendix ")
        reference = re.split(r"[()\[\]:;`\"'{}<>\n]|\.(?:\s|$)", rest, maxsplit=1)[0]
        place = f"{where.relative_to(REPO)}: {name}{reference.rstrip()}"
        if not page.exists():
            problems.append(f"{place}: {page.relative_to(REPO)} does not exist")
            continue
        keys = section_keys(page)
        for key, item in cited_keys(reference):
            body = keys.get(key)
            if body is None:
                problems.append(f"{place}: no heading {key!r} in {page.relative_to(REPO)}")
            elif item and not any(re.match(rf"\s*{item}\.\s", line) for line in body):
                problems.append(f"{place}: {key} has no item {item}")
    return problems


def citing_files() -> list[Path]:
    """The project's source and text files (not this one: its citations are examples, some of
    them wrong on purpose), without walking into the virtualenv or other generated trees."""
    files = []
    for folder, subfolders, names in os.walk(REPO):
        subfolders[:] = [name for name in subfolders if name not in SKIPPED_DIRS]
        files += [Path(folder) / name for name in names if Path(name).suffix in CITING_SUFFIXES]
    return sorted(path for path in files if path != Path(__file__).resolve())


def test_every_markdown_link_stays_inside_the_repository_and_exists():
    problems = [
        f"{page.relative_to(REPO)}: ({target}) {why}"
        for page in PAGES
        for target in markdown_links(page.read_text())
        if (why := link_problem(page, target))
    ]
    assert problems == []
    assert "](../" not in "".join(page.read_text() for page in PAGES)


def test_readme_links_the_docs():
    targets = set(markdown_links((REPO / "README.md").read_text()))
    assert {"docs/README.md", "docs/rules.md", "docs/options.md", "docs/decisions.md"} <= targets


def test_link_check_refuses_outside_missing_and_unknown_anchor_targets():
    readme = REPO / "README.md"
    text = (
        "[a](../sibling/RULES.md) [b](docs/missing.md) [c](docs/rules.md#no-such-heading) "
        "[d](https://example.org/) [e](docs/rules.md#44-doubles-the-escalating-cascade) "
        "`[f](../in/code.md)` <http://127.0.0.1:8000>"
    )
    found = {target: link_problem(readme, target) for target in markdown_links(text)}
    assert found == {
        "../sibling/RULES.md": "points outside the repository",
        "docs/missing.md": "names a file that does not exist",
        "docs/rules.md#no-such-heading": "names no heading of docs/rules.md",
        "https://example.org/": "links outside the repository are not allowed",
        "docs/rules.md#44-doubles-the-escalating-cascade": None,
        "http://127.0.0.1:8000": None,
    }


def test_every_citation_of_a_docs_section_names_an_existing_heading():
    problems = [
        problem
        for path in citing_files()
        for problem in citation_problems(path.read_text(errors="replace"), path)
    ]
    assert problems == []


@pytest.mark.parametrize(
    "citation",
    [
        "docs/rules.md §4.4 item 8, B4-B5",
        "docs/rules.md §2.7, §3.6, §4.6, §5.4-5.5, §5.7, Appendix B6",
        "docs/rules.md §2-§5, App. A/B",
        "docs/rules.md §9 (1-23)",
        "docs/rules.md §4.7 (F3)",
        "docs/rules.md Case 13",
        "docs/rules.md §4.4 items 3 and 8",
        "docs/rules.md, Appendix C",
        "docs/conventions.md, test layer 3",
    ],
)
def test_citation_check_accepts_existing_sections(citation):
    assert citation_problems(citation, REPO / "games" / "x.py") == []


@pytest.mark.parametrize(
    ("citation", "why"),
    [
        ("docs/rules.md §13", "no heading '§13'"),
        ("docs/rules.md §4.4 item 9", "§4.4 has no item 9"),
        ("docs/rules.md §4.4 items 3 and 9", "§4.4 has no item 9"),
        ("docs/rules.md §4.4-4.9", "no heading '§4.9'"),
        ("docs/rules.md B9", "no heading 'B9'"),
        ("docs/rules.md Appendix D", "no heading 'Appendix D'"),
        ("docs/rules.md Case 24", "no heading 'Case 24'"),
        ("docs/conventions.md, test layer 5", "no heading 'Layer 5'"),
        ("docs/engine.md §1", "docs/engine.md does not exist"),
    ],
)
def test_citation_check_reports_missing_sections(citation, why):
    problems = citation_problems(citation, REPO / "games" / "x.py")
    assert len(problems) == 1 and why in problems[0], problems


def test_no_citation_names_the_former_specification_files():
    legacy = re.compile(r"(?<![\w./-])(?:RULES|STYLE)\.md\b")
    citing = [
        str(path.relative_to(REPO)) for path in citing_files() if legacy.search(path.read_text())
    ]
    assert citing == []


def test_every_option_and_preset_is_documented():
    from dataclasses import fields

    from games.engine import PRESETS, Options

    text = (DOCS / "options.md").read_text()
    missing = [f.name for f in fields(Options) if f"| `{f.name}` |" not in text]
    missing += [name for name in PRESETS if f"| `{name}` |" not in text]
    assert missing == []


def _example_pairs() -> list[tuple[str, str, str]]:
    """(page, query line, answer line) of every ```jsonl block of the docs."""
    pairs = []
    for page in sorted(DOCS.glob("*.md")):
        for block in re.findall(r"^```jsonl\n(.*?)^```", page.read_text(), re.S | re.M):
            lines = block.strip().splitlines()
            assert len(lines) % 2 == 0, f"{page.name}: a jsonl block pairs queries and answers"
            pairs += [(page.name, lines[i], lines[i + 1]) for i in range(0, len(lines), 2)]
    return pairs


def test_docs_hold_worked_examples():
    assert len(_example_pairs()) >= 5


@pytest.mark.parametrize(("page", "query", "answer"), _example_pairs())
def test_worked_example_is_what_the_engine_answers(page, query, answer):
    """The answer's plays are the engine's, compared by resulting state (the order of moves
    within a play is free, rules.md B3), and each play's moves reach its stated position."""
    from games.engine import Options, Position, check_play
    from games.engine.query import answer_line

    expected, actual = json.loads(answer), answer_line(query)
    if "error" in expected:
        assert actual == expected
        return

    def states(plays: list[dict]) -> list[str]:
        return sorted(json.dumps([p["position"], p.get("result")], sort_keys=True) for p in plays)

    assert states(actual["plays"]) == states(expected["plays"])
    asked = json.loads(query)
    for play in expected["plays"]:
        outcome = check_play(
            asked["variant"],
            Position.from_json(asked["position"]),
            asked.get("dice"),
            play["moves"],
            Options.from_json(asked.get("options")),
        )
        assert outcome.position.to_json() == play["position"]
        assert (outcome.result.to_json() if outcome.result else None) == play.get("result")
