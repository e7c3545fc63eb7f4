"""The catalogues follow docs/glossary.md: none of the words it rules out, and the Persian and Turkish
writing conventions it sets (one ezafe, Persian question marks and digits, one word for the stock)."""

# ruff: noqa: RUF001 - the Turkish and Persian phrases are meant

from __future__ import annotations

import re

import pytest

from .catalogues import ROOT, catalogue_paths, read_catalogue, relative

GLOSSARY = ROOT / "docs" / "glossary.md"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%%")
TAG = re.compile(r"<[^>]+>")


def ruled_out() -> dict[str, set[str]]:
    """The glossary's "not" column: language -> words no catalogue of that language may use."""
    words: dict[str, set[str]] = {"tr": set(), "fa": set()}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| ") or line.startswith("| English") or line.startswith("|---"):
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) < 5:
            continue
        for item in filter(None, (part.strip() for part in cells[4].split(";"))):
            language, _, word = item.partition(":")
            words[language.strip()].add(word.strip())
    return words


def translations(language: str) -> list[tuple[str, str, str]]:
    """(catalogue, msgid, msgstr) for every translation of `language`, plural forms included."""
    return [
        (relative(path), entry.msgid, text)
        for path in catalogue_paths(language)
        for entry in read_catalogue(path)
        for text in entry.msgstrs
    ]


def as_read(text: str) -> str:
    """A translation without its placeholders and markup: what the translator wrote."""
    return TAG.sub(" ", PLACEHOLDER.sub(" ", text))


def test_the_glossary_rules_words_out_in_both_languages():
    words = ruled_out()
    assert {"در زدن", "بمان", "خاموش"} <= words["fa"]
    assert {"Dur", "koltuk", "Mektupla", "uzaktayım", "Puanlı"} <= words["tr"]


@pytest.mark.parametrize("language", ["tr", "fa"])
def test_no_catalogue_uses_a_word_the_glossary_rules_out(language):
    found = []
    for word in sorted(ruled_out()[language]):
        # A whole word: "Dur" is not in "Durum", nor "در زد" in "در زدید".
        pattern = re.compile(rf"(?<![\w\u200c]){re.escape(word)}(?![\w\u200c])")
        found += [(word, where, text) for where, _msgid, text in translations(language) if pattern.search(text)]
    assert not found, "\n".join(map(str, found))


def test_persian_writes_the_ezafe_one_way():
    assert not [text for _where, _msgid, text in translations("fa") if "\u0647\u0654" in text]  # هٔ


def test_persian_questions_end_with_the_persian_question_mark():
    wrong = [(msgid, text) for _where, msgid, text in translations("fa") if "?" in text]
    # A sentence that opens with آیا asks a question, whatever the English says.
    for _where, msgid, text in translations("fa"):
        for sentence in re.findall(r"آیا[^.؟]*[.؟]?", text):
            if not sentence.endswith("؟"):
                wrong.append((msgid, text))
    assert not wrong, "\n".join(map(str, wrong))


def test_persian_text_writes_persian_digits():
    # Latin digits only inside Latin names such as SHA-256.
    wrong = [
        (msgid, text)
        for _where, msgid, text in translations("fa")
        if re.search(r"(?<![A-Za-z0-9-])[0-9]+(?![0-9]*[A-Za-z])", as_read(text))
    ]
    assert not wrong, "\n".join(map(str, wrong))


def test_persian_never_writes_the_bare_word_for_a_pile():
    # دسته is one letter from دست (hand): the deck, the stock and the discard pile always carry their
    # qualifier.
    qualified = re.compile(r"دسته(\u200cی|\u200cهای) (کارت|کشیدن|دور ریختنی)|دسته\u200cهای \S+ کارتی")
    wrong = [(msgid, text) for _where, msgid, text in translations("fa") if "دسته" in qualified.sub("", text)]
    assert not wrong, "\n".join(map(str, wrong))


@pytest.mark.parametrize("language", ["tr", "fa"])
def test_a_question_stays_a_question(language):
    mark = "?" if language == "tr" else "؟"
    wrong = [
        (msgid, text)
        for _where, msgid, text in translations(language)
        if msgid.endswith("?") and not text.endswith(mark)
    ]
    assert not wrong
