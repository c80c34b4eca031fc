# Logical replication of ulid, uuid and tsid keyed tables, once through a
# subscription in text mode and once with binary = true (ulid's send/recv):
# initial sync and streamed changes arrive identical, and the subscriber's own
# column defaults keep generating keys.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UlidTsid;

my $pub = new_node('publisher',
	init => { allows_streaming => 'logical' },
	conf => "max_connections = 20\nshared_buffers = 16MB");

my $sub = PostgreSQL::Test::Cluster->new('subscriber');
$sub->init;
$sub->append_conf('postgresql.conf', "max_logical_replication_workers = 6\nmax_worker_processes = 12");
$sub->start;

# The subscriber's databases create the extension with the schema.
my $schema = q{
CREATE EXTENSION IF NOT EXISTS ulid_tsid;
CREATE TABLE items (
    id ulid PRIMARY KEY DEFAULT generate_ulid(),
    ref ulid NOT NULL DEFAULT generate_ulid(),
    u uuid NOT NULL DEFAULT generate_uuidv7() UNIQUE,
    ts tsid NOT NULL DEFAULT generate_tsid() UNIQUE,
    refs ulid[],
    maybe ulid,
    n int NOT NULL
);
CREATE INDEX items_ref_hash ON items USING hash (ref);
CREATE INDEX items_ref_brin ON items USING brin (ref);
CREATE TABLE parted (
    id ulid NOT NULL DEFAULT generate_ulid(),
    n int NOT NULL,
    PRIMARY KEY (id)
) PARTITION BY HASH (id);
CREATE TABLE parted_0 PARTITION OF parted FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE parted_1 PARTITION OF parted FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE parted_2 PARTITION OF parted FOR VALUES WITH (MODULUS 3, REMAINDER 2);
CREATE TABLE uuids (id uuid PRIMARY KEY DEFAULT generate_uuidv7(), n int NOT NULL);
CREATE TABLE tsids (id tsid PRIMARY KEY DEFAULT generate_tsid(), n int NOT NULL);
};
my @tables = ('items', 'parted', 'uuids', 'tsids');

$pub->safe_psql('postgres', $schema);
$pub->safe_psql('postgres', q{
INSERT INTO items (n, refs, maybe)
    SELECT g, ARRAY[generate_ulid()], CASE WHEN g % 2 = 0 THEN generate_ulid() END
    FROM generate_series(1, 5000) g;
INSERT INTO items (id, n) VALUES ('00000000000000000000000000', -1), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', -2);
INSERT INTO parted (n) SELECT g FROM generate_series(1, 5000) g;
INSERT INTO uuids (n) SELECT g FROM generate_series(1, 2000) g;
INSERT INTO tsids (n) SELECT g FROM generate_series(1, 2000) g;
});
$pub->safe_psql('postgres', 'CREATE PUBLICATION pub_all FOR ALL TABLES');

my $connstr = $pub->connstr . ' dbname=postgres';
my $batch   = 0;
# Binary subscriptions arrived in PostgreSQL 14.
my @modes = ('text', 'binary');
if ($pub->safe_psql('postgres', 'SHOW server_version_num') < 140000)
{
	@modes = ('text');
	note '>> PostgreSQL 13 has no binary subscriptions: text mode only';
}
for my $mode (@modes)
{
	my $db = "sub_$mode";
	my $binary = $mode eq 'binary' ? 'true' : 'false';
	$sub->safe_psql('postgres', "CREATE DATABASE $db");
	# Different OIDs for the extension's objects than on the publisher, as
	# in any real pair of clusters (binary mode must not depend on them).
	$sub->safe_psql($db,
		"CREATE TYPE oid_pad_$mode AS (a int); CREATE TABLE oid_pad_t_$mode (a int, b text)");
	$sub->safe_psql($db, $schema);
	$sub->safe_psql($db,
		"CREATE SUBSCRIPTION s_$mode CONNECTION '$connstr' PUBLICATION pub_all"
		  . ($mode eq 'binary' ? " WITH (binary = $binary)" : ''));
	# (wait_for_subscription_sync is not in every major's test modules)
	poll_until($sub, $db, "SELECT count(*) = 0 FROM pg_subscription_rel WHERE srsubstate NOT IN ('r', 's')")
	  or die "s_$mode did not finish its initial sync";
	$pub->wait_for_catchup("s_$mode");
	isnt($sub->safe_psql($db, "SELECT 'ulid'::regtype::oid"),
		$pub->safe_psql('postgres', "SELECT 'ulid'::regtype::oid"),
		"$mode: ulid has a different OID on the subscriber");
	is($sub->safe_psql($db, "SELECT subbinary FROM pg_subscription WHERE subname = 's_$mode'"),
		$mode eq 'binary' ? 't' : 'f', "$mode: subscription mode as asked")
	  if @modes > 1;

	for my $t (@tables)
	{
		is(table_fingerprint($sub, $db, $t), table_fingerprint($pub, 'postgres', $t),
			"$mode: initial sync of $t identical");
	}

	# Streamed changes: inserts, updates of keys and non-keys, deletes.
	$batch++;
	my $lo = 100000 * $batch;
	$pub->safe_psql('postgres', qq{
INSERT INTO items (n, refs) SELECT $lo + g, ARRAY[generate_ulid(), NULL] FROM generate_series(1, 2000) g;
INSERT INTO parted (n) SELECT $lo + g FROM generate_series(1, 2000) g;
INSERT INTO uuids (n) SELECT $lo + g FROM generate_series(1, 500) g;
UPDATE items SET maybe = generate_ulid() WHERE n % 7 = $batch;
UPDATE parted SET id = generate_ulid() WHERE n % 11 = $batch;
DELETE FROM items WHERE n % 13 = $batch;
INSERT INTO tsids (n) SELECT $lo + g FROM generate_series(1, 500) g;
});
	$pub->wait_for_catchup("s_$mode");
	for my $t (@tables)
	{
		is(table_fingerprint($sub, $db, $t), table_fingerprint($pub, 'postgres', $t),
			"$mode: streamed changes of $t identical");
	}
	is(partition_counts($sub, $db), partition_counts($pub, 'postgres'),
		"$mode: rows in the same hash partitions on both sides");

	# Local inserts on the subscriber use its own defaults.
	is( $sub->safe_psql(
			$db, qq{
INSERT INTO items (n) SELECT -1000 - g FROM generate_series(1, 100) g;
INSERT INTO parted (n) SELECT -1000 - g FROM generate_series(1, 100) g;
INSERT INTO uuids (n) SELECT -1000 - g FROM generate_series(1, 100) g;
SELECT (SELECT count(DISTINCT id) FROM items WHERE n < -1000)
     + (SELECT count(DISTINCT id) FROM parted WHERE n < -1000)
     + (SELECT count(DISTINCT id) FROM uuids WHERE n < -1000)}),
		'300',
		"$mode: subscriber-side defaults generate keys");
	is( $sub->safe_psql(
			$db,
			q{SELECT bool_and(id > (SELECT max(id) FROM items WHERE n > 0)) FROM items WHERE n < -1000}),
		't',
		"$mode: subscriber-generated keys sort after the replicated ones");
	is( $sub->safe_psql(
			$db, q{
INSERT INTO tsids (n) SELECT -1000 - g FROM generate_series(1, 100) g;
SELECT count(DISTINCT id) FROM tsids WHERE n < -1000}),
		'100',
		"$mode: subscriber-side tsid default generates keys");

	# Replication keeps flowing after the local inserts, and the publisher's
	# rows are all there (the local rows are extra).
	$pub->safe_psql('postgres',
		"INSERT INTO items (n) SELECT $lo + 50000 + g FROM generate_series(1, 100) g");
	$pub->wait_for_catchup("s_$mode");
	for my $t (@tables)
	{
		is(table_fingerprint($sub, $db, $t, 'n > -1000'), table_fingerprint($pub, 'postgres', $t),
			"$mode: $t identical after subscriber-local inserts");
	}
}

# Both subscriptions saw the same stream: the databases agree with each other.
if (@modes > 1)
{
	$pub->wait_for_catchup('s_text');
	$pub->wait_for_catchup('s_binary');
	for my $t (@tables)
	{
		is( table_fingerprint($sub, 'sub_text', $t, 'n > -1000'),
			table_fingerprint($sub, 'sub_binary', $t, 'n > -1000'),
			"text and binary subscribers agree on $t");
	}
}

$sub->safe_psql("sub_$_", "DROP SUBSCRIPTION s_$_") for @modes;
$sub->stop;
$pub->stop;
done_testing();
