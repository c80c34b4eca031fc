// The node programs' shared pieces: "ok N - what" / "not ok N - what" lines
// that scripts/suites/clients.sh counts, and an independent Crockford base32
// codec so that results can be compared bit for bit without the extension.
'use strict';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const crockfordToBigInt = (text) =>
  [...text].reduce((n, c) => {
    const digit = CROCKFORD.indexOf(c);
    if (digit < 0) throw new Error(`not Crockford base32: ${text}`);
    return n * 32n + BigInt(digit);
  }, 0n);

const bigIntToCrockford = (value, chars) =>
  Array.from({ length: chars }, (_, i) =>
    CROCKFORD[Number((BigInt.asUintN(64 * 2, value) >> BigInt(5 * (chars - 1 - i))) & 31n)]).join('');

// A 26-char ulid as its 16 bytes, a 13-char tsid as its 8 (big-endian).
const ulidToBytes = (text) => Buffer.from(crockfordToBigInt(text).toString(16).padStart(32, '0'), 'hex');
const tsidToBytes = (text) => Buffer.from(crockfordToBigInt(text).toString(16).padStart(16, '0'), 'hex');

class Checks {
  constructor(program) { this.program = program; this.count = 0; this.failed = 0; }

  ok(condition, what, detail) {
    this.count += 1;
    if (condition) {
      console.log(`ok ${this.count} - ${this.program}: ${what}`);
    } else {
      this.failed += 1;
      console.log(`not ok ${this.count} - ${this.program}: ${what}`);
      if (detail !== undefined) console.log(`#   got: ${typeof detail === 'string' ? detail : JSON.stringify(detail, (k, v) => (typeof v === 'bigint' ? `${v}n` : v))}`);
    }
    return Boolean(condition);
  }

  error(what, err) { return this.ok(false, what, `${err && err.code ? err.code + ' ' : ''}${err && err.message}`); }

  // Runs fn(); a thrown error is this check's failure.
  async run(what, fn) {
    try { await fn(); } catch (err) { this.error(what, err); }
  }

  // Runs the whole program; a crash outside any check is one more failure.
  async main(body) {
    try { await body(this); } catch (err) { console.log(err && err.stack); this.error('the program ran to its end', err); }
    console.log(`1..${this.count}`);
    process.exitCode = this.failed ? 1 : 0;
  }
}

module.exports = { Checks, crockfordToBigInt, bigIntToCrockford, ulidToBytes, tsidToBytes };
