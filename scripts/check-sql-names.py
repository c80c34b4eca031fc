#!/usr/bin/env python3
"""Static check of the extension's scripts: every name that their executable
code uses, and every support function or operator that a declaration binds, is
schema-qualified or names an object the scripts themselves create.

Why: ulid_tsid is a trusted extension, so CREATE EXTENSION and ALTER EXTENSION
UPDATE run its scripts as the bootstrap superuser for any role with CREATE on
the database. The search path during a script is pg_catalog, the target
schema, pg_temp. A function call is resolved by best match over the whole
path, so an unqualified format('...', name, '...') in a DO block matches a
planted target_schema.format(text, name, text) better than
pg_catalog.format(text, VARIADIC "any") and runs it as superuser
(CVE-2018-1058's class). Exact-signature lookups (support functions, opclass
members) find pg_catalog first and are not exploitable today, but a bare
`eqsel` depends on the path all the same: they are qualified too.

What is checked:
- executable code: DO blocks and the bodies of LANGUAGE sql / plpgsql
  functions (and SQL statements inside their string literals): every function
  call is schema.name(...), every operator is OPERATOR(schema.op), every cast
  target is a keyword type or schema.type;
- declarations: CREATE OPERATOR's FUNCTION/PROCEDURE/RESTRICT/JOIN, ALTER
  OPERATOR ... SET (RESTRICT/JOIN), CREATE AGGREGATE's functions, CREATE CAST
  WITH FUNCTION, CREATE TYPE's I/O functions, ALTER FUNCTION ... SUPPORT, the
  FUNCTION members of operator classes and families: schema-qualified, or a
  function the scripts create whose name no PostgreSQL major has in
  pg_catalog; OPERATOR members and COMMUTATOR/NEGATOR between two core types:
  schema-qualified.

Usage: check-sql-names.py FILE...   (default: sql/ulid_tsid--*.sql sql/ulid_tsid_compat--*.sql src/sql/*.sql
                                     portable/*.sql: the edition and its pg_tle form)
The portable edition is not an extension script, but the same holds for it: its
functions run as whoever calls them, with the caller's search path; its own
names are written @extschema@.name (the install statement puts the schema in).
Prints one line per file ("ok" or "FAIL" with each finding), then
"N passed, N failed"; exit status 1 on any finding.
"""
import glob
import re
import sys

# Names of ours that some PostgreSQL major also defines in pg_catalog, where an
# unqualified lookup finds the core's: never bind them unqualified.
CORE_SHADOWED = {"uuidv7", "uuidv4", "uuid_extract_timestamp", "uuid_extract_version", "min", "max"}
# SQL syntax that looks like a call but is grammar, not a function lookup
# (the parser binds these to pg_catalog itself, or they take no name at all).
CALL_LIKE_KEYWORDS = {
    "in", "values", "exists", "any", "all", "some", "array", "row", "cast", "coalesce",
    "nullif", "greatest", "least", "extract", "position", "substring", "overlay", "trim",
    "and", "or", "not", "when", "then", "else", "elsif", "if", "return", "select", "where",
    "from", "as", "on", "using", "execute", "perform", "loop", "while", "case", "by",
    "filter", "over", "within", "is", "between", "like", "ilike", "returning", "into",
    "strict", "grouping", "xmlelement", "xmlforest", "xmlparse", "xmlpi", "xmlroot",
    "xmlserialize", "xmlconcat", "collation", "normalize", "treat", "begin", "end", "do",
}
# pg_tle's functions whose last argument is an extension script.
PGTLE_SCRIPT_FUNCS = {"install_extension", "install_extension_version_sql", "install_update_path"}
# Type names the grammar itself maps to pg_catalog (SystemTypeName).
KEYWORD_TYPES = {
    "int", "integer", "smallint", "bigint", "real", "float", "double", "precision", "decimal",
    "dec", "numeric", "boolean", "char", "character", "varchar", "nchar", "national", "bit",
    "varying", "interval", "time", "timestamp", "with", "without", "zone",
}
DDL_START = {"create", "alter", "comment", "grant", "revoke", "drop", "select", "insert",
             "update", "delete", "do", "set", "security"}

TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>--[^\n]*)
  | (?P<dollar>\$(?P<tag>[A-Za-z_][A-Za-z_0-9]*)?\$)
  | (?P<estring>[Ee]'(?:[^'\\]|\\.|'')*')
  | (?P<string>'(?:[^']|'')*')
  | (?P<qident>"(?:[^"]|"")*")
  | (?P<ident>[A-Za-z_\x80-\uffff@][A-Za-z_0-9$@\x80-\uffff]*)
  | (?P<number>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)
  | (?P<punct>::|:=|[(),;\[\].:])
  | (?P<op>[+\-*/<>=~!#%^&|`?]+)
""", re.VERBOSE)


class Tok:
    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind, self.text, self.line = kind, text, line

    @property
    def low(self):
        return self.text.lower()

    def __repr__(self):
        return "%s:%r" % (self.kind, self.text)


def tokenize(src, first_line=1):
    toks, i, line = [], 0, first_line
    at_line_start = True
    while i < len(src):
        if at_line_start and src[i] == "\\":  # psql meta-command line
            j = src.find("\n", i)
            j = len(src) if j < 0 else j
            i = j
            continue
        if src.startswith("/*", i):  # nested block comment
            depth, j = 1, i + 2
            while j < len(src) and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            line += src.count("\n", i, j)
            i = j
            continue
        m = TOKEN.match(src, i)
        if not m:
            raise SyntaxError("line %d: cannot read %r" % (line, src[i:i + 20]))
        kind = m.lastgroup if m.lastgroup != "tag" else "dollar"
        text = m.group(0)
        if kind == "dollar":
            end = src.find(text, m.end())
            if end < 0:
                raise SyntaxError("line %d: unterminated dollar quote %s" % (line, text))
            body = src[m.end():end]
            toks.append(Tok("string", body, line))
            toks[-1].line = line
            line += src.count("\n", i, end + len(text))
            i = end + len(text)
            at_line_start = False
            continue
        if kind in ("string", "estring"):
            toks.append(Tok("string", text[2:-1] if kind == "estring" else text[1:-1].replace("''", "'"), line))
        elif kind not in ("ws", "comment"):
            toks.append(Tok(kind, text, line))
        nl = text.count("\n")
        line += nl
        if kind == "ws" and nl:
            at_line_start = True
        elif kind != "ws":
            at_line_start = False
        i = m.end()
    return toks


def statements(toks):
    stmt, depth = [], 0
    for t in toks:
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
        if t.text == ";" and depth == 0:
            if stmt:
                yield stmt
            stmt = []
        else:
            stmt.append(t)
    if stmt:
        yield stmt


def words(stmt, n):
    return [t.low for t in stmt[:n] if t.kind == "ident"]


def norm_type(name):
    return {"bigint": "int8", "integer": "int4", "int": "int4", "smallint": "int2",
            "boolean": "bool", "timestamptz": "timestamptz"}.get(name, name)


class Checker:
    def __init__(self, ours_funcs, ours_types):
        self.ours_funcs = ours_funcs
        self.ours_types = ours_types
        self.findings = []

    def bad(self, tok, what):
        self.findings.append("line %d: %s" % (tok.line, what))

    # --- executable code -------------------------------------------------------
    def code(self, toks):
        n = len(toks)
        for k, t in enumerate(toks):
            prev = toks[k - 1] if k else None
            nxt = toks[k + 1] if k + 1 < n else None
            if t.kind == "ident" and nxt is not None and nxt.text == "(":
                if prev is not None and prev.text in (".", "::"):
                    continue  # schema.func( or a type modifier such as ::varchar(10)
                if t.low in CALL_LIKE_KEYWORDS or t.low in KEYWORD_TYPES or t.low == "operator":
                    continue
                self.bad(t, "unqualified function call %s(...)" % t.text)
            elif t.kind == "op":
                if t.text == "*" and prev is not None and (prev.text in ("(", ".", ",") or prev.low == "select"):
                    continue
                if prev is not None and prev.text == "." and k >= 4 and toks[k - 4].low == "operator":
                    continue  # OPERATOR(schema.op)
                self.bad(t, "operator %s not written as OPERATOR(pg_catalog.%s)" % (t.text, t.text))
            elif t.text == "::" and nxt is not None and nxt.kind == "ident":
                after = toks[k + 2] if k + 2 < n else None
                if nxt.low not in KEYWORD_TYPES and not (after is not None and after.text == "."):
                    self.bad(nxt, "cast to unqualified type %s" % nxt.text)
            elif t.kind == "string":
                body = t.text.lstrip()
                first = re.match(r"[A-Za-z]+", body)
                if first and first.group(0).lower() in DDL_START:
                    try:
                        inner = tokenize(t.text, t.line)
                    except SyntaxError:
                        continue
                    for st in statements(inner):
                        self.statement(st)

    # --- declarations ---------------------------------------------------------
    def support_func(self, tok_list, what):
        """tok_list starts at a function name (maybe schema-qualified)."""
        if not tok_list:
            return
        t = tok_list[0]
        if len(tok_list) > 2 and tok_list[1].text == ".":
            return  # qualified
        name = t.low.strip('"')
        if name in self.ours_funcs and name not in CORE_SHADOWED:
            return
        self.bad(t, "%s %s is neither schema-qualified nor a function these scripts create%s" % (
            what, t.text, " (pg_catalog has one of that name)" if name in CORE_SHADOWED else ""))

    def operator_ref(self, toks, k, types, what):
        """toks[k] starts an operator reference; types are its argument types."""
        t = toks[k]
        if t.low == "operator" or (t.kind == "ident" and k + 1 < len(toks) and toks[k + 1].text == "."):
            return  # OPERATOR(schema.op) or schema.op
        if any(norm_type(x) in self.ours_types for x in types if x):
            return  # an operator on one of our types: ours
        self.bad(t, "%s %s on core types (%s) is not schema-qualified" % (what, t.text, ", ".join(types)))

    def params(self, toks):
        """Parses (NAME = value, ...) into {name: index of value's first token}."""
        out, depth, k = {}, 0, 0
        while k < len(toks):
            t = toks[k]
            if t.text == "(":
                depth += 1
            elif t.text == ")":
                depth -= 1
            elif depth == 1 and t.kind == "ident" and k + 1 < len(toks) and toks[k + 1].text == "=" \
                    and toks[k - 1].text in ("(", ","):
                out[t.low] = k + 2
            k += 1
        return out

    def statement(self, st):
        w = words(st, 4)
        if not w:
            return
        if w[0] == "select" and any(t.low in PGTLE_SCRIPT_FUNCS and k > 1 and st[k - 1].text == "." and st[k - 2].low == "pgtle"
                                    for k, t in enumerate(st)):
            # pg_tle's registration of an extension script (the portable edition's
            # pg_tle form): the script is its last string argument; check it as a script.
            body = [t for t in st if t.kind == "string"][-1]
            for sub in statements(tokenize(body.text, body.line)):
                self.statement(sub)
            return
        if w[0] == "do":
            for t in st:
                if t.kind == "string":
                    self.code(tokenize(t.text, t.line))
                    break
            return
        if w[0] == "create" and ("function" in w[:3] or "procedure" in w[:3]):
            lang = None
            for k, t in enumerate(st):
                if t.low == "language" and k + 1 < len(st):
                    lang = st[k + 1].low.strip("'\"")
                if t.low == "support" and k + 1 < len(st):
                    self.support_func(st[k + 1:k + 4], "SUPPORT")
            if lang in ("sql", "plpgsql"):
                for k, t in enumerate(st):
                    if t.kind == "string" and k and st[k - 1].low == "as":
                        self.code(tokenize(t.text, t.line))
            for k, t in enumerate(st):
                if t.low == "atomic" and st[k - 1].low == "begin":
                    self.code(st[k + 1:])
            return
        third = st[2].low if len(st) > 2 else ""
        if w[:2] == ["create", "operator"] and third not in ("class", "family"):
            p = self.params(st)
            types = [st[p[x]].low if x in p else None for x in ("leftarg", "rightarg")]
            for key in ("function", "procedure", "restrict", "join"):
                if key in p:
                    self.support_func(st[p[key]:p[key] + 3], key.upper() + " =")
            for key in ("commutator", "negator"):
                if key in p:
                    self.operator_ref(st, p[key], [x or "" for x in types], key.upper())
            return
        if w[:2] == ["alter", "operator"] and third not in ("class", "family"):
            p = self.params(st)
            for key in ("restrict", "join"):
                if key in p:
                    self.support_func(st[p[key]:p[key] + 3], key.upper() + " =")
            return
        if w[:2] == ["alter", "function"]:
            for k, t in enumerate(st):
                if t.low == "support":
                    self.support_func(st[k + 1:k + 4], "SUPPORT")
            return
        if w[:2] == ["create", "aggregate"]:
            p = self.params(st)
            for key in ("sfunc", "finalfunc", "combinefunc", "serialfunc", "deserialfunc",
                        "msfunc", "minvfunc", "mfinalfunc"):
                if key in p:
                    self.support_func(st[p[key]:p[key] + 3], key.upper() + " =")
            return
        if w[:2] == ["create", "type"]:
            p = self.params(st)
            for key in ("input", "output", "receive", "send", "typmod_in", "typmod_out",
                        "analyze", "subscript"):
                if key in p:
                    self.support_func(st[p[key]:p[key] + 3], key.upper() + " =")
            return
        if w[:2] == ["create", "cast"]:
            for k, t in enumerate(st):
                if t.low == "function" and st[k - 1].low == "with":
                    self.support_func(st[k + 1:k + 4], "WITH FUNCTION")
            return
        if (w[:3] == ["create", "operator", "class"]) or (w[:3] == ["alter", "operator", "family"]):
            self.opclass_items(st)
            return

    def opclass_items(self, st):
        # items follow AS (CREATE ... CLASS) or ADD (ALTER ... FAMILY), comma-separated at depth 0
        start = next((k for k, t in enumerate(st) if t.low in ("as", "add")), None)
        if start is None:
            return
        items, cur, depth = [], [], 0
        for t in st[start + 1:]:
            if t.text == "(":
                depth += 1
            elif t.text == ")":
                depth -= 1
            if t.text == "," and depth == 0:
                items.append(cur)
                cur = []
            else:
                cur.append(t)
        if cur:
            items.append(cur)
        for it in items:
            if not it:
                continue
            kind = it[0].low
            k = 2  # after "OPERATOR n" / "FUNCTION n"
            types = []
            if kind == "operator":
                ref = k
                # operator tokens up to an optional (ltype, rtype)
                while k < len(it) and it[k].text != "(":
                    k += 1
                if k < len(it):
                    types = [t.low for t in it[k + 1:] if t.kind == "ident" and t.low not in ("none",)][:2]
                if types:
                    self.operator_ref(it, ref, types, "OPERATOR member")
            elif kind == "function":
                if k < len(it) and it[k].text == "(":  # (ltype, rtype) of the member
                    while k < len(it) and it[k].text != ")":
                        k += 1
                    k += 1
                self.support_func(it[k:k + 3], "FUNCTION member")


def created_names(files):
    funcs, types = set(), set()
    for f in files:
        for st in statements(tokenize(open(f, encoding="utf-8").read())):
            w = words(st, 6)
            if w[:1] == ["create"]:
                kind = w[1] if len(w) > 1 else ""
                if kind == "or":
                    kind = w[3] if len(w) > 3 else ""
                name_k = next((k for k, t in enumerate(st) if t.low == kind), None)
                if name_k is None or name_k + 1 >= len(st):
                    continue
                name = st[name_k + 1].low
                if kind in ("function", "procedure", "aggregate"):
                    funcs.add(name)
                elif kind == "type":
                    types.add(name)
        # strings run by EXECUTE in DO blocks also create functions
        for m in re.finditer(r"CREATE\s+FUNCTION\s+([A-Za-z_0-9]+)\s*\(", open(f, encoding="utf-8").read()):
            funcs.add(m.group(1).lower())
    return funcs, types


def main(argv):
    files = argv or (sorted(glob.glob("sql/ulid_tsid--*.sql")) + sorted(glob.glob("sql/ulid_tsid_compat--*.sql"))
                     + sorted(glob.glob("src/sql/*.sql")) + sorted(glob.glob("portable/*.sql")))
    ours_funcs, ours_types = created_names(files)
    passed = failed = 0
    for f in files:
        c = Checker(ours_funcs, ours_types)
        try:
            for st in statements(tokenize(open(f, encoding="utf-8").read())):
                c.statement(st)
        except SyntaxError as e:
            c.findings.append(str(e))
        if c.findings:
            failed += 1
            print("FAIL %s" % f)
            for x in c.findings:
                print("     %s" % x)
        else:
            passed += 1
            print("ok   %s" % f)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
