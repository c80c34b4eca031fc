"""The Python client programs' shared pieces: "ok N - what" / "not ok N - what"
lines that scripts/suites/clients.sh counts, and an independent Crockford
base32 decoder so that text and binary results can be compared bit for bit
without asking the extension."""
import sys
import traceback

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def crockford_to_int(text):
    """The integer a ulid (26 chars) or tsid (13 chars) text stands for."""
    value = 0
    for ch in text:
        value = value * 32 + CROCKFORD.index(ch)
    return value


def int_to_crockford(value, chars):
    return "".join(CROCKFORD[(value >> (5 * (chars - 1 - i))) & 31] for i in range(chars))


def tsid_text_to_int8(text):
    """A tsid's text as the signed int8 it is stored as."""
    value = crockford_to_int(text)
    return value - (1 << 64) if value >= 1 << 63 else value


class Checks:
    def __init__(self, program):
        self.program = program
        self.count = 0
        self.failed = 0

    def ok(self, condition, what, detail=None):
        self.count += 1
        if condition:
            print(f"ok {self.count} - {self.program}: {what}", flush=True)
        else:
            self.failed += 1
            print(f"not ok {self.count} - {self.program}: {what}", flush=True)
            if detail is not None:
                print(f"#   got: {detail!r}", flush=True)
        return bool(condition)

    def error(self, what, exc):
        """A check that raised: a failure that shows the exception."""
        self.ok(False, what, f"{type(exc).__name__}: {exc}".strip())

    def run(self, what, fn):
        """Runs fn(); a raised exception is this check's failure."""
        try:
            fn()
        except Exception as exc:  # noqa: BLE001 - any error is the check's failure
            self.error(what, exc)

    def done(self):
        print(f"1..{self.count}")
        sys.exit(1 if self.failed else 0)


def main_guard(checks, body):
    """Runs body(checks); a crash outside any check is one more failure."""
    try:
        body(checks)
    except Exception as exc:  # noqa: BLE001
        traceback.print_exc()
        checks.error("the program ran to its end", exc)
    checks.done()

