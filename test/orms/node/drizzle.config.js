// drizzle-kit's configuration: the schema of drizzle/schema.js, migrations in
// drizzle/migrations, the database of the libpq environment (PGHOST may be a socket directory).
'use strict';

module.exports = {
  dialect: 'postgresql',
  schema: './drizzle/schema.js',
  out: process.env.DRIZZLE_OUT || './drizzle/migrations', // the tests generate and pull into a scratch copy
  dbCredentials: {
    host: process.env.PGHOST, port: Number(process.env.PGPORT || 5432),
    user: process.env.PGUSER, database: process.env.PGDATABASE, ssl: false,
  },
};
