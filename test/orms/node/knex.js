// Knex against ulid, tsid, a bigint with generate_tsid() and a uuid with
// generate_uuidv7(): its migrator, RETURNING, raw time windows, columnInfo().
// Knex needs no type of its own: specificType() names the column type, and
// values travel as node-postgres's text (a key is its string).
'use strict';

const { KINDS, scenario, program } = require('./common');

// README knex: begin
const knex = require('knex')({ client: 'pg', connection: {} }); // PGHOST, PGDATABASE, ... from the environment

// One migration (knex.migrate.latest() runs it once): the extension, then per key type
// a parent with the database DEFAULT on its key and a child with a foreign key.
const keyTypes = [['ulid', 'ulid', 'generate_ulid()'], ['tsid', 'tsid', 'generate_tsid()'],
  ['bigint', 'bigint', 'generate_tsid()'], ['uuid', 'uuid', 'generate_uuidv7()']];
const migration = {
  async up(db) {
    await db.raw('CREATE EXTENSION IF NOT EXISTS ulid_tsid');
    for (const [name, type, generator] of keyTypes) {
      await db.schema.createTable(`${name}_parent`, (table) => {
        table.specificType('id', type).primary().defaultTo(db.raw(generator));
        table.text('name').notNullable();
      });
      await db.schema.createTable(`${name}_child`, (table) => {
        table.specificType('id', type).primary().defaultTo(db.raw(generator));
        table.specificType('parent_id', type).references('id').inTable(`${name}_parent`);
        table.text('note');
      });
    }
  },
  async down(db) {
    for (const [name] of keyTypes) await db.schema.dropTable(`${name}_child`).dropTable(`${name}_parent`);
  },
};
const migrationSource = {
  getMigrations: async () => ['0001_keys'],
  getMigrationName: (name) => name,
  getMigration: async () => migration,
};
// README knex: end

const orm = {
  name: 'knex',
  keyOf: (k, row) => row.id,
  bigintKey: (text) => text,
  // README knex-usage: begin
  insertParent: async (k, name) => (await knex(`${k.kind}_parent`).insert({ name }).returning('*'))[0],
  insertChild: async (k, parentId, note) =>
    (await knex(`${k.kind}_child`).insert({ parent_id: parentId, note }).returning(['id', 'parent_id']))[0],
  findParent: async (k, id) => (await knex(`${k.kind}_parent`).where({ id }).first()) ?? null,
  childrenWithParent: (k, id) => knex(`${k.kind}_child as c`).join(`${k.kind}_parent as p`, 'p.id', 'c.parent_id')
    .where('p.id', id).select('c.note', 'p.name as parentName'),
  pageParents: (k, after, n) => knex(`${k.kind}_parent`)
    .modify((q) => { if (after !== null) q.where('id', '>', after); }).orderBy('id').limit(n),
  parentsSince: (k, since) => knex(`${k.kind}_parent`).whereRaw(`${k.time} >= ?`, [since]).orderBy('id'),
  // README knex-usage: end
};

program('knex', async (t, db) => {
  await knex.migrate.latest({ migrationSource });
  const [, applied] = await knex.migrate.list({ migrationSource });
  t.ok(applied.length === 0, 'migrate.latest applied the migration (nothing pending)', applied);
  try {
    for (const k of KINDS) await scenario(t, db, orm, k);
    // Introspection: columnInfo() reports the type by its name.
    const info = await knex('ulid_parent').columnInfo();
    t.ok(info.id.type === 'USER-DEFINED' || info.id.type === 'ulid', `columnInfo() of a ulid key says ${info.id.type}, default ${info.id.defaultValue}`, info.id);
    const tsidInfo = await knex('tsid_parent').columnInfo();
    t.ok(tsidInfo.id.defaultValue === 'generate_tsid()', 'columnInfo() shows the DEFAULT generate_tsid()', tsidInfo.id);
  } finally {
    await knex.destroy();
  }
});
