#!/usr/bin/env python3
"""The documentation's SQL and links, for scripts/suites/doctest.sh.

    python3 scripts/doctest.py blocks OUTDIR   every ```sql block of README.md and docs/*.md
    python3 scripts/doctest.py links           every relative link and #anchor resolves
    python3 scripts/doctest.py examples        every example key shown beside a time: one
                                               SQL check a line (page:line, then the query)

blocks: a page's blocks run in order in one database of their own, so OUTDIR gets one
directory per page (NN-name/) holding NNN-L<line>.sql for each block that runs, and a
manifest, OUTDIR/manifest.tsv: page, line, "run" or "skip", the file or the reason. A
block is skipped when the last non-blank line before its fence is an HTML comment
"<!-- not run: REASON -->", or the marker of a suite that runs it as it stands there
("<!-- migrate: NAME -->": test/t/014_migrating.pl; "<!-- portable: NAME -->": the
portable suite; "<!-- cutover: NAME -->": test/t/019_logical_cutover.pl, on two clusters;
"<!-- partman: NAME -->": the partman suite, with pg_partman; "<!-- timescaledb: NAME -->":
the timescaledb suite, with TimescaleDB preloaded). A page whose blocks run
CREATE EXTENSION ulid_tsid themselves gets its database without the extension (the file
OUTDIR/NN-name/no-extension says so).

links: prints "ok" or "FAIL" per page and a line per broken link; exit 1 on any.
Anchors are GitHub's: the heading in lower case, punctuation but - and _ dropped,
spaces as -, a repeated heading with -1, -2, ...
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")


def pages():
    return [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def blocks(path):
    """[(line, language, text, marker)] of a page's fenced blocks; marker is the
    HTML comment right before the fence, or None."""
    out, lines, i = [], path.read_text().split("\n"), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang, start = m.group(1), m.group(2), i
        body, i = [], i + 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        j = start - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        marker = lines[j].strip() if j >= 0 and lines[j].strip().startswith("<!--") else None
        out.append((start + 1, lang, "\n".join(body) + "\n", marker))
        i += 1
    return out


def skip_reason(marker):
    if not marker:
        return None
    m = re.match(r"<!-- not run: (.+?) -->$", marker)
    if m:
        return m.group(1)
    m = re.match(r"<!-- (migrate|portable|cutover|partman|timescaledb): (\S+) -->$", marker)
    if m:
        return {"migrate": "run by test/t/014_migrating.pl", "portable": "run by the portable suite",
                "cutover": "run by test/t/019_logical_cutover.pl",
                "partman": "run by the partman suite",
                "timescaledb": "run by the timescaledb suite"}[m.group(1)] \
            + " (" + m.group(2) + ")"
    return None


def cmd_blocks(outdir):
    outdir = pathlib.Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    manifest = []
    for n, page in enumerate(pages()):
        rel = str(page.relative_to(ROOT))
        d = outdir / ("%02d-%s" % (n, page.stem))
        d.mkdir(exist_ok=True)
        k = 0
        for line, lang, text, marker in blocks(page):
            if lang != "sql":
                continue
            reason = skip_reason(marker)
            if reason:
                manifest.append((rel, line, "skip", reason))
                continue
            k += 1
            f = d / ("%03d-L%d.sql" % (k, line))
            f.write_text(text)
            manifest.append((rel, line, "run", str(f)))
            if re.search(r"(?im)^\s*CREATE EXTENSION ulid_tsid\b", text):
                (d / "no-extension").write_text("")
    (outdir / "manifest.tsv").write_text("".join("%s\t%s\t%s\t%s\n" % m for m in manifest))


def slug(heading):
    h = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    h = re.sub(r"[^\w\- ]", "", h.replace("`", "").replace("*", ""))
    return h.replace(" ", "-")


def anchors(path):
    found, seen, fence = set(), {}, False
    for line in path.read_text().split("\n"):
        if FENCE.match(line):
            fence = not fence
            continue
        m = None if fence else re.match(r"^#{1,6} (.*)", line)
        if m:
            s = slug(m.group(1))
            found.add(s if s not in seen else "%s-%d" % (s, seen[s]))
            seen[s] = seen.get(s, 0) + 1
    return found


def cmd_links():
    checked = pages() + [p for p in (ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md") if p.exists()]
    bad_pages = 0
    for page in checked:
        bad, fence = [], False
        for n, line in enumerate(page.read_text().split("\n"), 1):
            if FENCE.match(line):
                fence = not fence
                continue
            if fence:
                continue
            for m in re.finditer(r"\]\(([^)\s]+)\)", re.sub(r"`[^`]*`", "", line)):
                target = m.group(1)
                if re.match(r"^[a-z]+:", target):
                    continue  # a URL: not checked offline
                path, _, frag = target.partition("#")
                dest = (page.parent / path).resolve() if path else page
                if not dest.exists():
                    bad.append("%d: %s: no such file" % (n, target))
                elif frag and dest.suffix == ".md" and frag not in anchors(dest):
                    bad.append("%d: %s: no such anchor" % (n, target))
        rel = page.relative_to(ROOT)
        if bad:
            bad_pages += 1
            print("   FAIL links of %s resolve" % rel)
            for b in bad:
                print("        %s:%s" % (rel, b))
        else:
            print("   ok   links of %s resolve" % rel)
    return 1 if bad_pages else 0


ULID = re.compile(r"\b[0-7][0-9A-HJKMNP-TV-Z]{25}\b")
TSID = re.compile(r"\b[0-9A-F](?=[0-9A-Z]*[0-9])[0-9A-HJKMNP-TV-Z]{12}\b")
UUIDV7 = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\b")
UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
TIME = re.compile(r"\b\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)?(?:\+00(?::00)?|Z)?")


TYPEID = re.compile(r"\b([a-z](?:[a-z_]*[a-z])?)_([0-7][0-9a-hjkmnp-tv-z]{25})\b")
CONSTANT_SELECT = re.compile(r"^\s*SELECT\s+(.+?);\s*--\s*(\S+)\s*$")


def cmd_examples():
    """A key literal on a line with one time on it is an example of that time: the
    check is that the key decodes to it (to the millisecond). A TypeID on a line with
    one ULID literal is that ULID's TypeID. In a block that runs, `SELECT EXPR; --
    VALUE` with no FROM and a one-word comment shows what EXPR returns."""
    for page in pages():
        rel = page.relative_to(ROOT)
        for start, lang, text, marker in blocks(page):
            if lang != "sql" or skip_reason(marker):
                continue
            for i, line in enumerate(text.split("\n")):
                m = CONSTANT_SELECT.match(line)
                if m and not re.search(r"\bFROM\b", m.group(1), re.I):
                    print("%s:%d value %s\tSELECT (%s)::text = '%s'"
                          % (rel, start + 1 + i, m.group(2), m.group(1), m.group(2).replace("'", "''")))
        for n, line in enumerate(page.read_text().split("\n"), 1):
            for ulid, uuid in re.findall(r"`(%s)` is `(%s)`" % (ULID.pattern, UUID.pattern), line):
                print("%s:%d ulid %s\tSELECT '%s'::ulid::uuid = '%s'::uuid AND '%s'::uuid::ulid = '%s'::ulid"
                      % (rel, n, ulid, ulid, uuid, uuid, ulid))
            ulids = ULID.findall(line)
            for prefix, suffix in TYPEID.findall(line):
                if len(ulids) == 1:
                    print("%s:%d typeid %s_%s\tSELECT typeid('%s'::ulid, '%s') = '%s_%s'"
                          % (rel, n, prefix, suffix, ulids[0], prefix, prefix, suffix))
            times = TIME.findall(line)
            if len(times) != 1:
                continue
            when = times[0].replace("T", " ")
            if not re.search(r"(\+00(:00)?|Z)$", when):
                when += "+00"
            for kind, pattern, decode in (("ulid", ULID, "ulid_timestamp"), ("tsid", TSID, "tsid_timestamp"),
                                          ("uuidv7", UUIDV7, "uuidv7_timestamp")):
                for key in pattern.findall(line):
                    print("%s:%d %s %s\tSELECT %s('%s'::%s) = date_trunc('milliseconds', '%s'::timestamptz)"
                          % (rel, n, kind, key, decode, key, "uuid" if kind == "uuidv7" else kind, when.replace("Z", "+00")))


if __name__ == "__main__":
    if sys.argv[1:] == ["examples"]:
        sys.exit(cmd_examples())
    elif sys.argv[1:2] == ["blocks"] and len(sys.argv) == 3:
        cmd_blocks(sys.argv[2])
    elif sys.argv[1:] == ["links"]:
        sys.exit(cmd_links())
    else:
        sys.exit(__doc__)
