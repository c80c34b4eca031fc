"""The documentation's client (and ORM) recipes are the code the tests run.

Each recipe in README.md or docs/*.md (docs/clients.md, docs/orms-*.md) is a
fenced code block right after a line
    <!-- recipe: test/clients/FILE NAME -->
and must equal, line for line, the lines of FILE between the comments
"README NAME: begin" and "README NAME: end" (dedented). Every such snippet in
the directories checked must be shown in the docs. Prints one ok / not ok line each.
(The programs' markers keep the name "README" for the documentation as a whole.)
    readme_recipes.py                 test/clients (the clients suite)
    readme_recipes.py DIR...          those directories of the checkout, e.g. test/orms/django
                                      (the orms suite); README recipes of other paths are not
                                      this run's"""
import pathlib
import re
import sys
import textwrap

from checks import Checks

ROOT = pathlib.Path(__file__).resolve().parents[2]
MARK = re.compile(r"^\s*(?:#|//)\s*README (\S+): (begin|end)\s*$")
DIRS = [d.rstrip("/") for d in sys.argv[1:]] or ["test/clients"]


def snippets():
    """{(relative path, name): code} from the test programs in DIRS."""
    found = {}
    for path in sorted(p for d in DIRS for p in (ROOT / d).rglob("*")):
        if "node_modules" in path.parts or "target" in path.parts or \
                path.suffix not in (".py", ".js", ".java", ".rb", ".prisma", ".go", ".rs", ".php"):
            continue
        rel, name, lines = str(path.relative_to(ROOT)), None, []
        for line in path.read_text().splitlines():
            m = MARK.match(line)
            if m and m.group(2) == "begin":
                name, lines = m.group(1), []
            elif m and m.group(2) == "end" and name == m.group(1):
                found[(rel, name)] = textwrap.dedent("\n".join(lines)).strip("\n")
                name = None
            elif name is not None:
                lines.append(line)
    return found


def readme_recipes():
    """{(relative path, name): code block} from README.md and docs/*.md."""
    pattern = re.compile(r"<!-- recipe: (\S+) (\S+) -->\n```[a-z]*\n(.*?)\n```", re.S)
    found = {}
    for page in [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md")):
        for m in pattern.finditer(page.read_text()):
            if any(m.group(1).startswith(d + "/") for d in DIRS):
                found[(m.group(1), m.group(2))] = m.group(3).strip("\n")
    return found


def body(t):
    code, shown = snippets(), readme_recipes()
    if DIRS == ["test/clients"]:
        t.ok(len(code) >= 5, f"the client programs mark their recipes ({len(code)} found)", sorted(code))
    else:
        for d in DIRS:
            n = sum(1 for path, _ in code if path.startswith(d + "/"))
            t.ok(n >= 1, f"the programs in {d} mark their recipes ({n} found)")
    for key in sorted(set(code) | set(shown)):
        what = f"docs recipe {key[1]} is the code {key[0]} runs"
        if key not in shown:
            t.ok(False, what, "not in README.md or docs/*.md (a '<!-- recipe: PATH NAME -->' line before a code block)")
        elif key not in code:
            t.ok(False, what, "no such snippet between README begin/end comments")
        else:
            t.ok(code[key] == shown[key], what, "\n" + "\n".join(
                f"file: {a}\nREADME: {b}" for a, b in zip(code[key].splitlines(), shown[key].splitlines()) if a != b)
                or f"line counts differ: {len(code[key].splitlines())} vs {len(shown[key].splitlines())}")


if __name__ == "__main__":
    t = Checks("readme" if DIRS == ["test/clients"] else "readme " + " ".join(DIRS))
    body(t)
    t.done()
