// node-postgres against ulid and tsid: the README's recipe, run for real.
// node-postgres sends every parameter as untyped text (or a Buffer as binary)
// and reads text: ulid is fine as its string; tsid needs a parser to become a
// BigInt, and a BigInt goes back through $n::bigint.
'use strict';

const { pipeline } = require('node:stream/promises');
const { Readable, Writable } = require('node:stream');
const copyStreams = require('pg-copy-streams');
const { Checks, crockfordToBigInt, bigIntToCrockford, ulidToBytes, tsidToBytes } = require('./checks');

// README node-postgres: begin
const pg = require('pg');

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
// A tsid's 13 characters as the signed 64-bit integer it is stored as.
const tsidToBigInt = (text) =>
  BigInt.asIntN(64, [...text].reduce((n, c) => n * 32n + BigInt(CROCKFORD.indexOf(c)), 0n));

// tsid and tsid[] read as BigInt, ulid[] as an array of strings (a ulid is its string).
async function registerUlidTsid(client) {
  const { rows } = await client.query(
    "SELECT typname, oid, typarray FROM pg_type WHERE oid IN ('ulid'::regtype, 'tsid'::regtype)");
  for (const t of rows) {
    const parse = t.typname === 'tsid' ? tsidToBigInt : String;
    if (t.typname === 'tsid') pg.types.setTypeParser(t.oid, parse);
    pg.types.setTypeParser(t.typarray, (text) => pg.types.arrayParser.create(text, parse).parse());
  }
}
// README node-postgres: end

// One binary COPY stream: header, rows of (16-byte ulid, 8-byte tsid), trailer.
function copyBinary(rows) {
  const parts = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)];
  for (const [ulid, tsid] of rows) {
    const row = Buffer.alloc(2 + 4 + 16 + 4 + 8);
    row.writeInt16BE(2, 0); row.writeInt32BE(16, 2); ulid.copy(row, 6);
    row.writeInt32BE(8, 22); tsid.copy(row, 26);
    parts.push(row);
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

// The rows of a binary COPY stream of two non-null columns, as Buffers.
function parseCopyBinary(data) {
  const rows = [];
  let at = 11 + 4 + 4 + data.readInt32BE(15); // signature, flags, header extension
  for (;;) {
    const fields = data.readInt16BE(at); at += 2;
    if (fields === -1) return rows;
    const row = [];
    for (let f = 0; f < fields; f += 1) {
      const len = data.readInt32BE(at); at += 4;
      row.push(data.subarray(at, at + len)); at += len;
    }
    rows.push(row);
  }
}

async function main(t) {
  const client = new pg.Client();
  await client.connect();
  try {
    await checkClient(t, client);
  } finally {
    await client.end();
  }
}

async function checkClient(t, client) {
  await client.query('DROP TABLE IF EXISTS orders, ku');
  await client.query(`CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT generate_ulid(),
                                           tid tsid UNIQUE DEFAULT generate_tsid(), item text)`);
  await client.query('CREATE TABLE ku (id ulid, tid tsid)');
  const uuidString = '01890a5d-ac96-774b-bcce-b302099a8057';
  await client.query("INSERT INTO orders (id, item) VALUES ('01890a5d-ac96-774b-bcce-b302099a8057'::uuid, 'from uuid')");

  let row; let found;   // what the README's lines below made
  try {
    // README node-postgres-read: begin
    await registerUlidTsid(client);
    const { rows: [book] } = await client.query("INSERT INTO orders (item) VALUES ('book') RETURNING id, tid");
    // { id: '01M8PZ...', tid: 915268788478279683n }
    // README node-postgres-read: end
    row = book;
    // README node-postgres-find: begin
    found = await client.query('SELECT item FROM orders WHERE id = $1 AND tid = $2::bigint', [book.id, book.tid]);
    // a BigInt goes in through $2::bigint: a bare $2 sends its decimal text, which tsid refuses
    await client.query('SELECT item FROM orders WHERE id = $1::uuid', [uuidString]);
    // a uuid string compares as a uuid
    // README node-postgres-find: end
    t.ok(true, "the README's usage lines run");
  } catch (err) {
    t.error("the README's usage lines run", err);
  }

  const { rows: [asInt] } = await client.query("SELECT id::uuid::text AS u, tid::bigint::text AS b FROM orders WHERE item = 'book'");
  t.ok(row && typeof row.id === 'string' && BigInt(`0x${asInt.u.replace(/-/g, '')}`) === crockfordToBigInt(row.id),
    'a default ulid reads as its 26-char string, the same 128 bits as its uuid', [row, asInt]);
  t.ok(row && row.tid === BigInt(asInt.b), 'a default tsid reads as the BigInt of its int8 value', [row, asInt]);
  t.ok(found && found.rows.length === 1 && found.rows[0].item === 'book', 'WHERE id = $1 AND tid = $2::bigint finds the row', found && found.rows);

  await client.query('SET enable_seqscan = off');
  for (const [what, q, arg] of [
    ['WHERE tid = $1::bigint with a BigInt', 'SELECT item FROM orders WHERE tid = $1::bigint', row && row.tid],
    ['WHERE id = $1::uuid with a uuid string', 'SELECT item FROM orders WHERE id = $1::uuid', uuidString]]) {
    await t.run(`${what} uses the index`, async () => {
      const plan = (await client.query(`EXPLAIN ${q}`, [arg])).rows.map((r) => r['QUERY PLAN']).join('\n');
      t.ok(plan.includes('Index'), `${what} uses the index`, plan);
    });
  }
  await client.query('RESET enable_seqscan');

  // A bare parameter: node-postgres sends a BigInt or number as decimal text.
  for (const [label, value] of [['an 18-digit BigInt', row && row.tid], ['a 5-digit BigInt', 12345n]]) {
    const what = `${label} as a bare tsid parameter is refused (22P02) with a hint to cast through bigint`;
    try {
      const got = await client.query('SELECT count(*) FROM orders WHERE tid = $1', [value]);
      t.ok(false, what, got.rows);
    } catch (err) {
      t.ok(err.code === '22P02' && /::bigint/.test(err.hint || ''), what, [err.code, err.message, err.hint]);
    }
  }

  // Client-made values: Crockford text, Buffers (sent in binary), uuid text.
  const madeUlid = '01HQ3K9V8WZ1Y2X3W4V5T6S7R8'; const madeTsid = '0DXBG0DVMS8ER';
  await client.query("INSERT INTO orders (id, tid, item) VALUES ($1, $2, 'text')", [madeUlid, madeTsid]);
  const text = (await client.query("SELECT id, tid FROM orders WHERE item = 'text'")).rows[0];
  t.ok(text.id === madeUlid && text.tid === crockfordToBigInt(madeTsid), 'Crockford strings as text parameters round-trip', text);
  const binUlid = ulidToBytes('01JDQ6J0Z7T3S4KQ8D6Y1F2A3B'); const binTsid = tsidToBytes('0F00BAAAAAAAA');
  await client.query("INSERT INTO orders (id, tid, item) VALUES ($1, $2, 'binary')", [binUlid, binTsid]);
  const bin = (await client.query("SELECT id, tid FROM orders WHERE item = 'binary'")).rows[0];
  t.ok(bin.id === '01JDQ6J0Z7T3S4KQ8D6Y1F2A3B' && bin.tid === crockfordToBigInt('0F00BAAAAAAAA'),
    'Buffers as binary parameters store the same bits', bin);
  const fromUuid = (await client.query("SELECT id FROM orders WHERE item = 'from uuid'")).rows[0];
  t.ok(crockfordToBigInt(fromUuid.id) === BigInt(`0x${uuidString.replace(/-/g, '')}`), 'a uuid string cast to ulid keeps its 128 bits', fromUuid);

  // Arrays.
  const all = (await client.query('SELECT id, tid FROM orders ORDER BY id')).rows;
  const arr = (await client.query('SELECT array_agg(id ORDER BY id) AS ids, array_agg(tid ORDER BY id) AS tids FROM orders')).rows[0];
  t.ok(JSON.stringify(arr.ids) === JSON.stringify(all.map((r) => r.id)), 'ulid[] reads as an array of strings', arr.ids);
  t.ok(arr.tids.length === all.length && arr.tids.every((v, i) => v === all[i].tid), 'tsid[] reads as an array of BigInt', String(arr.tids));
  await t.run('= ANY($1) with strings and = ANY($2::bigint[]) with BigInts', async () => {
    const n = (await client.query('SELECT count(*)::int AS n FROM orders WHERE id = ANY($1) AND tid = ANY($2::bigint[])',
      [all.map((r) => r.id), all.map((r) => r.tid)])).rows[0].n;
    t.ok(n === all.length, '= ANY($1) with strings and = ANY($2::bigint[]) with BigInts', n);
  });

  // A composite row: node-postgres gives its text.
  await client.query('INSERT INTO ku SELECT id, tid FROM orders');
  const comp = (await client.query('SELECT k FROM ku k ORDER BY id')).rows.map((r) => r.k);
  t.ok(JSON.stringify(comp) === JSON.stringify(all.map((r) => `(${r.id},${bigIntToCrockford(r.tid, 13)})`)),
    'a composite row reads as its text, the fields in their Crockford forms', comp);
  const compParam = (await client.query('SELECT count(*)::int AS n FROM ku k WHERE k = $1::ku', [comp[0]])).rows[0].n;
  t.ok(compParam === 1, 'a composite as a text parameter', compParam);

  // binary: true is what node-postgres does for uuid too: lossy strings (README: leave it off).
  const raw = (await client.query({ text: 'SELECT id, id::uuid AS u FROM orders WHERE id = $1', values: [all[0].id], binary: true })).rows[0];
  t.ok(raw.id === raw.u && !Buffer.from(raw.id, 'latin1').equals(ulidToBytes(all[0].id)),
    'binary: true gives a ulid the same lossy string it gives a uuid (why the README says leave it off)', raw);

  // COPY BINARY both ways (pg-copy-streams).
  const chunks = [];
  await pipeline(client.query(copyStreams.to('COPY (SELECT id, tid FROM orders ORDER BY id) TO STDOUT (FORMAT BINARY)')),
    new Writable({ write(chunk, _e, done) { chunks.push(chunk); done(); } }));
  const copied = parseCopyBinary(Buffer.concat(chunks));
  t.ok(copied.length === all.length && copied.every(([u, s], i) => u.equals(ulidToBytes(all[i].id))
    && s.readBigInt64BE(0) === all[i].tid), 'COPY TO STDOUT (FORMAT BINARY) gives 16 and 8 big-endian bytes per row',
  copied.map((r) => r.map((b) => b.toString('hex'))));
  await client.query('TRUNCATE ku');
  await pipeline(Readable.from([copyBinary([[binUlid, binTsid], [ulidToBytes(madeUlid), tsidToBytes(madeTsid)]])]),
    client.query(copyStreams.from('COPY ku FROM STDIN (FORMAT BINARY)')));
  const back = (await client.query('SELECT id, tid FROM ku ORDER BY id')).rows;
  t.ok(back.length === 2 && back[0].id === madeUlid && back[0].tid === crockfordToBigInt(madeTsid)
    && back[1].id === '01JDQ6J0Z7T3S4KQ8D6Y1F2A3B', 'COPY FROM STDIN (FORMAT BINARY) of client-made bytes', back);
}

new Checks('node-postgres').main(main);
