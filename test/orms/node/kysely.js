// Kysely against ulid, tsid, a bigint with generate_tsid() and a uuid with
// generate_uuidv7(): its Migrator, RETURNING, sql`` time windows, and
// db.introspection. Kysely needs no type of its own: sql`ulid` names the column
// type in a migration, and keys travel as node-postgres's strings.
'use strict';

const { KINDS, scenario, program } = require('./common');

// README kysely: begin
const { Kysely, PostgresDialect, Migrator, sql } = require('kysely');
const { Pool } = require('pg');

const db = new Kysely({ dialect: new PostgresDialect({ pool: new Pool() }) });

const keyTypes = [['ulid', sql`ulid`, sql`generate_ulid()`], ['tsid', sql`tsid`, sql`generate_tsid()`],
  ['bigint', 'bigint', sql`generate_tsid()`], ['uuid', 'uuid', sql`generate_uuidv7()`]];
const migrations = {
  '0001_keys': {
    async up(kdb) {
      await sql`CREATE EXTENSION IF NOT EXISTS ulid_tsid`.execute(kdb);
      for (const [name, type, generator] of keyTypes) {
        await kdb.schema.createTable(`${name}_parent`)
          .addColumn('id', type, (col) => col.primaryKey().defaultTo(generator))
          .addColumn('name', 'text', (col) => col.notNull())
          .execute();
        await kdb.schema.createTable(`${name}_child`)
          .addColumn('id', type, (col) => col.primaryKey().defaultTo(generator))
          .addColumn('parent_id', type, (col) => col.references(`${name}_parent.id`))
          .addColumn('note', 'text')
          .execute();
      }
    },
  },
};
const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
// README kysely: end

const orm = {
  name: 'kysely',
  keyOf: (k, row) => row.id,
  bigintKey: (text) => text,
  // README kysely-usage: begin
  insertParent: (k, name) => db.insertInto(`${k.kind}_parent`).values({ name }).returningAll().executeTakeFirstOrThrow(),
  insertChild: (k, parentId, note) => db.insertInto(`${k.kind}_child`).values({ parent_id: parentId, note })
    .returning(['id', 'parent_id']).executeTakeFirstOrThrow(),
  findParent: async (k, id) => (await db.selectFrom(`${k.kind}_parent`).selectAll().where('id', '=', id).executeTakeFirst()) ?? null,
  childrenWithParent: (k, id) => db.selectFrom(`${k.kind}_child as c`).innerJoin(`${k.kind}_parent as p`, 'p.id', 'c.parent_id')
    .where('p.id', '=', id).select(['c.note', 'p.name as parentName']).execute(),
  pageParents: (k, after, n) => db.selectFrom(`${k.kind}_parent`).selectAll()
    .$if(after !== null, (q) => q.where('id', '>', after)).orderBy('id').limit(n).execute(),
  parentsSince: (k, since) => db.selectFrom(`${k.kind}_parent`).selectAll()
    .where(sql`${sql.raw(k.time)} >= ${since}`).orderBy('id').execute(),
  // README kysely-usage: end
};

program('kysely', async (t, pgdb) => {
  try {
    const { error, results } = await migrator.migrateToLatest();
    t.ok(!error && results.length === 1 && results[0].status === 'Success', 'Migrator.migrateToLatest applied 0001_keys', { error: String(error), results });
    for (const k of KINDS) await scenario(t, pgdb, orm, k);
    // Introspection: the column's type by its name, and whether it has a default.
    const tables = await db.introspection.getTables();
    const id = tables.find((tb) => tb.name === 'ulid_parent').columns.find((c) => c.name === 'id');
    t.ok(id.dataType === 'ulid' && id.hasDefaultValue, `introspection: ulid_parent.id is dataType ${id.dataType}, hasDefaultValue ${id.hasDefaultValue}`, id);
  } finally {
    await db.destroy();
  }
});
