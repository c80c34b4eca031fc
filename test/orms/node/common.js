// What the ORM programs share: the four key kinds, a counter of the statements
// every ORM sends (they all talk through the one `pg` package of this project, so
// wrapping pg.Client#query sees each round trip), the checks of the schema an
// ORM's migration made, EXPLAIN of the SQL an ORM actually sent, and one scenario
// that every ORM runs through its own API (orm.* functions of each program).
'use strict';

const pg = require('pg');
const { Checks } = require('../../clients/node/checks');

// The key kinds: the column type, its DEFAULT, the raw expression of its time,
// and what a key looks like in JS (each ORM's natural type: strings here; the
// Prisma program reads the bigint one as a BigInt).
const KINDS = [
  { kind: 'ulid', type: 'ulid', def: 'generate_ulid()', time: 'ulid_timestamp(id)', shape: /^[0-9A-HJKMNP-TV-Z]{26}$/ },
  { kind: 'tsid', type: 'tsid', def: 'generate_tsid()', time: 'tsid_timestamp(id)', shape: /^[0-9A-F][0-9A-HJKMNP-TV-Z]{12}$/ },
  { kind: 'bigint', type: 'bigint', def: 'generate_tsid()', time: 'tsid_timestamp(id::tsid)', shape: /^-?[0-9]{1,19}$/ },
  { kind: 'uuid', type: 'uuid', def: 'generate_uuidv7()', time: 'uuidv7_timestamp(id)', shape: /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/ },
];

// Every statement any pg.Client sends, in order: { text, values }.
const sent = [];
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function query(config, values, callback) {
  if (config && typeof config.submit !== 'function') {
    const text = typeof config === 'string' ? config : config.text;
    const vals = typeof config === 'object' && config.values ? config.values : (Array.isArray(values) ? values : undefined);
    sent.push({ text, values: vals });
  }
  return clientQuery.call(this, config, values, callback);
};

// The statements fn() sent.
async function statementsOf(fn) {
  const from = sent.length;
  const result = await fn();
  return { result, statements: sent.slice(from) };
}

// A plain client of the program's database, for checks that must not go through the ORM.
async function plainClient() {
  const client = new pg.Client();
  await client.connect();
  return client;
}

// The SQLSTATE an ORM's error carries, wherever the ORM keeps the driver's error.
function sqlstate(err) {
  for (let e = err, depth = 0; e && depth < 5; depth += 1) {
    const adapter = e.meta && e.meta.driverAdapterError; // Prisma's P20xx errors keep it here
    if (adapter && adapter.cause && adapter.cause.originalCode) return adapter.cause.originalCode;
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && !/^P[0-9]{4}$/.test(e.code)) return e.code;
    e = e.original || e.parent || e.driverError || e.cause;
  }
  return undefined;
}

async function expectSqlstate(t, what, state, fn) {
  try {
    await fn();
    t.ok(false, what, 'no error');
  } catch (err) {
    t.ok(sqlstate(err) === state, what, `${err && err.constructor && err.constructor.name}: ${sqlstate(err)} ${err && err.message}`);
  }
}

// The tables a migration made for kind k: key type and DEFAULT, the child's FK.
async function checkSchema(t, db, k, orm) {
  const { rows } = await db.query(
    `SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) AS type, pg_get_expr(d.adbin, d.adrelid) AS def
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE c.relname IN ($1, $2) AND a.attname IN ('id', 'parent_id') AND c.relnamespace = 'public'::regnamespace
      ORDER BY 1, 2`, [`${k.kind}_parent`, `${k.kind}_child`]);
  const col = (rel, att) => rows.find((r) => r.relname === `${k.kind}_${rel}` && r.attname === att) || {};
  t.ok(col('parent', 'id').type === k.type && col('parent', 'id').def === k.def,
    `migration: ${k.kind}_parent.id is ${k.type} DEFAULT ${k.def}`, col('parent', 'id'));
  t.ok(col('child', 'parent_id').type === k.type, `migration: ${k.kind}_child.parent_id is ${k.type}`, col('child', 'parent_id'));
  const fk = await db.query(
    "SELECT confrelid::regclass::text AS target FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f'",
    [`${k.kind}_child`]);
  t.ok(fk.rows.length === 1 && fk.rows[0].target === `${k.kind}_parent`, `migration: ${k.kind}_child has its foreign key`, fk.rows);
}

// EXPLAIN of a statement an ORM sent, with its parameters, sequential scans off.
async function plan(db, statement) {
  await db.query('BEGIN');
  try {
    await db.query('SET LOCAL enable_seqscan = off');
    const { rows } = await db.query(`EXPLAIN (COSTS OFF) ${statement.text}`, statement.values);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await db.query('ROLLBACK');
  }
}

// JSON.stringify that writes a BigInt as its decimal string.
const toJson = (value) => JSON.stringify(value, (key, v) => (typeof v === 'bigint' ? v.toString() : v));

// The scenario every ORM runs for each key kind, through the program's orm object:
//   orm.name
//   orm.insertParent(k, name)         -> the row (with the database-made key)
//   orm.insertChild(k, parentId, note)-> the row
//   orm.findParent(k, id)             -> the row or null
//   orm.childrenWithParent(k, id)     -> [{ note, parentName }]
//   orm.pageParents(k, after, n)      -> rows with id > after, by id (after null: from the start)
//   orm.parentsSince(k, date)         -> rows whose key time >= date (raw expression)
//   orm.keyOf(k, row)                 -> the key as the ORM gives it
async function scenario(t, db, orm, k) {
  const label = k.kind;
  await checkSchema(t, db, k, orm.name);

  // (2) insert without a key: the key comes back in the same round trip.
  const { result: book, statements } = await statementsOf(() => orm.insertParent(k, 'book'));
  const id = orm.keyOf(k, book);
  const dbIds = (await db.query(`SELECT id::text FROM ${k.kind}_parent WHERE name = 'book'`)).rows.map((r) => r.id);
  t.ok(dbIds.length === 1 && String(id) === dbIds[0], `${label}: insert returns the key the database made`, { id: String(id), dbIds });
  const inserts = statements.filter((s) => /^\s*insert/i.test(s.text));
  t.ok(inserts.length === 1 && /returning/i.test(inserts[0].text) && statements.filter((s) => !/^\s*(begin|start transaction|commit|savepoint|release)/i.test(s.text)).length === 1,
    `${label}: one round trip (INSERT ... RETURNING)`, statements.map((s) => s.text));
  t.ok(k.shape.test(String(id)), `${label}: the key is the natural ${typeof id} (${String(id)})`, String(id));

  // (3) find by key, join, keyset page, time window through the raw escape.
  const found = await orm.findParent(k, id);
  t.ok(found && found.name === 'book' && String(orm.keyOf(k, found)) === String(id), `${label}: find by key`, found);
  const missing = await orm.findParent(k, k.kind === 'bigint' ? orm.bigintKey('1') : (await db.query(`SELECT ${k.def}::text AS id`)).rows[0].id);
  t.ok(missing === null || missing === undefined, `${label}: find by an absent key gives nothing`, missing);
  await orm.insertChild(k, id, 'first');
  await orm.insertChild(k, id, 'second');
  const children = await orm.childrenWithParent(k, id);
  t.ok(children.length === 2 && children.every((c) => c.parentName === 'book') && children.map((c) => c.note).sort().join() === 'first,second',
    `${label}: join parent and child`, children);

  for (const name of ['a', 'b', 'c', 'd']) await orm.insertParent(k, name);
  const all = (await db.query(`SELECT id::text FROM ${k.kind}_parent ORDER BY id`)).rows.map((r) => r.id);
  const paged = [];
  let after = null;
  for (let i = 0; i < 5; i += 1) {
    const page = await orm.pageParents(k, after, 2);
    if (page.length === 0) break;
    paged.push(...page.map((r) => String(orm.keyOf(k, r))));
    after = orm.keyOf(k, page[page.length - 1]);
  }
  t.ok(paged.join() === all.join(), `${label}: keyset pages (id > last ORDER BY id LIMIT 2) walk every row in key order`, { paged, all });

  const hourAgo = new Date(Date.now() - 3600e3);
  const { result: recent, statements: windowSql } = await statementsOf(() => orm.parentsSince(k, hourAgo));
  const later = await orm.parentsSince(k, new Date(Date.now() + 3600e3));
  t.ok(recent.length === 5 && later.length === 0, `${label}: time window on the key (raw ${k.time} >= $date)`, { recent: recent.length, later: later.length });
  const select = windowSql.filter((s) => /^\s*select/i.test(s.text)).pop();
  const shown = select ? await plan(db, select) : 'no SELECT sent';
  const pkey = (await db.query('SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indrelid = $1::regclass AND indisprimary',
    [`${k.kind}_parent`])).rows[0].name;
  t.ok(/Index (Only )?Scan|Bitmap Index Scan/.test(shown) && shown.includes(` on ${pkey}`), `${label}: the time window uses the key's index`, `${select && select.text}\n${shown}`);

  // (4) serialisation: JSON out and back, the key unchanged and usable.
  const json = toJson(found);
  const back = JSON.parse(json);
  const again = await orm.findParent(k, orm.fromJson ? orm.fromJson(k, back.id) : back.id);
  t.ok(String(back.id) === String(id) && again && String(orm.keyOf(k, again)) === String(id),
    `${label}: JSON round trip keeps the key (${json.slice(0, 60)}...)`, { json, again });

  // Bad key text: the ORM's error with SQLSTATE 22P02, and the program goes on.
  if (k.kind !== 'bigint') {
    await expectSqlstate(t, `${label}: an invalid key is the ORM's error with SQLSTATE 22P02`, '22P02', () => orm.findParent(k, 'not-a-key'));
  }
  // NULL: a child without parent reads back null.
  const orphan = await orm.insertChild(k, null, 'orphan');
  const orphanRow = (await db.query(`SELECT parent_id FROM ${k.kind}_child WHERE note = 'orphan'`)).rows[0];
  t.ok(orphanRow && orphanRow.parent_id === null && (orphan.parentId ?? orphan.parent_id ?? null) === null,
    `${label}: a NULL foreign key stays NULL`, { orphan, orphanRow });
}

// Runs a program: a Checks, a plain client, the body; closes what it opened.
function program(name, body) {
  new Checks(name).main(async (t) => {
    const db = await plainClient();
    try { await body(t, db); } finally { await db.end(); }
  });
}

module.exports = { KINDS, sent, statementsOf, plainClient, sqlstate, expectSqlstate, checkSchema, plan, toJson, scenario, program };
