# pg_dump -Fc / pg_restore of a database keyed by ulid, uuid and tsid: rows,
# partition placement, column defaults and indexes must all come back identical
# and working.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UlidTsid;

my $node = new_node('dump', db => 'src');

$node->safe_psql('src', q{
CREATE TABLE items (
    id ulid PRIMARY KEY DEFAULT generate_ulid(),
    ref ulid NOT NULL DEFAULT generate_ulid(),
    seq ulid NOT NULL DEFAULT generate_ulid_monotonic(),
    u uuid NOT NULL DEFAULT generate_uuidv7() UNIQUE,
    ts tsid NOT NULL DEFAULT generate_tsid() UNIQUE,
    refs ulid[],
    maybe ulid,
    n int NOT NULL,
    note text
);
CREATE INDEX items_ref_hash ON items USING hash (ref);
CREATE INDEX items_seq_brin ON items USING brin (seq) WITH (pages_per_range = 2);
CREATE INDEX items_maybe ON items (maybe DESC NULLS FIRST);

CREATE TABLE children (
    id ulid PRIMARY KEY DEFAULT generate_ulid(),
    parent ulid NOT NULL REFERENCES items (id),
    n int NOT NULL
);
CREATE INDEX children_parent ON children (parent);

CREATE TABLE parted (
    id ulid NOT NULL DEFAULT generate_ulid(),
    n int NOT NULL,
    PRIMARY KEY (id)
) PARTITION BY HASH (id);
CREATE TABLE parted_0 PARTITION OF parted FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE parted_1 PARTITION OF parted FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE parted_2 PARTITION OF parted FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE parted_3 PARTITION OF parted FOR VALUES WITH (MODULUS 4, REMAINDER 3);

CREATE TABLE uuids (id uuid PRIMARY KEY DEFAULT generate_uuidv7(), n int NOT NULL);
CREATE TABLE tsids (id tsid PRIMARY KEY DEFAULT generate_tsid(), n int NOT NULL);
});

# 20k rows with generated keys, plus the extreme values and NULLs.
$node->safe_psql('src', q{
INSERT INTO items (n, note, refs, maybe)
    SELECT g, 'row ' || g, ARRAY[generate_ulid(), generate_ulid()],
           CASE WHEN g % 3 = 0 THEN NULL ELSE generate_ulid() END
    FROM generate_series(1, 20000) g;
INSERT INTO items (id, n, maybe) VALUES
    ('00000000000000000000000000', -1, '00000000000000000000000000'),
    ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', -2, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ');
INSERT INTO children (parent, n) SELECT id, n FROM items WHERE n % 4 = 0;
INSERT INTO parted (n) SELECT g FROM generate_series(1, 20000) g;
INSERT INTO uuids (n) SELECT g FROM generate_series(1, 5000) g;
INSERT INTO tsids (n) SELECT g FROM generate_series(1, 5000) g;
});

my @tables = ('items', 'children', 'parted', 'uuids', 'tsids');

my $defaults_sql =
  "SELECT string_agg(c.relname || '.' || a.attname || '=' || pg_get_expr(d.adbin, d.adrelid), ' ' "
  . "ORDER BY c.relname, a.attname) "
  . "FROM pg_attrdef d JOIN pg_class c ON c.oid = d.adrelid "
  . "JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum";
my $indexes_sql =
  "SELECT string_agg(pg_get_indexdef(indexrelid), E'\\n' ORDER BY indexrelid::regclass::text) FROM pg_index "
  . "WHERE indrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)";

my %before = map { $_ => table_fingerprint($node, 'src', $_) } @tables;
my $parts_before    = partition_counts($node, 'src');
my $defaults_before = $node->safe_psql('src', $defaults_sql);
my $indexes_before  = $node->safe_psql('src', $indexes_sql);
my $max_before      = $node->safe_psql('src', "SELECT max(id) FROM items WHERE n > 0");

my $tmp  = PostgreSQL::Test::Utils::tempdir;
my $dump = "$tmp/src.dump";
$node->command_ok([ 'pg_dump', '-Fc', '-f', $dump, '-d', $node->connstr('src') ],
	'pg_dump -Fc');
$node->safe_psql('postgres', 'CREATE DATABASE dst');
$node->command_ok(
	[ 'pg_restore', '--exit-on-error', '-j', '2', '-d', $node->connstr('dst'), $dump ],
	'pg_restore -j 2 into a new database');

for my $t (@tables)
{
	is(table_fingerprint($node, 'dst', $t), $before{$t}, "$t: restored rows identical");
}

# A plain SQL dump with multi-row INSERTs (values as ulid/tsid literals rather
# than COPY data, and --load-via-partition-root so the hash routing is redone
# on load), replayed by psql into a third database.
my $plain = "$tmp/src.sql";
$node->command_ok(
	[
		'pg_dump', '--rows-per-insert=1000', '--load-via-partition-root', '-f', $plain,
		'-d', $node->connstr('src')
	],
	'pg_dump plain SQL with INSERTs');
$node->safe_psql('postgres', 'CREATE DATABASE dst_plain');
$node->command_ok(
	[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', $plain, '-d', $node->connstr('dst_plain') ],
	'plain dump replayed by psql');
for my $t (@tables)
{
	is(table_fingerprint($node, 'dst_plain', $t), $before{$t}, "$t: rows identical after the INSERT-based dump");
}
is(partition_counts($node, 'dst_plain'),
	$parts_before, 'parted: rows routed to the same hash partitions on load');
is(partition_counts($node, 'dst'),
	$parts_before, 'parted: every row restored into the same hash partition');
is($node->safe_psql('dst', $defaults_sql), $defaults_before, 'column defaults restored');
is($node->safe_psql('dst', $indexes_sql), $indexes_before, 'index definitions restored');
is( $node->safe_psql(
		'dst', q{SELECT count(*) FROM pg_index WHERE NOT (indisvalid AND indisready AND indislive)}),
	'0',
	'all restored indexes valid');
is($node->safe_psql('dst', q{SELECT extname || ' ' || extversion FROM pg_extension WHERE extname = 'ulid_tsid'}),
	$node->safe_psql('src', q{SELECT extname || ' ' || extversion FROM pg_extension WHERE extname = 'ulid_tsid'}),
	'extension restored as an extension (not as loose objects)');

# Every btree index of the restored database, checked against the heap.
$node->safe_psql('dst', 'CREATE EXTENSION amcheck');
my $btree_count = $node->safe_psql(
	'dst', q{
SELECT count(*) FROM pg_class c JOIN pg_am am ON am.oid = c.relam
WHERE am.amname = 'btree' AND c.relnamespace = 'public'::regnamespace AND c.relkind = 'i'});
my ($rc, $checked, $err) = $node->psql(
	'dst', q{
SELECT count(bt_index_check(i.indexrelid, true))
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
WHERE am.amname = 'btree' AND c.relnamespace = 'public'::regnamespace AND c.relkind = 'i'});
is($rc . $err, '0', 'bt_index_check(heapallindexed) passes on every restored btree index');
cmp_ok($checked, '>=', 12, "checked $checked btree indexes");
is($checked, $btree_count, 'checked all btree indexes');

# The hash index answers lookups of every restored row.
my $hash_plan = $node->safe_psql(
	'dst', q{
SET enable_seqscan = off; SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM items WHERE ref = '01ARZ3NDEKTSV4RRFFQ69G5FAV'});
like($hash_plan, qr/Index Scan using items_ref_hash/, 'hash index used for ulid equality');
is( $node->safe_psql(
		'dst', q{
SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_hashjoin = off; SET enable_mergejoin = off;
SELECT count(*) FROM items a WHERE (SELECT count(*) FROM items b WHERE b.ref = a.ref) = 1}),
	'20002',
	'hash index finds every restored row');

# The BRIN index answers a range query with the same rows as a seq scan.
my $range = q{seq BETWEEN (SELECT seq FROM items WHERE n = 5000) AND (SELECT seq FROM items WHERE n = 9000)};
my $brin_plan = $node->safe_psql(
	'dst', qq{
SET enable_seqscan = off; SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM items WHERE $range});
like($brin_plan, qr/Bitmap Index Scan on items_seq_brin/, 'brin index used for a ulid range');
is( $node->safe_psql(
		'dst', qq{SET enable_seqscan = off; SET enable_indexscan = off; SELECT count(*) FROM items WHERE $range}),
	$node->safe_psql('dst', qq{SET enable_indexscan = off; SET enable_bitmapscan = off; SELECT count(*) FROM items WHERE $range}),
	'brin range scan returns the seq scan\'s rows');

# Defaults work after the restore, and the fresh keys sort after the old ones.
my $new = $node->safe_psql(
	'dst', q{
INSERT INTO items (n) VALUES (100001), (100002) RETURNING id > (SELECT max(id) FROM items WHERE n BETWEEN 1 AND 20000), ref IS NOT NULL, seq IS NOT NULL, u IS NOT NULL});
is($new, "t|t|t|t\nt|t|t|t", 'items defaults generate fresh, later keys after restore');
cmp_ok($node->safe_psql('dst', q{SELECT min(id) FROM items WHERE n > 100000}),
	'gt', $max_before, 'new key sorts after every restored key (as text too)');
is( $node->safe_psql(
		'dst', q{
INSERT INTO parted (n) SELECT -g FROM generate_series(1, 1000) g;
SELECT count(*), count(DISTINCT id), count(DISTINCT tableoid) FROM parted WHERE n < 0}),
	'1000|1000|4',
	'parted default and hash routing work after restore');
is( $node->safe_psql(
		'dst', q{
INSERT INTO children (parent, n) SELECT id, -n FROM items WHERE n BETWEEN 1 AND 10;
SELECT count(DISTINCT id) FROM children}),
	'5010',
	'children default keys unique after restore');
is($node->safe_psql('dst', q{INSERT INTO uuids (n) VALUES (-1) RETURNING id IS NOT NULL}),
	't', 'uuid default works after restore');
is( $node->safe_psql(
		'dst', q{INSERT INTO tsids (n) VALUES (-1) RETURNING id > (SELECT max(id) FROM tsids WHERE n > 0)}),
	't',
	'tsid default generates a later key after restore');
is($node->safe_psql('dst', q{INSERT INTO items (n) VALUES (100003) RETURNING ts IS NOT NULL}),
	't', 'items.ts default works after restore');

$node->stop;
done_testing();
