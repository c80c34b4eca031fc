// How typeid-js (jetify's TypeID library for JavaScript, the spec's own) reads
// the TypeIDs and opaque public IDs the extension makes, per key kind. The
// TypeID spec calls the suffix a UUIDv7; a ulid key, a random (v4) uuid and a
// public ID (a keyed permutation) are 128 bits that are not one. The library
// parses all of them; its toUUID() formats the bits through npm uuid's
// stringify(), which refuses bits that are not an RFC 9562 UUID (version 1-8,
// variant 10, or the nil and max UUIDs); toUUIDBytes() returns the bits as they
// are. So: toUUID() of a UUIDv7 key's TypeID is the key on every value, and for
// every other form it throws exactly when the bits fail that rule (computed
// here from the bytes), and toUUIDBytes() is the encoded 16 bytes on every value.
'use strict';

const pg = require('pg');
const { typeid } = require('typeid-js');
const { decodeTime } = require('ulid');
const uuid = require('uuid');
const { Checks, ulidToBytes } = require('./checks');

// README typeid-js: begin
const { TypeID } = require('typeid-js');

// The 128 bits behind a TypeID of the extension (of a ulid, a uuid or a public ID)
// as uuid text, which the database reads ($1::uuid, $1::uuid::ulid). Not toUUID():
// it throws for most ulids' bits, which are not RFC 9562 UUIDs.
function typeidToUuidText(text, prefix) {
  const hex = Buffer.from(TypeID.fromString(text, prefix).toUUIDBytes()).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
// README typeid-js: end

const N = 4000;   // values per key kind
const PREFIX = 'user';
// A fixed 32-byte key for the public_id(..., key bytea) overloads (no key file here).
const KEY_HEX = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';

const hexBytes = (u) => Buffer.from(u.replace(/-/g, ''), 'hex');
const sameBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
// What npm uuid's validate() accepts (its regex, from the bytes): version 1-8 and
// variant 10, or the nil or the max UUID. stringify(), so toUUID(), throws otherwise.
const rfcUuid = (b) => (b[6] >> 4 >= 1 && b[6] >> 4 <= 8 && (b[8] & 0xc0) === 0x80) ||
  b.every((x) => x === 0) || b.every((x) => x === 0xff);
// The spec's suffix: a UUIDv7 (version 7, variant 10).
const uuidv7Bits = (b) => b[6] >> 4 === 7 && (b[8] & 0xc0) === 0x80;

// toUUID() of a parsed TypeID: { uuid } or { thrown } (the error's message).
const toUuid = (t) => {
  try { return { uuid: t.toUUID() }; } catch (err) { return { thrown: `${err.name}: ${err.message}` }; }
};
const pct = (n, d) => `${n}/${d} (${(100 * n / d).toFixed(1)}%)`;

// Key kinds: the SQL that makes one, its type, whether it is a UUIDv7 by
// construction, its uuid version for npm uuid (null: not a uuid), its time in ms.
const KINDS = [
  { name: 'ulid', sql: 'generate_ulid()', type: 'ulid', v7: false, ms: 'ulid_timestamp(k)' },
  { name: 'ulid monotonic', sql: 'generate_ulid_monotonic()', type: 'ulid', v7: false, ms: 'ulid_timestamp(k)' },
  { name: 'uuidv7', sql: 'generate_uuidv7()', type: 'uuid', v7: true, version: 7, ms: 'uuidv7_timestamp(k)' },
  { name: 'uuidv7 shifted', sql: "generate_uuidv7('-400 days')", type: 'uuid', v7: true, version: 7, ms: 'uuidv7_timestamp(k)' },
  { name: 'uuidv4', sql: 'uuidv4()', type: 'uuid', v7: false, version: 4, ms: null },
];

async function checkKind(t, client, kind) {
  const rows = (await client.query(`SELECT k::text AS key, k::uuid::text AS u, typeid(k, $1) AS tid,
      public_id(k, $1, decode($2, 'hex')) AS pid,
      typeid_to_uuid(public_id(k, $1, decode($2, 'hex')), $1)::text AS pu,
      public_id_to_${kind.type}(public_id(k, $1, decode($2, 'hex')), $1, decode($2, 'hex'))::text AS back,
      ${kind.ms ? `(extract(epoch FROM ${kind.ms}) * 1000)::bigint::text` : 'NULL'} AS ms
      FROM (SELECT ${kind.sql} AS k FROM generate_series(1, ${N})) s`, [PREFIX, KEY_HEX])).rows;
  const k = kind.name;
  for (const r of rows) r.bytes = hexBytes(r.u);
  if (kind.type === 'ulid') {
    t.ok(rows.every((r) => sameBytes(ulidToBytes(r.key), r.bytes)), `${k}: ${N} keys; each one's uuid text is its 16 bytes`, rows[0]);
    t.ok(rows.every((r) => decodeTime(r.key) === Number(r.ms)), `${k}: npm ulid's decodeTime() of each equals ulid_timestamp()`, rows.slice(0, 2));
  } else {
    t.ok(rows.every((r) => uuid.validate(r.u) && uuid.version(r.u) === kind.version),
      `${k}: ${N} keys, each valid for npm uuid with version ${kind.version}`, rows[0]);
    if (kind.ms) {
      t.ok(rows.every((r) => Number(BigInt(`0x${r.bytes.subarray(0, 6).toString('hex')}`)) === Number(r.ms)),
        `${k}: each one's first 48 bits are uuidv7_timestamp()'s milliseconds`, rows.slice(0, 2));
    }
  }
  t.ok(rows.every((r) => r.back === r.key), `${k}: public_id_to_${kind.type}() of each public ID is the key`, rows.slice(0, 2));

  // The two forms: the TypeID's bits are the key's, the public ID's the permuted key's.
  for (const form of [{ name: 'TypeID', text: 'tid', bits: 'bytes' }, { name: 'public ID', text: 'pid', bits: 'pu' }]) {
    const what = `${k}, ${form.name}`;
    const bits = (r) => (form.bits === 'bytes' ? r.bytes : hexBytes(r.pu));
    let parsed;
    try {
      parsed = rows.map((r) => TypeID.fromString(r[form.text], PREFIX));
    } catch (err) {
      t.error(`${what}: TypeID.fromString() parses every value`, err);
      continue;
    }
    t.ok(parsed.every((p, i) => p.getType() === PREFIX && `${PREFIX}_${p.getSuffix()}` === rows[i][form.text] &&
      p.toString() === rows[i][form.text]),
    `${what}: TypeID.fromString(text, '${PREFIX}') parses every value to prefix '${PREFIX}' and the text's suffix`, rows[0][form.text]);
    if (form.name === 'TypeID' && kind.type === 'ulid') {
      t.ok(parsed.every((p, i) => p.getSuffix() === rows[i].key.toLowerCase()), `${what}: the suffix is the ulid's text in lower case`, rows[0]);
    }
    if (form.name === 'public ID') {
      t.ok(rows.every((r) => !sameBytes(bits(r), r.bytes)), `${what}: the bits are not the key's (typeid_to_uuid() of it differs from the key)`, rows[0]);
    }
    t.ok(parsed.every((p, i) => sameBytes(p.toUUIDBytes(), bits(rows[i]))),
      `${what}: toUUIDBytes() is the 16 bytes the extension encoded, on every value`, rows.slice(0, 2).map((r) => r[form.text]));
    t.ok(rows.every((r) => typeidToUuidText(r[form.text], PREFIX) === (form.bits === 'bytes' ? r.u : r.pu)),
      `${what}: typeidToUuidText() (docs/public-ids.md) is the ${form.bits === 'bytes' ? "key's" : "permuted key's"} uuid text`, rows[0]);
    t.ok(rows.every((r) => TypeID.fromUUIDBytes(PREFIX, bits(r)).toString() === r[form.text]),
    `${what}: TypeID.fromUUIDBytes('${PREFIX}', those bytes) writes the same text`, rows[0][form.text]);

    // toUUID(): the rule, value by value.
    const results = parsed.map(toUuid);
    const thrown = results.filter((x) => x.thrown).length;
    const strict = rows.filter((r) => rfcUuid(bits(r))).length;
    const v7 = rows.filter((r) => uuidv7Bits(bits(r))).length;
    const wrong = rows.map((r, i) => ({ text: r[form.text], bits: form.bits === 'bytes' ? r.u : r.pu, ...results[i] }))
      .filter((x, i) => (rfcUuid(bits(rows[i])) ? x.uuid !== x.bits : x.thrown !== 'TypeError: Stringified UUID is invalid'));
    t.ok(wrong.length === 0,
      `${what}: toUUID() is the bits' uuid text when they are an RFC 9562 UUID (version 1-8, variant 10) and throws "Stringified UUID is invalid" otherwise, on every value`,
      wrong.slice(0, 3));
    if (kind.v7 && form.name === 'TypeID') {
      t.ok(thrown === 0 && v7 === N && results.every((x, i) => x.uuid === rows[i].u && uuid.version(x.uuid) === 7),
        `${what}: spec-strict on every value: toUUID() is the key's uuid, version 7`, { thrown, v7 });
    }
    console.log(`# ${what}: toUUID() threw on ${pct(thrown, N)}; bits an RFC 9562 UUID ${pct(strict, N)}; a UUIDv7 ${pct(v7, N)}`);
  }
}

// The 64-bit forms: prefix_ + 13 characters, which a TypeID library refuses.
async function checkTsid(t, client) {
  const rows = (await client.query(`SELECT typeid(k, $1) AS tid, public_id(k, $1, decode($2, 'hex')) AS pid
      FROM (SELECT generate_tsid() AS k FROM generate_series(1, 100)) s`, [PREFIX, KEY_HEX])).rows;
  for (const form of ['tid', 'pid']) {
    const accepted = rows.filter((r) => { try { TypeID.fromString(r[form], PREFIX); return true; } catch (err) { return false; } });
    t.ok(accepted.length === 0, `tsid, ${form === 'tid' ? 'TypeID-shaped form' : 'public ID'}: TypeID.fromString() refuses every value (13 characters, not 26)`, accepted.slice(0, 3));
  }
}

// The other way: TypeIDs the library makes (UUIDv7 suffixes) read in the database.
async function checkLibraryMade(t, client) {
  const made = Array.from({ length: N }, () => typeid(PREFIX));
  const rows = (await client.query(`SELECT typeid_to_uuid(v, $1)::text AS u, typeid(typeid_to_ulid(v, $1), $1) AS again,
      (extract(epoch FROM uuidv7_timestamp(typeid_to_uuid(v, $1))) * 1000)::bigint::text AS ms
      FROM unnest($2::text[]) WITH ORDINALITY AS m(v, n) ORDER BY n`, [PREFIX, made.map(String)])).rows;
  t.ok(rows.every((r, i) => r.u === made[i].toUUID() && r.again === made[i].toString()),
    `typeid-js: ${N} typeid('${PREFIX}') values: typeid_to_uuid() is their toUUID(), and through ulid they come back as the same text`, rows[0]);
  t.ok(rows.every((r, i) => Number(r.ms) === decodeTime(made[i].getSuffix().toUpperCase())),
    'typeid-js: uuidv7_timestamp() of each is npm ulid\'s decodeTime() of its suffix', rows[0]);
}

new Checks('typeid').main(async (t) => {
  const client = new pg.Client();
  await client.connect();
  try {
    for (const kind of KINDS) await t.run(kind.name, () => checkKind(t, client, kind));
    await t.run('tsid', () => checkTsid(t, client));
    await t.run('library-made', () => checkLibraryMade(t, client));
  } finally {
    await client.end();
  }
});
