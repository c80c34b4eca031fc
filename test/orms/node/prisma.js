// Prisma 7 against ulid, tsid, a bigint with generate_tsid() and a uuid with
// generate_uuidv7(): the generated client (prisma-client-js) over the
// @prisma/adapter-pg driver adapter, RETURNING, $queryRaw time windows, BigInt
// and JSON. Prisma's CLI runs migrate and db pull through its schema engine, a
// native binary it downloads from binaries.prisma.sh on first use: where that
// download fails (this machine reaches npm only), the program says so, applies
// prisma/migrations/*/migration.sql through the client, and skips db pull.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { KINDS, scenario, program, expectSqlstate, toJson } = require('./common');

// The CLI works in a copy of prisma/ under node_modules, made once per lockfile and
// schema by `node prisma.js --generate` (scripts/suites/orms_node.sh, after npm ci):
// the generated client, and engine.json, whether the schema engine could be had.
const generated = path.join(__dirname, 'node_modules', '.ulid_tsid-prisma');
const url = () => `postgresql://${encodeURIComponent(process.env.PGUSER)}@localhost:${process.env.PGPORT}/${process.env.PGDATABASE}`
  + (process.env.PGHOST.startsWith('/') ? `?host=${encodeURIComponent(process.env.PGHOST)}` : '');
function prismaCli(args, env = {}) {
  const run = spawnSync(path.join(__dirname, 'node_modules/.bin/prisma'), args, { cwd: generated, encoding: 'utf8', timeout: 120e3,
    env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1', ...env } });
  return { status: run.status, output: `${run.stdout}${run.stderr}`.trim() };
}
// `prisma generate` needs no schema engine, but the CLI fetches one before any command
// unless PRISMA_SCHEMA_ENGINE_BINARY names a file: generate never runs it.
const noEngine = { PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false' };

if (process.argv[2] === '--generate') {
  fs.rmSync(generated, { recursive: true, force: true });
  fs.cpSync(path.join(__dirname, 'prisma'), generated, { recursive: true });
  const gen = prismaCli(['generate'], noEngine);
  console.log(gen.output);
  // Any command without the override fetches the schema engine first: validate is the cheapest.
  const probe = prismaCli(['validate'], { ULID_TSID_PRISMA_URL: 'postgresql://localhost/none' });
  fs.writeFileSync(path.join(generated, 'engine.json'), JSON.stringify({ available: probe.status === 0, output: probe.output }));
  console.log(`schema engine: ${probe.status === 0 ? 'available' : probe.output.split('\n').filter((l) => /Error/.test(l)).join(' ')}`);
  process.exit(gen.status === 0 ? 0 : 1);
}

let prisma;
const models = { ulid: ['ulidParent', 'ulidChild'], tsid: ['tsidParent', 'tsidChild'],
  bigint: ['bigintParent', 'bigintChild'], uuid: ['uuidParent', 'uuidChild'] };
const parent = (k) => prisma[models[k.kind][0]];
const child = (k) => prisma[models[k.kind][1]];

const orm = {
  name: 'prisma',
  keyOf: (k, row) => row.id,
  bigintKey: (text) => BigInt(text),
  fromJson: (k, id) => (k.kind === 'bigint' ? BigInt(id) : id),
  // README prisma-usage: begin
  insertParent: (k, name) => parent(k).create({ data: { name } }),
  insertChild: (k, parentId, note) => child(k).create({ data: { parentId, note } }),
  findParent: (k, id) => parent(k).findUnique({ where: { id } }),
  childrenWithParent: async (k, id) => (await child(k).findMany({ where: { parentId: id }, include: { parent: true } }))
    .map((c) => ({ note: c.note, parentName: c.parent.name })),
  pageParents: (k, after, n) => parent(k).findMany({
    where: after === null ? {} : { id: { gt: after } }, orderBy: { id: 'asc' }, take: n }),
  // README prisma-usage: end
  parentsSince: (k, since) => parentsSince[k.kind](since),
};
// The time window: Prisma's where has no raw expression, so the whole query is raw.
// README prisma-time: begin
const parentsSince = {
  ulid: (since) => prisma.$queryRaw`SELECT * FROM ulid_parent WHERE ulid_timestamp(id) >= ${since} ORDER BY id`,
  tsid: (since) => prisma.$queryRaw`SELECT * FROM tsid_parent WHERE tsid_timestamp(id) >= ${since} ORDER BY id`,
  bigint: (since) => prisma.$queryRaw`SELECT * FROM bigint_parent WHERE tsid_timestamp(id::tsid) >= ${since} ORDER BY id`,
  uuid: (since) => prisma.$queryRaw`SELECT * FROM uuid_parent WHERE uuidv7_timestamp(id) >= ${since} ORDER BY id`,
};
// README prisma-time: end

program('prisma', async (t, db) => {
  const cliEnv = { ULID_TSID_PRISMA_URL: url() };
  const engine = JSON.parse(fs.readFileSync(path.join(generated, 'engine.json'), 'utf8'));
  try {
    t.ok(fs.existsSync(path.join(generated, 'client/index.js')), 'prisma generate (prisma-client-js) made the client, offline');
    if (!engine.available) console.log(`# the schema engine could not be had: ${engine.output.split('\n').filter((l) => /Error/.test(l)).join(' ')}`);

    // README prisma: begin
    const { PrismaPg } = require('@prisma/adapter-pg');
    const { PrismaClient } = require(path.join(generated, 'client')); // the generator's output directory

    prisma = new PrismaClient({ adapter: new PrismaPg({}) }); // pg.Pool settings; {}: PGHOST, ... from the environment
    // README prisma: end

    // Migrations: prisma migrate deploy if the schema engine is there, else the same SQL by hand.
    if (engine.available) {
      const deploy = prismaCli(['migrate', 'deploy'], cliEnv);
      t.ok(deploy.status === 0 && /0001_keys/.test(deploy.output), 'prisma migrate deploy applied 0001_keys', deploy.output);
    } else {
      t.ok(/binaries\.prisma\.sh/.test(engine.output), 'prisma migrate deploy cannot run: the schema engine download fails (binaries.prisma.sh)', engine.output);
      const sql = fs.readFileSync(path.join(generated, 'migrations/0001_keys/migration.sql'), 'utf8');
      for (const statement of sql.split(/;\s*\n/).map((st) => st.replace(/^--.*$/mg, '').trim()).filter(Boolean)) {
        await prisma.$executeRawUnsafe(statement);
      }
      t.ok(true, 'migrations/0001_keys/migration.sql applied through $executeRawUnsafe instead');
    }

    for (const k of KINDS) await scenario(t, db, orm, k);

    // BigInt: what a bigint key is in Prisma, and what JSON.stringify does with it.
    const row = await prisma.bigintParent.findFirst({ where: { name: 'book' } });
    let plain;
    try { plain = JSON.stringify(row); } catch (err) { plain = err; }
    t.ok(typeof row.id === 'bigint' && plain instanceof TypeError,
      `a bigint key is a BigInt, and JSON.stringify(row) throws (${plain && plain.message})`);
    // README prisma-json: begin
    // res.json() and JSON.stringify cannot write a BigInt: write it as its decimal string.
    const json = JSON.stringify(row, (key, value) => (typeof value === 'bigint' ? value.toString() : value));
    // '{"id":"915611585552994756","name":"book"}'; read it back with BigInt(id)
    // README prisma-json: end
    t.ok(json === toJson(row) && JSON.parse(json).id === row.id.toString(), `the replacer writes ${json}`);
    t.ok(Number(row.id) !== Number.parseFloat(row.id.toString()) || BigInt(Number(row.id)) !== row.id,
      `as a JS number the key would lose bits (${row.id} -> ${BigInt(Number(row.id))})`);

    // Edge cases: NULL, bad text; the raw escape also returns the types.
    const orphan = await prisma.ulidChild.create({ data: { note: 'no parent' } });
    t.ok(orphan.parentId === null, 'a ulid foreign key left out is null', orphan);
    await expectSqlstate(t, 'a bad tsid is a Prisma error carrying SQLSTATE 22P02', '22P02',
      () => prisma.tsidParent.findUnique({ where: { id: '0SD77M1W4000U' } }));
    const [raw] = await prisma.$queryRaw`SELECT id, id::uuid AS as_uuid FROM ulid_parent LIMIT 1`;
    t.ok(typeof raw.id === 'string' && raw.id.length === 26 && typeof raw.as_uuid === 'string', `$queryRaw reads a ulid as its string (${raw.id})`, raw);

    // Introspection: prisma db pull, when the schema engine is there.
    if (engine.available) {
      const pull = prismaCli(['db', 'pull', '--print'], cliEnv);
      const ulidLine = pull.output.split('\n').find((l) => /generate_ulid/.test(l)) || '';
      console.log(`# prisma db pull: ${ulidLine.trim()}`);
      t.ok(pull.status === 0 && /Unsupported\("ulid"\)/.test(ulidLine), 'prisma db pull: a ulid key is Unsupported("ulid") (write String)', pull.output);
    } else {
      console.log('# prisma db pull: not run (no schema engine)');
    }
  } finally {
    if (prisma) await prisma.$disconnect();
  }
});
