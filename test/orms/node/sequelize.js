// Sequelize against ulid, tsid, a bigint with generate_tsid() and a uuid with
// generate_uuidv7(): a migration through queryInterface, models with the
// extension's types as small DataTypes, RETURNING, literal time windows,
// toJSON(), describeTable().
'use strict';

const { KINDS, scenario, program, expectSqlstate, statementsOf } = require('./common');

// README sequelize-types: begin
const { Sequelize, DataTypes, Op } = require('sequelize');

// The extension's types for models and migrations: in JS a ulid and a tsid are their
// text (26 and 13 characters), which Sequelize sends and reads like a string.
// (DataTypes.ABSTRACT is a Proxy whose `new` ignores subclasses: extend the class behind it.)
const ABSTRACT = DataTypes.ABSTRACT.prototype.constructor;
class ULID extends ABSTRACT { toSql() { return 'ULID'; } }
ULID.prototype.key = ULID.key = 'ULID';
class TSID extends ABSTRACT { toSql() { return 'TSID'; } }
TSID.prototype.key = TSID.key = 'TSID';
// README sequelize-types: end

// README sequelize: begin
const sequelize = new Sequelize({ dialect: 'postgres', host: process.env.PGHOST, port: process.env.PGPORT,
  username: process.env.PGUSER, database: process.env.PGDATABASE, logging: false });

// Per key type: its DataType and its DEFAULT. A bigint reads as a string (its decimal digits).
const keyTypes = { ulid: [ULID, 'generate_ulid()'], tsid: [TSID, 'generate_tsid()'],
  bigint: [DataTypes.BIGINT, 'generate_tsid()'], uuid: [DataTypes.UUID, 'generate_uuidv7()'] };

// The migration (the shape sequelize-cli and umzug run): the extension, parents, children.
const migration = {
  async up(queryInterface) {
    await queryInterface.sequelize.query('CREATE EXTENSION IF NOT EXISTS ulid_tsid');
    for (const [name, [type, generator]] of Object.entries(keyTypes)) {
      const key = { type, primaryKey: true, allowNull: false, defaultValue: Sequelize.literal(generator) };
      await queryInterface.createTable(`${name}_parent`, { id: key, name: { type: DataTypes.TEXT, allowNull: false } });
      await queryInterface.createTable(`${name}_child`, {
        id: key,
        parent_id: { type, references: { model: `${name}_parent`, key: 'id' } },
        note: DataTypes.TEXT,
      });
    }
  },
};

// The models: without a defaultValue, create() inserts NULL into the key (a not-null
// violation); DEFAULT lets the database make it, and create() reads it back by RETURNING.
const models = {};
for (const [name, [type]] of Object.entries(keyTypes)) {
  const Parent = sequelize.define(`${name}Parent`, {
    id: { type, primaryKey: true, defaultValue: Sequelize.literal('DEFAULT') },
    name: { type: DataTypes.TEXT, allowNull: false },
  }, { tableName: `${name}_parent`, timestamps: false });
  const Child = sequelize.define(`${name}Child`, {
    id: { type, primaryKey: true, defaultValue: Sequelize.literal('DEFAULT') },
    parentId: { type, field: 'parent_id' },
    note: DataTypes.TEXT,
  }, { tableName: `${name}_child`, timestamps: false });
  Child.belongsTo(Parent, { foreignKey: 'parentId', as: 'parent' });
  models[name] = { Parent, Child };
}
// README sequelize: end

const orm = {
  name: 'sequelize',
  keyOf: (k, row) => row.id,
  bigintKey: (text) => text,
  // README sequelize-usage: begin
  insertParent: (k, name) => models[k.kind].Parent.create({ name }),
  insertChild: (k, parentId, note) => models[k.kind].Child.create({ parentId, note }),
  findParent: (k, id) => models[k.kind].Parent.findByPk(id),
  childrenWithParent: async (k, id) => (await models[k.kind].Child.findAll({
    include: { model: models[k.kind].Parent, as: 'parent', where: { id } } }))
    .map((c) => ({ note: c.note, parentName: c.parent.name })),
  pageParents: (k, after, n) => models[k.kind].Parent.findAll({
    where: after === null ? {} : { id: { [Op.gt]: after } }, order: [['id', 'ASC']], limit: n }),
  parentsSince: (k, since) => models[k.kind].Parent.findAll({
    where: Sequelize.where(Sequelize.literal(k.time), Op.gte, since), order: [['id', 'ASC']] }),
  // README sequelize-usage: end
};

program('sequelize', async (t, db) => {
  try {
    await migration.up(sequelize.getQueryInterface());
    t.ok(true, 'the migration ran through queryInterface');
    for (const k of KINDS) await scenario(t, db, orm, k);

    // toJSON() is what res.json(model) writes: the keys as their strings.
    const row = await models.tsid.Parent.findOne({ where: { name: 'book' } });
    t.ok(JSON.stringify(row) === JSON.stringify({ id: row.id, name: 'book' }) && /^[0-9A-Z]{13}$/.test(row.toJSON().id),
      `toJSON() of a tsid row is ${JSON.stringify(row)}`, row.toJSON());
    // Custom type edge cases: NULL and bad text (Sequelize's DatabaseError with 22P02).
    const nullChild = await models.ulid.Child.create({ parentId: null, note: 'null' });
    t.ok(nullChild.parentId === null && (await models.ulid.Child.findByPk(nullChild.id)).parentId === null,
      'ULID type: NULL goes in and comes back null', nullChild.toJSON());
    await expectSqlstate(t, 'TSID type: bad text is a DatabaseError with SQLSTATE 22P02', '22P02',
      () => models.tsid.Child.create({ parentId: 'bad-tsid', note: 'bad' }));
    await expectSqlstate(t, 'ULID type: an O-less typo like a 27-char ulid is SQLSTATE 22P02', '22P02',
      () => models.ulid.Parent.findByPk('01M8S0AT9E6D3ZAS5EJW0490X6X'));
    // Without defaultValue: Sequelize inserts NULL into the key.
    const NoDefault = sequelize.define('ulidNoDefault', { id: { type: ULID, primaryKey: true }, name: DataTypes.TEXT },
      { tableName: 'ulid_parent', timestamps: false });
    await expectSqlstate(t, 'a key without defaultValue: create() inserts NULL (SQLSTATE 23502)', '23502', () => NoDefault.create({ name: 'x' }));
    // DataTypes.STRING in a migration would make varchar(255):
    const stringSql = sequelize.getQueryInterface().queryGenerator.attributesToSQL({ id: sequelize.normalizeAttribute({ type: DataTypes.STRING }) });
    t.ok(/VARCHAR\(255\)/.test(stringSql.id), `DataTypes.STRING in createTable is ${stringSql.id}, not ulid`, stringSql);
    const ulidSql = sequelize.getQueryInterface().queryGenerator.attributesToSQL({ id: sequelize.normalizeAttribute({ type: ULID }) });
    t.ok(ulidSql.id === 'ULID', `the ULID type in createTable or sync() is ${ulidSql.id}`, ulidSql);

    // Introspection: describeTable() says USER-DEFINED for the extension's types.
    const described = await sequelize.getQueryInterface().describeTable('ulid_parent');
    t.ok(described.id.type === 'USER-DEFINED' && described.id.defaultValue === 'generate_ulid()' && described.id.primaryKey,
      `describeTable(): ulid_parent.id is ${described.id.type} DEFAULT ${described.id.defaultValue}`, described.id);
    const { statements } = await statementsOf(() => models.uuid.Parent.create({ name: 'x' }));
    console.log(`# create() sends: ${statements.map((st) => st.text).join(' | ')}`);
  } finally {
    await sequelize.close();
  }
});
