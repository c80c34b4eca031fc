# pg_upgrade from PostgreSQL 13 to PostgreSQL 18 (or between the majors that
# ULID_TSID_UPGRADE names, "FROM TO": the crossversion suite runs "13 18" and
# "18 19") of a database keyed by the
# extension's types, both servers with ulid_tsid preloaded. Tables keyed by
# ulid, tsid, uuid (v7) and a bigint TSID, each with a btree primary key, a
# hash and a BRIN index on the key; a table partitioned by range on ulid
# bounds, one partitioned by hash on a tsid key; a ulid[] column and a
# composite of ulid and tsid. After the upgrade every row must read the same,
# every btree index must pass amcheck against the heap, the hash and BRIN
# indexes must answer like a seq scan, hash partitions must still hold the rows
# their hash sends them to, the extension must be current (UPDATE is a no-op)
# and the defaults must go on generating keys after every old one.
#
# Needs ULID_TSID_PG<FROM>_BINDIR and ULID_TSID_PG<TO>_BINDIR (scripts/suites/crossversion.sh
# sets them); a missing one fails the test.
use strict;
use warnings;
use Cwd qw(getcwd realpath);
use File::Basename qw(dirname);
use File::Spec;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UlidTsid qw(installations);

# --- The two installations ----------------------------------------------------
my ($from, $to) = split ' ', ($ENV{ULID_TSID_UPGRADE} // '13 18');
my ($bindir_ref, $install_ref) = installations($from, $to);
my %bindir  = %$bindir_ref;
my %install = %$install_ref;

my $old = PostgreSQL::Test::Cluster->new("old$from", install_path => $install{$from});
my $new = PostgreSQL::Test::Cluster->new("new$to", install_path => $install{$to});
is($old->pg_version->major, $from, "old node runs PostgreSQL $from");
is($new->pg_version->major, $to, "new node runs PostgreSQL $to");

my $conf = qq{
shared_preload_libraries = 'ulid_tsid'
log_statement = none
autovacuum = off
};
# pg_upgrade needs both clusters alike: no data checksums (before 18 none by
# default; 18's initdb turns them on unless told not to).
$old->init($from >= 18 ? (no_data_checksums => 1) : ());
$old->append_conf('postgresql.conf', $conf);
$old->start;

# --- The database on the old major ----------------------------------------------------------
# Range partitions around the current year, bounded by ulid_lower_bound().
my $year = (gmtime)[5] + 1900;
my %bound = map { $_ => sprintf("ulid_lower_bound('%d-01-01 00:00:00+00')", $year + $_) } (-1, 0, 2);

$old->safe_psql('postgres', 'CREATE DATABASE app');
$old->safe_psql(
	'app', qq{
CREATE EXTENSION ulid_tsid;
CREATE EXTENSION amcheck;
CREATE TYPE key_pair AS (u ulid, t tsid);

CREATE TABLE k_ulid (
    id ulid PRIMARY KEY DEFAULT generate_ulid(),
    n int NOT NULL,
    refs ulid[] NOT NULL DEFAULT ARRAY[generate_ulid(), generate_ulid()],
    pair key_pair,
    note text
);
CREATE TABLE k_tsid (id tsid PRIMARY KEY DEFAULT generate_tsid(), n int NOT NULL, note text);
CREATE TABLE k_uuid (id uuid PRIMARY KEY DEFAULT generate_uuidv7(), n int NOT NULL, note text);
CREATE TABLE k_bigint (id bigint PRIMARY KEY DEFAULT generate_tsid(), n int NOT NULL, note text);

CREATE TABLE k_range (
    id ulid NOT NULL DEFAULT generate_ulid(),
    n int NOT NULL,
    note text,
    PRIMARY KEY (id)
) PARTITION BY RANGE (id);
CREATE TABLE k_range_old PARTITION OF k_range FOR VALUES FROM (MINVALUE) TO ($bound{-1});
CREATE TABLE k_range_prev PARTITION OF k_range FOR VALUES FROM ($bound{-1}) TO ($bound{0});
CREATE TABLE k_range_cur PARTITION OF k_range FOR VALUES FROM ($bound{0}) TO ($bound{2});
CREATE TABLE k_range_future PARTITION OF k_range FOR VALUES FROM ($bound{2}) TO (MAXVALUE);

CREATE TABLE k_hash (
    id tsid NOT NULL DEFAULT generate_tsid(),
    n int NOT NULL,
    note text,
    PRIMARY KEY (id)
) PARTITION BY HASH (id);
CREATE TABLE k_hash_0 PARTITION OF k_hash FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE k_hash_1 PARTITION OF k_hash FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE k_hash_2 PARTITION OF k_hash FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE k_hash_3 PARTITION OF k_hash FOR VALUES WITH (MODULUS 4, REMAINDER 3);
});

# name => key type, rows
my %tables = (
	k_ulid   => [ 'ulid',   10000 ],
	k_tsid   => [ 'tsid',   4000 ],
	k_uuid   => [ 'uuid',   4000 ],
	k_bigint => [ 'bigint', 4000 ],
	k_range  => [ 'ulid',   6000 ],
	k_hash   => [ 'tsid',   4000 ],);
my @tables = sort keys %tables;
for my $t (@tables)
{
	$old->safe_psql('app',
		"CREATE INDEX ${t}_hash ON $t USING hash (id); "
		  . "CREATE INDEX ${t}_brin ON $t USING brin (id) WITH (pages_per_range = 2)");
}

$old->safe_psql(
	'app', q{
INSERT INTO k_ulid (n, pair, note)
    SELECT g, CASE WHEN g % 5 = 0 THEN NULL ELSE ROW(generate_ulid(), generate_tsid())::key_pair END,
           'ulid row ' || g
    FROM generate_series(1, 10000) g;
INSERT INTO k_tsid (n, note) SELECT g, 'tsid row ' || g FROM generate_series(1, 4000) g;
INSERT INTO k_uuid (n, note) SELECT g, 'uuid row ' || g FROM generate_series(1, 4000) g;
INSERT INTO k_bigint (n, note) SELECT g, 'bigint row ' || g FROM generate_series(1, 4000) g;
INSERT INTO k_hash (n, note) SELECT g, 'hash row ' || g FROM generate_series(1, 4000) g;
-- k_range: 1500 keys from two and one years ago (their own millisecond each,
-- random bits from the generator), 3000 keys of now.
INSERT INTO k_range (id, n, note)
    SELECT (substring(ulid_lower_bound(date_trunc('year', now()) - interval '2 years' + g * interval '1 minute')::bytea
                      FROM 1 FOR 6)
            || substring(generate_ulid()::bytea FROM 7))::ulid,
           g, 'range row ' || g
    FROM generate_series(1, 1500) g;
INSERT INTO k_range (id, n, note)
    SELECT (substring(ulid_lower_bound(date_trunc('year', now()) - interval '1 year' + g * interval '1 minute')::bytea
                      FROM 1 FOR 6)
            || substring(generate_ulid()::bytea FROM 7))::ulid,
           1500 + g, 'range row ' || (1500 + g)
    FROM generate_series(1, 1500) g;
INSERT INTO k_range (n, note) SELECT g, 'range row ' || g FROM generate_series(3001, 6000) g;
ANALYZE;
});

sub fingerprint
{
	my ($node, $table) = @_;
	return $node->safe_psql('app',
		"SET TimeZone = 'UTC'; SELECT count(*) || ' ' || md5(string_agg(t::text, ',' ORDER BY t.id)) FROM $table t");
}

sub max_key
{
	my ($node, $table) = @_;
	return $node->safe_psql('app', "SELECT id::text FROM $table ORDER BY id DESC LIMIT 1");
}

my $partitions_sql = q{
SELECT string_agg(r || ':' || c, ' ' ORDER BY r)
FROM (SELECT tableoid::regclass::text r, count(*) c FROM k_range GROUP BY 1
      UNION ALL SELECT tableoid::regclass::text, count(*) FROM k_hash GROUP BY 1) s};
# Every row of a hash partition is one its partition's hash sends there.
my $hash_misplaced_sql = 'SELECT ' . join(' + ',
	map { "(SELECT count(*) FROM k_hash_$_ WHERE NOT satisfies_hash_partition('k_hash'::regclass, 4, $_, id))" }
	  (0 .. 3));
my $ext_sql = q{SELECT extversion FROM pg_extension WHERE extname = 'ulid_tsid'};
my $members_sql = q{
SELECT count(*) FROM pg_depend
WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
  AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid_tsid')};

my (%before, %max);
my $total = 0;
for my $t (@tables)
{
	$before{$t} = fingerprint($old, $t);
	$max{$t} = max_key($old, $t);
	my ($rows) = split / /, $before{$t};
	is($rows, $tables{$t}[1], "$from: $t holds $tables{$t}[1] rows");
	$total += $rows;
}
my $parts_before = $old->safe_psql('app', $partitions_sql);
like(
	$parts_before,
	qr/^k_hash_0:\d+ k_hash_1:\d+ k_hash_2:\d+ k_hash_3:\d+ k_range_cur:3000 k_range_old:1500 k_range_prev:1500$/,
	"$from: rows spread over every partition");
is($old->safe_psql('app', $hash_misplaced_sql), '0', "$from: every k_hash row in its hash partition");
my $ext_before = $old->safe_psql('app', $ext_sql);
my $members_before = $old->safe_psql('app', $members_sql);
my $indexes_before = $old->safe_psql('app',
	q{SELECT string_agg(indexrelid::regclass::text || ' ' || pg_get_indexdef(indexrelid), E'\n' ORDER BY indexrelid::regclass::text)
	  FROM pg_index WHERE indrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)});
note ">> old: " . $old->safe_psql('app', 'SELECT version()');
note ">> old: ulid_tsid $ext_before ($members_before member objects), amcheck "
  . $old->safe_psql('app', q{SELECT extversion FROM pg_extension WHERE extname = 'amcheck'});
note ">> old: $total rows in " . scalar(@tables) . " tables; partitions: $parts_before";
note ">> old: max key of $_: $max{$_}" for @tables;

# --- pg_upgrade --------------------------------------------------------------------
$old->stop;
$new->init(no_data_checksums => 1);
$new->append_conf('postgresql.conf', $conf);

# pg_upgrade writes into its working directory: a fresh one of our own.
my $workdir = PostgreSQL::Test::Utils::tempdir;
my @upgrade = (
	"$bindir{$to}/pg_upgrade", '--no-sync', '--copy',
	'-b' => $bindir{$from},
	'-B' => $bindir{$to},
	'-d' => File::Spec->rel2abs($old->data_dir),    # 18's Cluster gives relative paths
	'-D' => File::Spec->rel2abs($new->data_dir),
	'-p' => $old->port,
	'-P' => $new->port,
	'-s' => $new->host);
note '>> pg_upgrade command: ' . join(' ', @upgrade);
my $cwd = getcwd();
chdir $workdir or die "chdir $workdir: $!";
my ($up_out, $up_err) = ('', '');
my $up_ok = IPC::Run::run(\@upgrade, '>', \$up_out, '2>', \$up_err);
chdir $cwd or die "chdir $cwd: $!";
print {*STDERR} "pg_upgrade stdout:\n$up_out\npg_upgrade stderr:\n$up_err\n";    # into the regress log
ok($up_ok, "pg_upgrade $from -> $to succeeds");
unless ($up_ok)
{
	diag("pg_upgrade output:\n$up_out\n$up_err");
	# pg_upgrade keeps its logs in the new data directory when it fails.
	for my $log (glob($new->data_dir . '/pg_upgrade_output.d/*/log/*.log'),
		glob($new->data_dir . '/pg_upgrade_output.d/*/*.txt'))
	{
		diag("---- $log\n" . PostgreSQL::Test::Utils::slurp_file($log));
	}
	done_testing();
	exit 1;
}
# Every check passes ("ok"); a "notice" (extension updates to run) is
# reported, and must not concern ulid_tsid.
my @checks = grep { /^Checking / } split /\n/, $up_out;
my @not_ok = grep { !/\bok\s*$/ } @checks;
note ">> pg_upgrade: " . scalar(@checks) . " checks, " . (scalar(@checks) - scalar(@not_ok)) . ' ok'
  . join('', map { '; ' . s/\s+/ /gr } @not_ok);
is(join('; ', grep { !/\bnotice\s*$/ } @not_ok), '', 'every pg_upgrade check passed (or gave a notice)');
my $update_sql = -f "$workdir/update_extensions.sql"
  ? PostgreSQL::Test::Utils::slurp_file("$workdir/update_extensions.sql") : '';
my @updates = $update_sql =~ /^(ALTER EXTENSION .*)$/mg;
note ">> pg_upgrade: update_extensions.sql asks for: " . (@updates ? join(' ', @updates) : 'nothing');
unlike($update_sql, qr/ulid_tsid/, 'pg_upgrade does not ask for ulid_tsid to be updated');

$new->start;
note ">> new: " . $new->safe_psql('app', 'SELECT version()');

# --- After the upgrade, on the new major --------------------------------------------------------
is($new->safe_psql('app', 'SHOW shared_preload_libraries'), 'ulid_tsid', "$to: library preloaded");
is($new->safe_psql('app', $ext_sql), $ext_before, "$to: ulid_tsid still $ext_before after pg_upgrade");
# The member objects: the same as a fresh CREATE EXTENSION on 18. (13 makes
# the arrays of an extension's types no members; 14+ does, and pg_upgrade's
# restore of the types on 18 makes ulid[] and tsid[] members too.)
my $members_list_sql = q{
SELECT string_agg(d, E'\n' ORDER BY d) FROM (
    SELECT pg_describe_object(classid, objid, objsubid) d FROM pg_depend
    WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
      AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid_tsid')) s};
$new->safe_psql('postgres', 'CREATE DATABASE fresh');
$new->safe_psql('fresh', 'CREATE EXTENSION ulid_tsid');
my $members_after = $new->safe_psql('app', $members_sql);
is($new->safe_psql('app', $members_list_sql), $new->safe_psql('fresh', $members_list_sql),
	"$to: the upgraded extension has the members of a fresh $to install ($members_after)");
note ">> new: ulid_tsid has $members_after member objects after pg_upgrade ($members_before on $from)";
my ($rc, $stdout, $stderr) = $new->psql('app', 'ALTER EXTENSION ulid_tsid UPDATE');
is($rc, 0, "$to: ALTER EXTENSION ulid_tsid UPDATE succeeds");
like($stderr, qr/already installed/, "$to: ... and has nothing to do");
is($new->safe_psql('app', $ext_sql), $ext_before, "$to: ulid_tsid version still $ext_before after UPDATE");
my $default_version = $new->safe_psql('app',
	q{SELECT default_version FROM pg_available_extensions WHERE name = 'ulid_tsid'});
is($new->safe_psql('app', $ext_sql), $default_version,
	"$to: ulid_tsid is the installed default version ($default_version)");
note ">> new: ulid_tsid " . $new->safe_psql('app', $ext_sql) . " (UPDATE said: " . ($stderr =~ s/\s+/ /gr) . ")";

for my $t (@tables)
{
	is(fingerprint($new, $t), $before{$t}, "$to: $t rows identical ($tables{$t}[1] rows, md5 of their text)");
}
is($new->safe_psql('app', $partitions_sql), $parts_before, "$to: every row in the same partition");
is($new->safe_psql('app', $hash_misplaced_sql), '0', "$to: every k_hash row is where ${to}'s hash routing puts it");
is( $new->safe_psql('app',
		q{SELECT string_agg(indexrelid::regclass::text || ' ' || pg_get_indexdef(indexrelid), E'\n' ORDER BY indexrelid::regclass::text)
		  FROM pg_index WHERE indrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)}),
	$indexes_before,
	"$to: index definitions unchanged");
is( $new->safe_psql('app',
		q{SELECT count(*) FROM pg_index WHERE NOT (indisvalid AND indisready AND indislive)}),
	'0', "$to: every index valid");

# amcheck: whatever version pg_upgrade carried over, updated to 18's.
my $amcheck_old = $new->safe_psql('app', q{SELECT extversion FROM pg_extension WHERE extname = 'amcheck'});
$new->safe_psql('app', 'ALTER EXTENSION amcheck UPDATE');
note ">> new: amcheck $amcheck_old carried over, updated to "
  . $new->safe_psql('app', q{SELECT extversion FROM pg_extension WHERE extname = 'amcheck'});
my $btree_sql = q{
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
WHERE am.amname = 'btree' AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace};
my $btrees = $new->safe_psql('app', "SELECT count(*) $btree_sql");
($rc, my $checked, my $err) = $new->psql('app', "SELECT count(bt_index_check(i.indexrelid, true)) $btree_sql");
is($rc . $err, '0', "$to: bt_index_check(heapallindexed) passes on every btree index");
is($checked, $btrees, "$to: checked all $btrees btree indexes");
# 4 tables + 3 range partitions with rows + the empty future one + 4 hash partitions
is($btrees, 12, "$to: 12 btree indexes (one per table and partition)");

# Runs $sql in a transaction (rolled back) where the table's other key indexes
# are dropped, so the planner can only use $keep (or a scan of the heap).
sub with_only
{
	my ($table, $keep, $sql) = @_;
	my @drops;
	push @drops, "ALTER TABLE $table DROP CONSTRAINT ${table}_pkey;" unless $keep eq 'pkey';
	push @drops, "DROP INDEX ${table}_$_;" for grep { $_ ne $keep } qw(hash brin);
	return $new->safe_psql('app',
		"BEGIN; @drops SET LOCAL enable_seqscan = off; SET LOCAL enable_hashjoin = off; "
		  . "SET LOCAL enable_mergejoin = off; $sql; ROLLBACK;");
}

# The access methods of the indexes a plan scans.
sub plan_ams
{
	my ($plan) = @_;
	my %names = map { $_ => 1 } ($plan =~ /(?:Index Scan using|Index Only Scan using|Bitmap Index Scan on) (\S+)/g);
	return '(no index)' unless %names;
	my $list = join(',', map { "'$_'" } sort keys %names);
	return $new->safe_psql('app',
		"SELECT string_agg(DISTINCT am.amname, ',') FROM pg_class c JOIN pg_am am ON am.oid = c.relam "
		  . "WHERE c.relname IN ($list) AND c.relnamespace = 'public'::regnamespace");
}

# A key of each type that no generator makes.
my %absent = (
	ulid   => '00000000000000000000000000',
	tsid   => '0000000000000',
	uuid   => '00000000-0000-0000-0000-000000000000',
	bigint => '0');
my $seqscan = 'SET enable_indexscan = off; SET enable_bitmapscan = off; SET enable_indexonlyscan = off;';
for my $t (@tables)
{
	my $type = $tables{$t}[0];
	# Hash: a sample of keys (every 97th row by n) joined to the table by a
	# nested loop whose inner side can only be the hash index; the same rows
	# read by a seq scan are the expectation.
	my $lookup = "SELECT count(*) || ' ' || md5(string_agg(t::text, ',' ORDER BY t.id)) "
	  . "FROM (SELECT id FROM $t s WHERE s.n % 97 = 0 OFFSET 0) k JOIN $t t ON t.id = k.id";
	my $hash_plan = with_only($t, 'hash', "EXPLAIN (COSTS OFF) $lookup");
	is(plan_ams($hash_plan), 'hash', "$to: $t: the lookup uses the hash index");
	my $expect = $new->safe_psql('app',
		"$seqscan SELECT count(*) || ' ' || md5(string_agg(t::text, ',' ORDER BY t.id)) FROM $t t WHERE t.n % 97 = 0");
	my ($count) = split / /, $expect;
	cmp_ok($count, '>=', 40, "$to: $t: $count sample keys");
	is(with_only($t, 'hash', $lookup), $expect, "$to: $t: hash index finds the same rows as a seq scan");
	my $min = $new->safe_psql('app', "SELECT id FROM $t ORDER BY id LIMIT 1");
	is( with_only($t, 'hash',
			"SELECT count(*) FROM $t WHERE id = '$max{$t}'::$type OR id = '$min'::$type OR id = '$absent{$type}'::$type"),
		'2', "$to: $t: hash index finds the smallest and the largest old key, not an absent one");

	# BRIN: the keys between the 20th and 80th percentile.
	my $n = $tables{$t}[1];
	my $lo = $new->safe_psql('app', "SELECT id FROM $t ORDER BY id OFFSET " . int($n / 5) . " LIMIT 1");
	my $hi = $new->safe_psql('app', "SELECT id FROM $t ORDER BY id OFFSET " . int($n * 4 / 5) . " LIMIT 1");
	my $range = "SELECT count(*) || ' ' || md5(string_agg(t::text, ',' ORDER BY t.id)) FROM $t t "
	  . "WHERE t.id >= '$lo'::$type AND t.id < '$hi'::$type";
	is(plan_ams(with_only($t, 'brin', "EXPLAIN (COSTS OFF) $range")), 'brin', "$to: $t: the range query uses the BRIN index");
	my $brin_result = with_only($t, 'brin', $range);
	is($brin_result, $new->safe_psql('app', "$seqscan $range"), "$to: $t: BRIN range scan returns the seq scan's rows");
	my $in_range = int($n * 4 / 5) - int($n / 5);
	like($brin_result, qr/^$in_range /, "$to: $t: ... the $in_range rows in the range");
}

# --- New rows, generated on the new major -----------------------------------------------------------
for my $t (@tables)
{
	my $type = $tables{$t}[0];
	is( $new->safe_psql('app',
			"INSERT INTO $t (n, note) SELECT -g, 'new on ' || current_setting('server_version_num') FROM generate_series(1, 200) g; "
			  . "SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || bool_and(id > '$max{$t}'::$type) "
			  . "FROM $t WHERE n < 0"),
		'200 200 true',
		"$to: $t: 200 new $type keys from the default, each after every old key");
}
is( $new->safe_psql('app',
		q{SELECT bool_and(uuid_extract_version(id) = 7) FROM k_uuid WHERE n < 0}),
	't', "$to: new uuid keys are version 7");
is( $new->safe_psql('app',
		q{SELECT count(*) FROM k_bigint WHERE n < 0 AND id::tsid::bigint = id AND tsid_timestamp(id::tsid) > now() - interval '1 hour'}),
	'200', "$to: new bigint keys are TSIDs of now");
is( $new->safe_psql('app',
		q{SELECT string_agg(tableoid::regclass || ':' || c, ' ') FROM (SELECT tableoid, count(*) c FROM k_range WHERE n < 0 GROUP BY 1) s}),
	'k_range_cur:200', "$to: new k_range rows routed to the current range partition");
is( $new->safe_psql('app', qq{
INSERT INTO k_range (id, n, note) VALUES
    (ulid_lower_bound(date_trunc('year', now()) - interval '1 year' + interval '1 day'), -1000, 'last year'),
    (ulid_lower_bound(date_trunc('year', now()) + interval '3 years'), -1001, 'future');
SELECT string_agg(tableoid::regclass || ':' || n, ' ' ORDER BY n) FROM k_range WHERE n <= -1000}),
	'k_range_future:-1001 k_range_prev:-1000', "$to: explicit keys routed to their range partitions");
is( $new->safe_psql('app',
		q{SELECT count(DISTINCT tableoid) FROM k_hash WHERE n < 0}),
	'4', "$to: new k_hash rows spread over the 4 hash partitions");
is($new->safe_psql('app', $hash_misplaced_sql), '0', "$to: new k_hash rows each in the partition of its hash");
is( $new->safe_psql('app',
		q{SELECT count(*) FROM k_ulid WHERE n < 0 AND cardinality(refs) = 2 AND refs[1] < refs[2]}),
	'200', "$to: k_ulid ulid[] default works");
($rc, $checked, $err) = $new->psql('app', "SELECT count(bt_index_check(i.indexrelid, true)) $btree_sql");
is($rc . $err, '0', "$to: bt_index_check(heapallindexed) still passes after the new rows");
note ">> new: "
  . $new->safe_psql('app', 'SELECT ' .
	join(" || ', ' || ", map { "'$_ ' || (SELECT count(*) FROM $_)" } @tables))
  . " rows after the inserts";

$new->stop;
done_testing();
