# amcheck over every btree index on ulid and tsid in a freshly populated
# database: indexes built by sorting (CREATE INDEX, with uuid's sortsupport and
# abbreviated keys) and by one-at-a-time inserts, in time order and in random
# order, unique and deduplicated, DESC, multi-column, partial and INCLUDE,
# after deletes and VACUUM, and after REINDEX CONCURRENTLY.
# bt_index_check and bt_index_parent_check (heapallindexed, rootdescend) must
# pass on all of them, and so must pg_amcheck on the whole database.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UlidTsid;

my $node = new_node('amcheck', extensions => ['amcheck'], conf => "log_statement = none\nautovacuum = off");

$node->safe_psql('postgres', q{
-- Time-ordered, indexes maintained by inserts.
CREATE TABLE seq_ins (id ulid PRIMARY KEY DEFAULT generate_ulid(), grp int, payload text);
CREATE INDEX seq_ins_desc ON seq_ins (id DESC);
CREATE INDEX seq_ins_multi ON seq_ins (grp, id);
CREATE INDEX seq_ins_partial ON seq_ins (id) WHERE grp % 2 = 0;
CREATE INDEX seq_ins_include ON seq_ins (id) INCLUDE (payload);
INSERT INTO seq_ins (grp, payload)
    SELECT g % 97, repeat('x', g % 50) FROM generate_series(1, 30000) g;

-- Random order (uuid bytes as ulids): splits all over the tree.
CREATE TABLE rnd_ins (id ulid PRIMARY KEY, grp int);
CREATE INDEX rnd_ins_grp ON rnd_ins (grp, id DESC);
INSERT INTO rnd_ins SELECT gen_random_uuid()::ulid, g % 13 FROM generate_series(1, 30000) g;
INSERT INTO rnd_ins VALUES ('00000000000000000000000000', -1), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', -2),
    ('00000000000000000000000001', -3), ('7ZZZZZZZZZZZZZZZZZZZZZZZZY', -4);

-- Many duplicates: deduplicated posting lists in a non-unique index.
CREATE TABLE dups (k ulid, n int);
CREATE INDEX dups_k ON dups (k);
INSERT INTO dups SELECT (SELECT array_agg(generate_ulid()) FROM generate_series(1, 50))[1 + g % 50], g
    FROM generate_series(1, 30000) g;
INSERT INTO dups SELECT NULL, g FROM generate_series(1, 500) g;

-- Indexes built by sorting, after the data is in.
CREATE TABLE sorted (id ulid NOT NULL, r ulid NOT NULL, m ulid);
INSERT INTO sorted SELECT generate_ulid(), gen_random_uuid()::ulid,
    CASE WHEN g % 5 = 0 THEN NULL ELSE generate_ulid_monotonic() END
    FROM generate_series(1, 40000) g;
CREATE UNIQUE INDEX sorted_id ON sorted (id);
CREATE UNIQUE INDEX sorted_r ON sorted (r);
CREATE INDEX sorted_m ON sorted (m DESC NULLS LAST);
CREATE INDEX sorted_r_id ON sorted (r, id) WITH (fillfactor = 50, deduplicate_items = off);
});

# Churn: deletes and VACUUM (page deletion, recycled pages), inserts after,
# and a REINDEX CONCURRENTLY.
$node->safe_psql('postgres', q{
DELETE FROM seq_ins WHERE grp < 80;
DELETE FROM rnd_ins WHERE grp IN (1, 2, 3);
DELETE FROM dups WHERE n % 3 = 0;
});
$node->safe_psql('postgres', 'VACUUM seq_ins, rnd_ins, dups');
$node->safe_psql('postgres', q{
INSERT INTO seq_ins (grp, payload) SELECT g % 97, 'after' FROM generate_series(1, 5000) g;
INSERT INTO rnd_ins SELECT gen_random_uuid()::ulid, 1 FROM generate_series(1, 5000) g;
});
$node->safe_psql('postgres', 'REINDEX TABLE CONCURRENTLY sorted');

$node->safe_psql('postgres', q{
CREATE TABLE tsids (id tsid PRIMARY KEY DEFAULT generate_tsid(), u ulid NOT NULL DEFAULT generate_ulid(), grp int);
CREATE INDEX tsids_desc ON tsids (id DESC);
CREATE INDEX tsids_multi ON tsids (u, id);
INSERT INTO tsids (grp) SELECT g % 7 FROM generate_series(1, 30000) g;
CREATE TABLE tsid_rnd (id tsid NOT NULL, grp int);
INSERT INTO tsid_rnd SELECT (random() * 4611686018427387903)::int8::tsid, g % 7 FROM generate_series(1, 30000) g;
INSERT INTO tsid_rnd VALUES ('0000000000000'::tsid, -1), ((-1)::int8::tsid, -2), ((-9223372036854775807 - 1)::int8::tsid, -3),
    (9223372036854775807::int8::tsid, -4);
CREATE INDEX tsid_rnd_id ON tsid_rnd (id);
CREATE INDEX tsid_rnd_grp ON tsid_rnd (grp, id);
DELETE FROM tsids WHERE grp < 3;
});
$node->safe_psql('postgres', 'VACUUM tsids');

# Every btree index that has a ulid or tsid column.
my $indexes_sql = q{
SELECT c.oid FROM pg_class c
JOIN pg_am am ON am.oid = c.relam AND am.amname = 'btree'
WHERE c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace
  AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid
              AND a.atttypid IN (SELECT oid FROM pg_type WHERE typname IN ('ulid', 'tsid')))};
my $count = $node->safe_psql('postgres', "SELECT count(*) FROM ($indexes_sql) s");
my $expected = 12 + 5;    # the ulid tables' and the tsid tables'
is($count, $expected, "$expected btree indexes on ulid/tsid to check");

for my $check ('bt_index_check(oid, true)', 'bt_index_parent_check(oid, true, true)')
{
	my ($rc, $out, $err) = $node->psql('postgres',
		"SELECT count($check) FROM ($indexes_sql) s");
	is($rc . $err, '0', "$check passes on every ulid/tsid btree index");
	is($out, $count, "$check ran on all $count indexes");
}

# The sorted build and the insert-built index hold the same order: scans of the
# two agree with a sort of the heap.
is( $node->safe_psql(
		'postgres', q{
SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off;
SELECT md5(string_agg(id::text, ',')) FROM (SELECT id FROM sorted ORDER BY id) s}),
	$node->safe_psql(
		'postgres', q{
SET enable_indexscan = off; SET enable_indexonlyscan = off; SET enable_bitmapscan = off;
SELECT md5(string_agg(id::text, ',')) FROM (SELECT id FROM sorted ORDER BY id) s}),
	'index scan order equals sort order');

SKIP:
{
	skip 'pg_amcheck arrived in PostgreSQL 14', 1 if $node->safe_psql('postgres', 'SHOW server_version_num') < 140000;
	$node->command_ok(
		[ 'pg_amcheck', '-h', $node->host, '-p', $node->port, '--heapallindexed', '--parent-check', '--rootdescend', 'postgres' ],
		'pg_amcheck over the whole database (tables and all btree indexes)');
}

$node->stop;
done_testing();
