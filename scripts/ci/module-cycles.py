#!/usr/bin/env python3
"""Checks that the top-level modules of a crate import each other without a cycle.

Usage: module-cycles.py SRC_DIR [SRC_DIR...] [--inside MODULE]... [--every] [--graph]
       (for example crates/multiblock/src --inside modes)

A crate's layers hold only if its top-level modules (src/NAME.rs or src/NAME/)
form a directed acyclic graph under "module A's code names crate::B". This
script reads every `crate::` and `super::` path of the production code,
resolves it to the top-level module it reaches (names that the crate root
re-exports with `pub use` count as the module they come from), and prints
every strongly connected set of more than one module, exiting 1 if there is
one. Test code (a file or inline module under `#[cfg(test)]`) may reach any
layer and is left out. `--graph` prints the edges as well.

`--inside MODULE` (a directory module such as `modes` or `modes::dstu`)
checks the children of that module instead: `crate::MODULE::X`, `super::X`
and `super::super::X` paths from MODULE's files resolve to the child X,
names that MODULE's own file imports from a child count as that child (and
its code naming one, outside the `use` lines, reaches that child), and
the items MODULE's own file defines are one more node, "(own items)".

`--every` checks the top-level modules and the children of every directory
module of each SRC_DIR.
"""
import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
SELF = "(own items)"  # what `--inside M` calls the items M's own file defines


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
            raw = open(path, encoding="utf-8").read()
            text = strip(raw)
            base = root if f in ("mod.rs", "lib.rs", "main.rs") else os.path.join(root, f[:-3])
            # `#[path]` on a file's own `mod x;` is relative to the file's directory
            for m in re.finditer(r'#\[cfg\(test\)\]\s*#\[path\s*=\s*"([^"]+)"\]', raw):
                skipped.add(os.path.normpath(os.path.join(root, m.group(1))))
            for m in re.finditer(r"#\[cfg\(test\)\]\s*((?:#\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*;", text):
                attrs, name = m.group(1), m.group(2)
                if re.search(r"#\[path\b", attrs):
                    continue  # named above
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
    names = []
    for item in split_top(tree):
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


def production_files(base, skipped):
    """The .rs files below `base` that are not test-only (a test-only directory
    module skips its whole subtree)."""
    for root, dirs, files in os.walk(base):
        dirs[:] = [d for d in dirs if os.path.normpath(os.path.join(root, d, "mod.rs")) not in skipped]
        for f in files:
            path = os.path.normpath(os.path.join(root, f))
            if f.endswith(".rs") and path not in skipped:
                yield path


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
    for path in production_files(src, skipped):
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


def path_trees(text, pos):
    """The paths of the use tree (or plain path) starting at `pos`, as lists of segments."""
    m = re.compile(r"\s*(\{|" + IDENT + ")").match(text, pos)
    if not m:
        return [[]]
    if m.group(1) == "{":
        body = balanced(text, m.start(1))
        out = []
        for item in split_top(body):
            out += path_trees(item, 0)
        return out
    seg = m.group(1)
    more = re.compile(r"\s*::\s*").match(text, m.end())
    if not more:
        return [[seg]]
    return [[seg] + rest for rest in path_trees(text, more.end())]


def split_top(body):
    """The items of a use tree body, split at its top-level commas."""
    items, depth, cur = [], 0, ""
    for ch in body:
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
    return items


def absolute_paths(text, modpath, children):
    """Every `crate::`, `super::` and (in a module's own file) child-relative path, absolute."""
    out = []
    for m in re.finditer(r"\bcrate\s*::", text):
        out += path_trees(text, m.end())
    for m in re.finditer(r"\b((?:super\s*::\s*)+)", text):
        if m.start() > 0 and text[m.start() - 1] == ":":
            continue  # the tail of a longer super chain or a `self::super`
        ups = m.group(1).count("super")
        base = modpath[:max(0, len(modpath) - ups)]
        out += [base + p for p in path_trees(text, m.end())]
    for m in re.finditer(r"\buse\s+(?:self\s*::\s*)?(" + IDENT + r")\s*::", text):
        if m.group(1) in children:
            out += [modpath + p for p in path_trees(text, m.start(1))]
    return out


def graph_inside(src, module):
    """Edges among the children of the directory module `module` (`a::b`)."""
    prefix = module.split("::")
    base = os.path.join(src, *prefix)
    if not os.path.isdir(base):
        raise SystemExit(f"{src}: no directory module {module}")
    children = set()
    for entry in os.listdir(base):
        p = os.path.join(base, entry)
        if entry.endswith(".rs") and entry != "mod.rs":
            children.add(entry[:-3])
        elif os.path.isdir(p):
            children.add(entry)
    skipped = test_only_files(src)
    children = {c for c in children
                if os.path.normpath(os.path.join(base, c + ".rs")) not in skipped
                and os.path.normpath(os.path.join(base, c, "mod.rs")) not in skipped}
    parent = os.path.join(base, "mod.rs")
    if not os.path.exists(parent):
        parent = os.path.join(src, *prefix[:-1], prefix[-1] + ".rs")
    # names the module's own file imports from a child (`pub use x::Y`, `use x::Y`)
    imported, outside = {}, set()
    edges = {c: set() for c in children}
    edges[SELF] = set()
    if os.path.exists(parent):
        text = drop_test_modules(strip(open(parent, encoding="utf-8").read()))
        for m in re.finditer(r"\buse\s+", text):
            for p in absolute_paths_from(text, m.end(), prefix, children):
                if len(p) > len(prefix) + 1 and p[:len(prefix)] == prefix and p[len(prefix)] in children:
                    imported[p[-1]] = p[len(prefix)]
                elif p and p[-1] not in ("self", "*"):
                    outside.add(p[-1])
        # the module's own code (not its re-exports) may reach its children
        code = re.sub(r"\bpub(?:\s*\([^)]*\))?\s+use\s+[^;]*;", "", text)
        for m in re.finditer(r"\b(" + IDENT + r")\s*::", code):
            if m.group(1) in children and (m.start() == 0 or code[m.start() - 1] != ":"):
                edges[SELF].add(m.group(1))
        # and does through a name it imports from a child, re-exported or
        # not, wherever its code (outside the `use` lines) names it
        body = re.sub(r"\b(?:pub(?:\s*\([^)]*\))?\s+)?(?:use\s+[^;]*|mod\s+" + IDENT + r"\s*);", "", text)
        for name, child in imported.items():
            if re.search(r"(?<![:\w])" + re.escape(name) + r"\b", body):
                edges[SELF].add(child)
    for path in production_files(base, skipped):
        modpath = module_path(src, path)
        if len(modpath) <= len(prefix) or modpath[len(prefix)] not in children:
            continue
        me = modpath[len(prefix)]
        text = drop_test_modules(strip(open(path, encoding="utf-8").read()))
        for p in absolute_paths(text, modpath, set()):
            if len(p) <= len(prefix) or p[:len(prefix)] != prefix:
                continue
            t = p[len(prefix)]
            if t not in children:
                # an item of the module's own file, unless it is a re-export
                t = imported.get(t) or (None if t in outside or t in ("self", "*") else SELF)
            if t and t != me:
                edges[me].add(t)
    return edges


def absolute_paths_from(text, pos, modpath, children):
    """The paths of one `use` tree written in the file of `modpath`, absolute."""
    out = []
    for p in path_trees(text, pos):
        if not p:
            continue
        if p[0] == "crate":
            out.append(p[1:])
        elif p[0] == "self":
            out.append(modpath + p[1:])
        elif p[0] == "super":
            ups = 0
            while ups < len(p) and p[ups] == "super":
                ups += 1
            out.append(modpath[:max(0, len(modpath) - ups)] + p[ups:])
        elif p[0] in children:
            out.append(modpath + p)
    return out


def report(label, edges, what, show):
    if show:
        for m in sorted(edges):
            print(f"{label}: {m} -> {', '.join(sorted(edges[m])) or '-'}")
    cycles = [c for c in strongly_connected(edges) if len(c) > 1]
    for c in cycles:
        inner = [f"{a}->{b}" for a in c for b in sorted(edges[a]) if b in c]
        print(f"{label}: import cycle among {', '.join(c)} ({'; '.join(inner)})")
    if not cycles:
        print(f"{label}: {len(edges)} {what}, no import cycle")
    return bool(cycles)


def directory_modules(src):
    """Every directory module under src, as `a::b` paths, parents first."""
    found = []
    for root, dirs, _files in os.walk(src):
        # src/bin holds the crate's extra binaries, not a module
        dirs[:] = sorted(d for d in dirs if not (root == src and d == "bin"))
        rel = os.path.relpath(root, src)
        if rel != ".":
            found.append(rel.replace(os.sep, "::"))
    return found


def main():
    argv = sys.argv[1:]
    inside, args = [], []
    i = 0
    while i < len(argv):
        if argv[i] == "--inside" and i + 1 < len(argv):
            inside.append(argv[i + 1])
            i += 2
            continue
        if not argv[i].startswith("--"):
            args.append(argv[i])
        elif argv[i] not in ("--every", "--graph"):
            print(f"module-cycles.py: unknown option {argv[i]}", file=sys.stderr)
            return 2
        i += 1
    show = "--graph" in argv
    if not args:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    sys.setrecursionlimit(10000)
    failed = False
    for src in args:
        if "--every" in argv:
            failed |= report(src, graph(src), "top-level modules", show)
            for module in directory_modules(src):
                failed |= report(f"{src} {module}", graph_inside(src, module), f"submodules of {module}", show)
        elif inside:
            for module in inside:
                failed |= report(f"{src} {module}", graph_inside(src, module), f"submodules of {module}", show)
        else:
            failed |= report(src, graph(src), "top-level modules", show)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
