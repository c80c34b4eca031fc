// Prisma's CLI configuration (Prisma 7 reads the database URL here, not from the
// schema): the tests pass it in ULID_TSID_PRISMA_URL.
module.exports = { schema: 'schema.prisma', datasource: { url: process.env.ULID_TSID_PRISMA_URL } };
