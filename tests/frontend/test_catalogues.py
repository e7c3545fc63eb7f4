"""Every catalogue (the project's and the tournaments app's, server and script texts): one translation
per text across them, valid for msgfmt, compiled, and each entry pointing at where its text is used."""

from __future__ import annotations

import gettext
import shutil
import subprocess
from collections import defaultdict

import pytest

from tests.conftest import require_service

from .catalogues import LANGUAGES, ROOT, all_catalogue_paths, catalogue_paths, read_catalogue, relative


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_text_has_one_translation_in_every_catalogue(language):
    # Django takes a text from the first catalogue that has it, so a second translation of the same
    # text in another catalogue never shows on the pages that catalogue was written for.
    seen: dict[tuple, dict[str, tuple[str, ...]]] = defaultdict(dict)
    for path in catalogue_paths(language):
        for entry in read_catalogue(path):
            seen[entry.key][relative(path)] = tuple(entry.msgstrs)
    conflicts = {key: found for key, found in seen.items() if len(set(found.values())) > 1}
    assert not conflicts, "\n".join(f"{key}: {found}" for key, found in conflicts.items())


@pytest.mark.parametrize("path", all_catalogue_paths(), ids=relative)
def test_the_catalogue_passes_msgfmt_check(path):
    msgfmt = shutil.which("msgfmt")
    require_service(msgfmt is not None, "this test needs msgfmt (apt-get install gettext)")
    result = subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("path", all_catalogue_paths(), ids=relative)
def test_every_entry_names_where_its_text_is_used(path):
    # makemessages writes the references relative to the folder it ran in: the project's root for
    # locale/, the app's folder for an app's own catalogue.
    base = ROOT if path.parents[2] == ROOT / "locale" else path.parents[3]
    entries = read_catalogue(path)
    assert entries
    unreferenced = [entry.msgid for entry in entries if not entry.references]
    assert not unreferenced, f"{relative(path)}: entries without a source reference: {unreferenced[:5]}"
    missing = {ref for entry in entries for ref in entry.references if not (base / ref.rsplit(":", 1)[0]).exists()}
    assert not missing, f"{relative(path)}: references to files that are not there: {sorted(missing)[:5]}"


@pytest.mark.parametrize("path", all_catalogue_paths(), ids=relative)
def test_the_compiled_catalogue_matches_its_po_file(path):
    with path.with_suffix(".mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)._catalog
    for entry in read_catalogue(path):
        msgid = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        if entry.msgid_plural is None:
            assert compiled.get(msgid) == entry.msgstrs[0], f"run compilemessages ({msgid})"
        else:
            shown = [compiled.get((msgid, n)) for n in range(len(entry.msgstrs))]
            assert shown == entry.msgstrs, f"run compilemessages ({msgid})"
