// TypeORM against ulid, tsid, a bigint with generate_tsid() and a uuid with
// generate_uuidv7(): EntitySchema entities (plain JS, no decorators), a
// migration run by DataSource#runMigrations, save() with RETURNING, raw time
// windows, and the schema diff that migration:generate would write.
'use strict';

const { KINDS, scenario, program, expectSqlstate } = require('./common');

// README typeorm: begin
require('reflect-metadata');
const { DataSource, EntitySchema, Table, MoreThan, Raw } = require('typeorm');

const keyTypes = { ulid: ['ulid', 'generate_ulid()'], tsid: ['tsid', 'generate_tsid()'],
  bigint: ['bigint', 'generate_tsid()'], uuid: ['uuid', 'generate_uuidv7()'] };

// A migration class, as `typeorm migration:create` writes one (here in JS).
class Keys1700000000000 {
  name = 'Keys1700000000000';

  async up(queryRunner) {
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS ulid_tsid');
    for (const [name, [type, generator]] of Object.entries(keyTypes)) {
      const id = { name: 'id', type, isPrimary: true, default: generator };
      await queryRunner.createTable(new Table({ name: `${name}_parent`,
        columns: [id, { name: 'name', type: 'text' }] }));
      await queryRunner.createTable(new Table({ name: `${name}_child`,
        columns: [id, { name: 'parent_id', type, isNullable: true }, { name: 'note', type: 'text', isNullable: true }],
        foreignKeys: [{ columnNames: ['parent_id'], referencedTableName: `${name}_parent`, referencedColumnNames: ['id'] }] }));
    }
  }

  async down(queryRunner) {
    for (const name of Object.keys(keyTypes)) {
      await queryRunner.dropTable(`${name}_child`);
      await queryRunner.dropTable(`${name}_parent`);
    }
  }
}

// Entities: the key has the database's DEFAULT, so save() inserts DEFAULT ... RETURNING "id".
const entities = {};
for (const [name, [type, generator]] of Object.entries(keyTypes)) {
  const Parent = new EntitySchema({ name: `${name}Parent`, tableName: `${name}_parent`, columns: {
    id: { type, primary: true, default: () => generator },
    name: { type: 'text' },
  } });
  const Child = new EntitySchema({ name: `${name}Child`, tableName: `${name}_child`, columns: {
    id: { type, primary: true, default: () => generator },
    parentId: { type, name: 'parent_id', nullable: true },
    note: { type: 'text', nullable: true },
  }, relations: {
    parent: { type: 'many-to-one', target: `${name}Parent`, joinColumn: { name: 'parent_id' } },
  } });
  entities[name] = { Parent, Child };
}

const dataSource = new DataSource({
  type: 'postgres', host: process.env.PGHOST, port: Number(process.env.PGPORT), username: process.env.PGUSER,
  database: process.env.PGDATABASE,
  entities: Object.values(entities).flatMap((e) => [e.Parent, e.Child]), migrations: [Keys1700000000000],
});
// TypeORM refuses column types it does not know ("Data type "ulid" ... is not supported"):
// declare the extension's, before initialize().
dataSource.driver.supportedDataTypes.push('ulid', 'tsid');
// README typeorm: end

// Each kind's key time for Raw(): TypeORM passes the column as alias.id and quotes it
// only when no ':' follows, so the bigint one casts with CAST(... AS tsid), not ::tsid.
// README typeorm-time: begin
const keyTime = {
  ulid: (id) => `ulid_timestamp(${id})`,
  tsid: (id) => `tsid_timestamp(${id})`,
  bigint: (id) => `tsid_timestamp(CAST(${id} AS tsid))`,
  uuid: (id) => `uuidv7_timestamp(${id})`,
};
// README typeorm-time: end

const repo = (k, which) => dataSource.getRepository(entities[k.kind][which]);
const orm = {
  name: 'typeorm',
  keyOf: (k, row) => row.id,
  bigintKey: (text) => text,
  // README typeorm-usage: begin
  insertParent: (k, name) => repo(k, 'Parent').save({ name }, { transaction: false }),
  insertChild: (k, parentId, note) => repo(k, 'Child').save({ parentId, note }, { transaction: false }),
  findParent: (k, id) => repo(k, 'Parent').findOneBy({ id }),
  childrenWithParent: async (k, id) => (await repo(k, 'Child').find({ relations: { parent: true }, where: { parent: { id } } }))
    .map((c) => ({ note: c.note, parentName: c.parent.name })),
  pageParents: (k, after, n) => repo(k, 'Parent').find({
    where: after === null ? {} : { id: MoreThan(after) }, order: { id: 'ASC' }, take: n }),
  parentsSince: (k, since) => repo(k, 'Parent').find({
    where: { id: Raw((id) => `${keyTime[k.kind](id)} >= :since`, { since }) }, order: { id: 'ASC' } }),
  // README typeorm-usage: end
};

program('typeorm', async (t, db) => {
  await dataSource.initialize();
  try {
    const ran = await dataSource.runMigrations();
    t.ok(ran.length === 1 && ran[0].name === 'Keys1700000000000', 'runMigrations() ran Keys1700000000000', ran);
    for (const k of KINDS) await scenario(t, db, orm, k);

    // What migration:generate would write now: nothing (the entities match the tables).
    const diff = await dataSource.driver.createSchemaBuilder().log();
    t.ok(diff.upQueries.length === 0, 'the schema diff (migration:generate) is empty', diff.upQueries.map((q) => q.query));
    // A ulid key declared as text instead: migration:generate would drop and re-add the key.
    const AsText = new EntitySchema({ name: 'ulidAsText', tableName: 'ulid_parent', columns: {
      id: { type: 'text', primary: true }, name: { type: 'text' } } });
    const other = new DataSource({ ...dataSource.options, entities: [AsText], migrations: [] });
    await other.initialize();
    try {
      const textDiff = (await other.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);
      t.ok(textDiff.some((q) => /DROP COLUMN "id"/.test(q)), `declared as text, migration:generate would write: ${textDiff.slice(0, 3).join('; ')}`, textDiff);
    } finally {
      await other.destroy();
    }
    // Edge cases: NULL, bad text (QueryFailedError with 22P02).
    const nullChild = await repo({ kind: 'tsid' }, 'Child').save({ parentId: null, note: 'null' }, { transaction: false });
    t.ok((await repo({ kind: 'tsid' }, 'Child').findOneBy({ id: nullChild.id })).parentId === null, 'tsid type: NULL comes back null');
    await expectSqlstate(t, 'tsid type: bad text is a QueryFailedError with SQLSTATE 22P02', '22P02',
      () => repo({ kind: 'tsid' }, 'Child').save({ parentId: '0SD77M1W4000U', note: 'bad' }, { transaction: false }));
  } finally {
    await dataSource.destroy();
  }
});
