// Drizzle against ulid, tsid, a bigint with generate_tsid() and a uuid with
// generate_uuidv7(): customType for the extension's types (drizzle/schema.js),
// drizzle-kit's migrations applied by drizzle-orm's migrator, RETURNING, sql``
// time windows, drizzle-kit generate (no drift) and drizzle-kit pull.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { KINDS, scenario, program, expectSqlstate } = require('./common');

// README drizzle: begin
const { drizzle } = require('drizzle-orm/node-postgres');
const { migrate } = require('drizzle-orm/node-postgres/migrator');
const { eq, gt, sql } = require('drizzle-orm');
const tables = require('./drizzle/schema');

const db = drizzle({ connection: {} }); // PGHOST, PGDATABASE, ... from the environment
// README drizzle: end

// Each kind's key time, through the raw-SQL escape.
// README drizzle-time: begin
const keyTime = {
  ulid: (id) => sql`ulid_timestamp(${id})`,
  tsid: (id) => sql`tsid_timestamp(${id})`,
  bigint: (id) => sql`tsid_timestamp(${id}::tsid)`,
  uuid: (id) => sql`uuidv7_timestamp(${id})`,
};
// README drizzle-time: end

const parentOf = (k) => tables[`${k.kind}Parent`];
const childOf = (k) => tables[`${k.kind}Child`];
const orm = {
  name: 'drizzle',
  keyOf: (k, row) => row.id,
  bigintKey: (text) => BigInt(text),
  fromJson: (k, id) => (k.kind === 'bigint' ? BigInt(id) : id),
  // README drizzle-usage: begin
  insertParent: async (k, name) => (await db.insert(parentOf(k)).values({ name }).returning())[0],
  insertChild: async (k, parentId, note) => (await db.insert(childOf(k)).values({ parentId, note }).returning())[0],
  findParent: async (k, id) => (await db.select().from(parentOf(k)).where(eq(parentOf(k).id, id)))[0] ?? null,
  childrenWithParent: (k, id) => {
    const [p, c] = [parentOf(k), childOf(k)];
    return db.select({ note: c.note, parentName: p.name }).from(c).innerJoin(p, eq(p.id, c.parentId)).where(eq(p.id, id));
  },
  pageParents: (k, after, n) => db.select().from(parentOf(k))
    .where(after === null ? undefined : gt(parentOf(k).id, after)).orderBy(parentOf(k).id).limit(n),
  parentsSince: (k, since) => db.select().from(parentOf(k))
    .where(sql`${keyTime[k.kind](parentOf(k).id)} >= ${since}`).orderBy(parentOf(k).id),
  // README drizzle-usage: end
};

// drizzle-kit in a scratch directory (DRIZZLE_OUT): its exit status and output.
function drizzleKit(args, out) {
  const run = spawnSync(path.join(__dirname, 'node_modules/.bin/drizzle-kit'), args,
    { cwd: __dirname, env: { ...process.env, DRIZZLE_OUT: out }, encoding: 'utf8', timeout: 120e3 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

program('drizzle', async (t, pgdb) => {
  try {
    // README drizzle-migrate: begin
    await migrate(db, { migrationsFolder: path.join(__dirname, 'drizzle/migrations') });
    // README drizzle-migrate: end
    const applied = await pgdb.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    t.ok(applied.rows[0].n === 2, 'migrate() applied 0000_extension and 0001_keys', applied.rows);
    for (const k of KINDS) await scenario(t, pgdb, orm, k);

    // A tsid beyond 2^53 as a JS number: the bits a mode: 'number' column would lose.
    const big = (await pgdb.query("SELECT id::text FROM bigint_parent WHERE name = 'book'")).rows[0].id;
    t.ok(BigInt(Number(big)) !== BigInt(big), `a tsid as a JS number loses its low bits (${big} -> ${BigInt(Number(big))})`);

    // customType edge cases: NULL in and out, bad text is Drizzle's error with 22P02.
    const [nullChild] = await db.insert(tables.ulidChild).values({ parentId: null, note: 'null' }).returning();
    t.ok(nullChild.parentId === null, 'customType ulid: NULL goes in and comes back null', nullChild);
    await expectSqlstate(t, 'customType tsid: bad text is a DrizzleQueryError with SQLSTATE 22P02', '22P02',
      () => db.insert(tables.tsidChild).values({ parentId: '0SD77M1W4000!', note: 'bad' }));
    await expectSqlstate(t, 'customType ulid: a 25-character ulid is SQLSTATE 22P02', '22P02',
      () => db.select().from(tables.ulidParent).where(eq(tables.ulidParent.id, '01M8S0AT9E6D3ZAS5EJW0490X')));

    // drizzle-kit: generate finds no drift between the schema and the migrations;
    // pull writes what the database has.
    // (drizzle-kit reads its out directory relative to the current one)
    const scratch = path.relative(__dirname, fs.mkdtempSync(path.join(os.tmpdir(), 'drizzle-')));
    try {
      fs.cpSync(path.join(__dirname, 'drizzle/migrations'), path.join(__dirname, scratch), { recursive: true });
      const gen = drizzleKit(['generate'], scratch);
      t.ok(gen.status === 0 && /No schema changes/.test(gen.output), 'drizzle-kit generate: no schema changes against the migrations', gen.output.slice(-500));
      const pulled = path.join(scratch, 'pull');
      const pull = drizzleKit(['pull'], pulled);
      const file = path.join(__dirname, pulled, 'schema.ts');
      const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n') : [];
      const after = (table) => lines.slice(lines.findIndex((l) => l.includes(`pgTable("${table}"`)) + 1);
      const [ulidTodo, ulidId] = after('ulid_parent');
      const bigintId = after('bigint_parent').find((l) => /^\s*id:/.test(l)) || '';
      console.log(`# drizzle-kit pull (exit ${pull.status}) writes:\n#   ${ulidTodo.trim()}\n#   ${ulidId.trim()}\n#   ${bigintId.trim()}`);
      t.ok(pull.status === 0 && /failed to parse database type 'ulid'/.test(ulidTodo) && /^\s*id: unknown\("id"\)\.primaryKey\(\)/.test(ulidId),
        'drizzle-kit pull: a ulid key comes out as unknown("id") with a TODO and without its DEFAULT (write the customType)', `${pull.output.slice(-300)}\n${ulidTodo}\n${ulidId}`);
      t.ok(/bigint\(\{ mode: "number" \}\)\.default\(sql`generate_tsid\(\)`\)/.test(bigintId),
        'drizzle-kit pull: a bigint key comes out as mode: "number" (rounds tsids: write mode: "bigint")', bigintId);
      const marks = lines.filter((l) => /pgSequence\("ulid_tsid_mark/.test(l));
      t.ok(marks.length === 3, 'drizzle-kit pull: it also writes the extension\'s own sequences ulid_tsid_mark* (delete them)', marks);
    } finally {
      fs.rmSync(path.join(__dirname, scratch), { recursive: true, force: true });
    }
  } finally {
    await db.$client.end();
  }
});
