// Bit-for-bit agreement with other languages' reference ID libraries: npm's
// ulid (the ULID spec's reference implementation), uuid (RFC 9562 v7) and
// tsid-ts (a port of f4b6a3/tsid-creator). Values the database makes decode
// in the library to the same millisecond and the same bits; values the
// library makes parse in the database, decode to the same time there, and
// sort in the order the library made them.
'use strict';

const pg = require('pg');
const { decodeTime, monotonicFactory, ulidToUUID, isValid } = require('ulid');
const uuid = require('uuid');
const { TSID, TSIDGenerator } = require('tsid-ts');
const { Checks } = require('./checks');

const N = 200;
const sameList = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

// Milliseconds since the Unix epoch of a UUIDv7, from its first 48 bits.
const uuidv7Millis = (u) => Number(BigInt(`0x${Buffer.from(uuid.parse(u)).subarray(0, 6).toString('hex')}`));

async function checkUlid(t, client) {
  const db = (await client.query(`SELECT id::text AS id, id::uuid::text AS u,
      (extract(epoch FROM ulid_timestamp(id)) * 1000)::bigint::text AS ms
      FROM (SELECT generate_ulid() AS id FROM generate_series(1, ${N})) s`)).rows;
  t.ok(db.every((r) => isValid(r.id)), `ulid: ${N} database ULIDs are valid for the library`, db[0]);
  t.ok(db.every((r) => decodeTime(r.id) === Number(r.ms)), 'ulid: decodeTime() of each equals ulid_timestamp()', db.slice(0, 3));
  t.ok(db.every((r) => ulidToUUID(r.id).toLowerCase() === r.u), 'ulid: ulidToUUID() of each equals the database\'s ulid::uuid', db.slice(0, 3));

  const next = monotonicFactory();
  const start = Date.now();
  const made = Array.from({ length: N }, (_, i) => next(start + Math.floor(i / 50)));  // 50 in each millisecond
  const back = (await client.query(`SELECT v::ulid::text AS id, (extract(epoch FROM ulid_timestamp(v::ulid)) * 1000)::bigint::text AS ms
      FROM unnest($1::text[]) WITH ORDINALITY AS m(v, n) ORDER BY v::ulid`, [made])).rows;
  t.ok(sameList(back.map((r) => r.id), made), 'ulid: monotonicFactory() output parses unchanged and sorts in the order it was made', back.slice(0, 3));
  t.ok(back.every((r) => Number(r.ms) === decodeTime(r.id)), 'ulid: the database reads the library\'s time', back.slice(0, 3));
}

async function checkUuidv7(t, client) {
  const db = (await client.query(`SELECT u::text AS u, (extract(epoch FROM uuidv7_timestamp(u)) * 1000)::bigint::text AS ms
      FROM (SELECT generate_uuidv7() AS u FROM generate_series(1, ${N})) s`)).rows;
  t.ok(db.every((r) => uuid.validate(r.u) && uuid.version(r.u) === 7), `uuid: ${N} generate_uuidv7() values are valid version 7 for the library`, db[0]);
  t.ok(db.every((r) => uuidv7Millis(r.u) === Number(r.ms)), 'uuid: their 48-bit time is uuidv7_timestamp()', db.slice(0, 3));

  const made = Array.from({ length: N }, () => uuid.v7());   // monotonic within the process
  const back = (await client.query('SELECT u::text AS u FROM unnest($1::uuid[]) AS m(u) ORDER BY u', [made])).rows;
  t.ok(sameList(back.map((r) => r.u), made), 'uuid: v7() values sort in the database in the order they were made', back.slice(0, 3));
  const start = Date.now() - 86400000;
  const timed = Array.from({ length: N }, (_, i) => uuid.v7({ msecs: start + i * 997 }));
  const times = (await client.query(`SELECT public.uuid_extract_version(u) AS v, (extract(epoch FROM uuidv7_timestamp(u)) * 1000)::bigint::text AS ms
      FROM unnest($1::uuid[]) WITH ORDINALITY AS m(u, n) ORDER BY n`, [timed])).rows;
  t.ok(times.every((r, i) => r.v === 7 && Number(r.ms) === start + i * 997), 'uuid: the database extracts version 7 and the msecs the library was given', times.slice(0, 3));
  // A v7 uuid kept as a ulid keeps its time: the first 48 bits are the same milliseconds.
  const asUlid = (await client.query('SELECT (extract(epoch FROM ulid_timestamp($1::uuid::ulid)) * 1000)::bigint::text AS ms', [timed[0]])).rows[0];
  t.ok(Number(asUlid.ms) === start, 'uuid: a v7 value cast to ulid has the same timestamp', asUlid);
}

async function checkTsid(t, client) {
  const db = (await client.query(`SELECT id::text AS id, id::bigint::text AS n,
      (extract(epoch FROM tsid_timestamp(id)) * 1000)::bigint::text AS ms
      FROM (SELECT generate_tsid() AS id FROM generate_series(1, ${N})) s`)).rows;
  const parsed = db.map((r) => TSID.fromString(r.id));
  t.ok(parsed.every((p, i) => p.number === BigInt.asUintN(64, BigInt(db[i].n))), `tsid-ts: ${N} generate_tsid() values parse to the same 64 bits`, db[0]);
  t.ok(parsed.every((p, i) => p.timestamp === Number(db[i].ms)), 'tsid-ts: .timestamp of each equals tsid_timestamp()', db.slice(0, 3));
  t.ok(parsed.every((p, i) => p.toString() === db[i].id), 'tsid-ts: its canonical string is the database\'s text', db.slice(0, 3));

  const gen = new TSIDGenerator(7, 10);   // tsid-creator's layout: 10 node bits, node 7
  const made = Array.from({ length: N }, () => gen.create());
  const back = (await client.query(`SELECT v::tsid::text AS id, v::tsid::bigint::text AS n, tsid_node(v::tsid, 10) AS node,
      (extract(epoch FROM tsid_timestamp(v::tsid)) * 1000)::bigint::text AS ms
      FROM unnest($1::text[]) AS m(v) ORDER BY v::tsid`, [made.map((m) => m.toString())])).rows;
  t.ok(sameList(back.map((r) => r.id), made.map((m) => m.toString())), 'tsid-ts: generator output parses unchanged and sorts in the order it was made', back.slice(0, 3));
  t.ok(back.every((r, i) => BigInt(r.n) === made[i].number && Number(r.ms) === made[i].timestamp && r.node === 7),
    'tsid-ts: the database reads the library\'s bits, time and node', back.slice(0, 3));
  // Its number is the bigint a tsid column casts to. (Not toDecimalString():
  // tsid-ts 0.0.9 computes it through a float and loses the low digits.)
  const dec = (await client.query('SELECT $1::bigint::tsid::text AS id', [made[0].number])).rows[0];
  t.ok(dec.id === made[0].toString(), 'tsid-ts: .number through $1::bigint::tsid is the same TSID', dec);
}

new Checks('reference-ids').main(async (t) => {
  const client = new pg.Client();
  await client.connect();
  try {
    for (const part of [checkUlid, checkUuidv7, checkTsid]) {
      await t.run(part.name, () => part(t, client));
    }
  } finally {
    await client.end();
  }
});
