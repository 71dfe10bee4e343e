"""Every `python` code block of README.md and docs/python.md, run as printed:
the documentation's examples are the tests (each checks its own result
against a published vector or a round trip), so a changed API or a wrong
example fails here."""
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
PAGES = [ROOT / "README.md", ROOT / "docs" / "python.md"]
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.S | re.M)


def blocks():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            yield pytest.param(m.group(1), id=f"{page.relative_to(ROOT)}:{line}")


def test_the_pages_have_examples():
    assert sum(1 for _ in blocks()) >= 6


@pytest.mark.parametrize("code", list(blocks()))
def test_example(code):
    exec(compile(code, "<example>", "exec"), {"__name__": "__example__"})
