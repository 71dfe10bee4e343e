#!/usr/bin/env python3
"""Check the relative links of the documentation.

Every link and image in README.md, CHANGELOG.md, SECURITY.md and docs/*.md
whose target is not a URL (http:, https:, mailto:, ...) must name a file or
directory of the repository, and a `#fragment` must name a heading of the
target Markdown file (or of the same file for a bare `#fragment`).

Anchors follow GitHub's rules: the heading's text without Markdown markup,
lowercased, every character that is not a letter, a digit, a space, '-' or
'_' dropped, spaces turned into '-'; a repeated heading gets -1, -2, ...
HTML anchors (`<a id="x">`, `<a name="x">`) count too.

Links inside fenced code blocks and inline code are not links. Exits 0 when
every link resolves, else 1 with one line per broken link (file:line).
Usage: scripts/ci/links.py [FILE...]   (run from anywhere in the repository)
"""
import os
import re
import sys
import unicodedata

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEFAULT_FILES = ["README.md", "CHANGELOG.md", "SECURITY.md"]

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)\s*$")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")
# [text](target "title") and ![alt](target); the text may hold one level of brackets.
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^()\s>]*(?:\([^()\s]*\)[^()\s>]*)*)>?(?:\s+[\"'(].*?[\"')])?\s*\)")
REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HTML_ANCHOR = re.compile(r"<a\s[^>]*(?:id|name)\s*=\s*[\"']([^\"']+)[\"']", re.I)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def doc_files(args):
    if args:
        return [os.path.abspath(a) for a in args]
    files = [os.path.join(ROOT, f) for f in DEFAULT_FILES]
    docs = os.path.join(ROOT, "docs")
    if os.path.isdir(docs):
        files += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    return [f for f in files if os.path.isfile(f)]


def lines_outside_code(path):
    """(line number, text) of every line outside fenced code blocks."""
    fence = None
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            m = FENCE.match(line)
            if fence is None and m:
                fence = m.group(1)
                continue
            if fence is not None:
                if line.strip().startswith(fence[0] * len(fence)) and line.strip().strip(fence[0]) == "":
                    fence = None
                continue
            yield number, line


def strip_markup(text):
    """The visible text of a heading, as GitHub renders it."""
    text = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\[([^\]]*)\]\[[^\]]*\]", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = INLINE_CODE.sub(lambda m: m.group(2), text)
    text = re.sub(r"(\*\*|__|\*|_|~~)(?=\S)(.+?)(?<=\S)\1", r"\2", text)
    return text


def slug(text):
    out = []
    for ch in strip_markup(text).strip().lower():
        if ch in " -_" or unicodedata.category(ch)[0] in "LN":
            out.append("-" if ch == " " else ch)
        # everything else (punctuation, symbols) is dropped
    return "".join(out)


_anchor_cache = {}


def anchors(path):
    if path in _anchor_cache:
        return _anchor_cache[path]
    found, counts, previous = set(), {}, None
    for _, line in lines_outside_code(path):
        for name in HTML_ANCHOR.findall(line):
            found.add(name)
        title = None
        m = HEADING.match(line)
        if m:
            title = m.group(2)
        elif previous and previous.strip() and SETEXT.match(line) and not HEADING.match(previous):
            title = previous.strip()
        previous = line
        if title is None:
            continue
        base = slug(title)
        n = counts.get(base, 0)
        counts[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    _anchor_cache[path] = found
    return found


def links(path):
    for number, line in lines_outside_code(path):
        m = REF_DEF.match(line)
        if m:
            yield number, m.group(1)
            continue
        bare = INLINE_CODE.sub("", line)
        for m in INLINE_LINK.finditer(bare):
            yield number, m.group(1)


def check(path):
    broken = []
    here = os.path.dirname(path)
    for number, target in links(path):
        if not target or SCHEME.match(target) or target.startswith("//"):
            continue
        file_part, _, fragment = target.partition("#")
        file_part = file_part.split("?", 1)[0]
        if file_part:
            if file_part.startswith("/"):
                dest = os.path.normpath(os.path.join(ROOT, file_part.lstrip("/")))
            else:
                dest = os.path.normpath(os.path.join(here, file_part))
            if not os.path.exists(dest):
                broken.append((number, target, "no such file"))
                continue
        else:
            dest = path
        if fragment:
            if not dest.endswith(".md") or not os.path.isfile(dest):
                continue  # anchors into code files and directories are GitHub's line links
            if fragment.lower() not in {a.lower() for a in anchors(dest)}:
                broken.append((number, target, "no such heading"))
    return broken


def main(argv):
    total = 0
    files = doc_files(argv[1:])
    for path in files:
        for number, target, why in check(path):
            total += 1
            print(f"{os.path.relpath(path, ROOT)}:{number}: {target} ({why})")
    if total:
        print(f"links.py: {total} broken link(s)", file=sys.stderr)
        return 1
    print(f"links.py: every relative link and anchor of {len(files)} file(s) resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
