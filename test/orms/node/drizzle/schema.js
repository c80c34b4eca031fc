// The Drizzle schema of the drizzle.js program (drizzle-kit generate reads it:
// drizzle/migrations/ is what it wrote, after the hand-written 0000_extension).
'use strict';

// README drizzle-schema: begin
const { pgTable, customType, text, bigint, uuid } = require('drizzle-orm/pg-core');
const { sql } = require('drizzle-orm');

// The extension's types: a ulid and a tsid are their text in JS (26 and 13 characters).
// A tsid on a plain bigint is a BigInt: mode 'number' (what drizzle-kit pull writes) rounds it.
const ulid = customType({ dataType: () => 'ulid' });
const tsid = customType({ dataType: () => 'tsid' });

const keyTypes = {
  ulid: (name) => ulid(name),
  tsid: (name) => tsid(name),
  bigint: (name) => bigint(name, { mode: 'bigint' }),
  uuid: (name) => uuid(name),
};
const generators = { ulid: 'generate_ulid()', tsid: 'generate_tsid()', bigint: 'generate_tsid()', uuid: 'generate_uuidv7()' };

const tables = {};
for (const [kind, column] of Object.entries(keyTypes)) {
  const parent = pgTable(`${kind}_parent`, {
    id: column('id').primaryKey().default(sql.raw(generators[kind])),
    name: text('name').notNull(),
  });
  const child = pgTable(`${kind}_child`, {
    id: column('id').primaryKey().default(sql.raw(generators[kind])),
    parentId: column('parent_id').references(() => parent.id),
    note: text('note'),
  });
  tables[`${kind}Parent`] = parent;
  tables[`${kind}Child`] = child;
}
// README drizzle-schema: end

module.exports = tables;
