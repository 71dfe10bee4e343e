#!/usr/bin/env python3
"""Checks that the top-level modules of a crate import each other without a cycle.

Usage: module-cycles.py SRC_DIR [SRC_DIR...]   (for example crates/multiblock/src)

A crate's layers hold only if its top-level modules (src/NAME.rs or src/NAME/)
form a directed acyclic graph under "module A's code names crate::B". This
script reads every `crate::` and `super::` path of the production code,
resolves it to the top-level module it reaches (names that the crate root
re-exports with `pub use` count as the module they come from), and prints
every strongly connected set of more than one module, exiting 1 if there is
one. Test code (a file or inline module under `#[cfg(test)]`) may reach any
layer and is left out. `--graph` prints the edges as well.
"""
import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip(text):
    """Source without comments, string literals and char literals."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'r#*"(?:.|\n)*?"#*', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    text = re.sub(r"'(?:\\.|[^'\\])'", "' '", text)
    return text


def drop_test_modules(text):
    """Removes `#[cfg(test)] mod x { ... }` bodies and `#[cfg(test)] mod x;` lines."""
    out = []
    i = 0
    pattern = re.compile(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+" + IDENT + r"\s*([{;])")
    while True:
        m = pattern.search(text, i)
        if not m:
            out.append(text[i:])
            break
        out.append(text[i:m.start()])
        if m.group(1) == ";":
            i = m.end()
            continue
        depth = 1
        j = m.end()
        while j < len(text) and depth:
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
            j += 1
        i = j
    return "".join(out)


def test_only_files(src):
    """Files declared as `#[cfg(test)] mod x;` (or under `#[path]`) anywhere in the crate."""
    skipped = set()
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(root, f)
            text = strip(open(path, encoding="utf-8").read())
            base = root if f in ("mod.rs", "lib.rs", "main.rs") else os.path.join(root, f[:-3])
            for m in re.finditer(r"#\[cfg\(test\)\]\s*((?:#\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*;", text):
                attrs, name = m.group(1), m.group(2)
                pm = re.search(r'#\[path\s*=\s*""\]', attrs)
                if pm:
                    continue  # strip() emptied the path; such files are rare and named below
                for cand in (os.path.join(base, name + ".rs"), os.path.join(base, name, "mod.rs")):
                    skipped.add(os.path.normpath(cand))
    return skipped


def module_path(src, path):
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] == "mod":
        rel = rel[:-1]
    return rel


def use_targets(tree):
    """The first path segment of each item of a use tree body `{a::b, c, d::{e}}`."""
    items, depth, cur = [], 0, ""
    for ch in tree:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    items.append(cur)
    names = []
    for item in items:
        m = re.match(r"\s*(" + IDENT + ")", item)
        if m:
            names.append(m.group(1))
    return names


def balanced(text, start):
    depth = 0
    for j in range(start, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1:j]
    return ""


def root_reexports(src, top):
    """Names the crate root re-exports, mapped to the module they come from."""
    reexports = {}
    for root_file in ("lib.rs", "main.rs"):
        path = os.path.join(src, root_file)
        if not os.path.exists(path):
            continue
        text = strip(open(path, encoding="utf-8").read())
        for m in re.finditer(r"pub\s+use\s+(?:crate::)?(" + IDENT + r")\s*::\s*", text):
            module = m.group(1)
            if module not in top:
                continue
            rest = text[m.end():]
            if rest.startswith("{"):
                body = balanced(rest, 0)
                for item in body.split(","):
                    last = re.findall(IDENT, item.split(" as ")[-1])
                    if last:
                        reexports[last[-1]] = module
            else:
                seg = re.match(r"[A-Za-z0-9_:]+", rest).group(0)
                reexports[seg.split("::")[-1]] = module
    return reexports


def graph(src):
    top = set()
    for entry in os.listdir(src):
        p = os.path.join(src, entry)
        if entry.endswith(".rs") and entry not in ("lib.rs", "main.rs"):
            top.add(entry[:-3])
        elif os.path.isdir(p) and entry != "bin":
            top.add(entry)
    reexports = root_reexports(src, top)
    skipped = test_only_files(src)
    edges = {m: set() for m in top}
    for root, dirs, files in os.walk(src):
        # a test-only directory module skips its whole subtree
        dirs[:] = [d for d in dirs if os.path.normpath(os.path.join(root, d, "mod.rs")) not in skipped]
        for f in files:
            path = os.path.normpath(os.path.join(root, f))
            if not f.endswith(".rs") or path in skipped:
                continue
            modpath = module_path(src, path)
            if not modpath or modpath[0] not in top:
                continue
            me = modpath[0]
            text = drop_test_modules(strip(open(path, encoding="utf-8").read()))
            targets = []
            for m in re.finditer(r"\bcrate\s*::\s*(\{|" + IDENT + ")", text):
                if m.group(1) == "{":
                    targets += use_targets(balanced(text, m.start(1)))
                else:
                    targets.append(m.group(1))
            for m in re.finditer(r"\b((?:super\s*::\s*)+)(\{|" + IDENT + ")", text):
                ups = m.group(1).count("super")
                # `super` in src/a/b.rs is crate::a; in src/a/mod.rs it is the root
                depth = len(modpath) - ups
                if depth > 0:
                    continue  # stays inside this top-level module
                if m.group(2) == "{":
                    targets += use_targets(balanced(text, m.start(2)))
                else:
                    targets.append(m.group(2))
            for t in targets:
                t = reexports.get(t, t)
                if t in top and t != me:
                    edges[me].add(t)
    return edges


def strongly_connected(edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    show = "--graph" in sys.argv
    if not args:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    sys.setrecursionlimit(10000)
    failed = False
    for src in args:
        edges = graph(src)
        if show:
            for m in sorted(edges):
                print(f"{src}: {m} -> {', '.join(sorted(edges[m])) or '-'}")
        cycles = [c for c in strongly_connected(edges) if len(c) > 1]
        for c in cycles:
            inner = [f"{a}->{b}" for a in c for b in sorted(edges[a]) if b in c]
            print(f"{src}: import cycle among {', '.join(c)} ({'; '.join(inner)})")
            failed = True
        if not cycles:
            print(f"{src}: {len(edges)} top-level modules, no import cycle")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
