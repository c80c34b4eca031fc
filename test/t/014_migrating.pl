# The recipes of docs/migrating.md are the code this test runs: each block
# after a line "<!-- migrate: NAME -->" in docs/migrating.md is run as it stands
# against a database as its starting point leaves it (the TSID article's
# PL/pgSQL generate_tsid() and its sequence, bigserial and identity keys, text
# ULIDs, what pgx_ulid leaves behind, andrielfn's pg-ulid and pg_uuidv7 built
# from ../shared/vendor when it is there, UUIDv4 and core 18's uuidv7()
# defaults). Then every old key must keep its time, its order and its text as
# the original generator's layout defines them (computed here in Perl, or by
# the original's own functions), new keys must follow, and the table sizes of
# the text-ULID conversion are measured and printed.
use strict;
use warnings;
use Cwd qw(realpath);
use File::Basename qw(dirname);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $root = realpath(dirname(__FILE__) . '/../..');
my %recipe;
{
	open my $fh, '<', "$root/docs/migrating.md" or die "docs/migrating.md: $!";
	local $/;
	my $readme = <$fh>;
	$recipe{$1} = $2 while $readme =~ /<!-- migrate: (\S+) -->\n```sql\n(.*?)\n```/sg;
}
my @names = qw(article article_type article_urls bigserial text_ulid text_ulid_online pgx_ulid pg_ulid uuid_defaults);
is(join(' ', sort keys %recipe), join(' ', sort @names), 'docs/migrating.md shows the recipes this test runs');

my $node = PostgreSQL::Test::Cluster->new('migrating');
$node->init;
$node->start;

sub db { my ($name) = @_; $node->safe_psql('postgres', "CREATE DATABASE $name"); return $name }
sub q1 { my ($db, $sql) = @_; return $node->safe_psql($db, $sql) }
sub run_recipe
{
	my ($db, $name) = @_;
	my ($out, $err) = ('', '');
	my $rc = $node->psql($db, $recipe{$name}, stdout => \$out, stderr => \$err, on_error_stop => 1);
	ok($rc == 0, "recipe $name runs") or diag $err;
}

# Crockford base32 of the layouts, independent of the extension.
my @sym = split //, '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
my %val = map { $sym[$_] => $_ } 0 .. 31;
sub b32 { my ($n, $len) = @_; my $s = ''; for (1 .. $len) { $s = $sym[ $n & 31 ] . $s; $n >>= 5 } return $s }
sub unb32 { my $n = 0; $n = ($n << 5) | $val{ uc $_ } for split //, $_[0]; return $n }

# ---- the TSID article's generate_tsid() ------------------------------------
my $article_fn = q{
CREATE SEQUENCE generate_tsid_seq AS integer MINVALUE 0 MAXVALUE 1023 CYCLE;
CREATE FUNCTION public.generate_tsid() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  millis bigint := floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000;  -- since 2020
  random bigint := floor(random() * 4096)::bigint;                                              -- 12 bits
  counter bigint := nextval('generate_tsid_seq') % 1024;                                        -- 10 bits
BEGIN
  RETURN (millis << 22) | (random << 10) | counter;
END $$;};
my $adb = db('article');
q1($adb, $article_fn . q{
CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT generate_tsid(), note text);
CREATE TABLE order_items (id bigint PRIMARY KEY DEFAULT generate_tsid(), order_id bigint NOT NULL REFERENCES orders);
CREATE INDEX ON order_items (order_id);
INSERT INTO orders (note) SELECT 'o' || n FROM generate_series(1, 3000) n;
INSERT INTO order_items (order_id) SELECT id FROM orders;});
# The article's two URLs, keys of 2023 (their 12 characters with the 0 put back).
my @urls = ('E34NNFRTCQ15', 'DXZBE2D7TB04');
q1($adb, 'INSERT INTO orders (id, note) VALUES ' . join(', ', map { '(' . unb32($_) . ", 'url $_')" } @urls));
my %old = map { split /\|/ } split /\n/, q1($adb, q{SELECT id, note FROM orders UNION ALL SELECT id, 'item' FROM order_items});
my $relfile = q1($adb, q{SELECT pg_relation_filenode('orders')});
q1($adb, 'SELECT pg_sleep(0.005)');
run_recipe($adb, 'article');
is(q1($adb, q{SELECT string_agg(pg_get_expr(d.adbin, d.adrelid), ' ' ORDER BY d.adrelid::regclass::text)
  FROM pg_attrdef d WHERE d.adrelid IN ('orders'::regclass, 'order_items'::regclass)}),
	'generate_tsid() generate_tsid()', 'article: both defaults call generate_tsid()');
is(q1($adb, q{SELECT count(*) FROM pg_depend dep JOIN pg_attrdef d ON dep.classid = 'pg_attrdef'::regclass AND dep.objid = d.oid
  WHERE dep.refobjid = (SELECT p.oid FROM pg_proc p JOIN pg_depend e ON e.objid = p.oid AND e.deptype = 'e'
    JOIN pg_extension x ON x.oid = e.refobjid AND x.extname = 'ulid_tsid' WHERE p.proname = 'generate_tsid')}),
	'2', "article: they are the extension's");
is(q1($adb, q{SELECT to_regprocedure('generate_tsid_plpgsql()') IS NULL AND to_regclass('generate_tsid_seq') IS NULL}), 't',
	'article: the old function and its sequence are gone');
run_recipe($adb, 'article_type');
is(q1($adb, q{SELECT pg_relation_filenode('orders')}), $relfile, 'article: bigint -> tsid does not rewrite the table');
is(q1($adb, q{SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'order_items'::regclass AND attname = 'order_id'}),
	'bigint', 'article: the children\'s foreign key stays bigint');
q1($adb, q{INSERT INTO orders (note) SELECT 'new' || n FROM generate_series(1, 100) n;
INSERT INTO order_items (order_id) SELECT id FROM orders WHERE note LIKE 'new%';});
# Every old key: its time and text under the article's layout, and its order.
my @rows = split /\n/, q1($adb, q{SELECT o.id::bigint, o.id::text, (extract(epoch FROM o.id::timestamptz) * 1000)::bigint,
  (SELECT count(*) FROM orders n WHERE n.note LIKE 'new%' AND n.id <= o.id) FROM orders o WHERE o.note NOT LIKE 'new%'
  UNION ALL SELECT i.id, i.id::tsid::text, (extract(epoch FROM tsid_timestamp(i.id::tsid)) * 1000)::bigint, 0 FROM order_items i
  WHERE i.order_id IN (SELECT id FROM orders WHERE note NOT LIKE 'new%')});
my ($bad_time, $bad_text, $bad_order) = (0, 0, 0);
for (@rows)
{
	my ($id, $text, $ms, $newer_below) = split /\|/;
	$bad_time++ unless $ms == ($id >> 22) + 1577836800000;
	$bad_text++ unless $text eq b32($id, 13);
	$bad_order++ if $newer_below;
}
is(scalar(@rows), scalar(keys %old), 'article: every old key is there (' . scalar(@rows) . ')');
is("$bad_time $bad_text $bad_order", '0 0 0', 'article: every old key keeps its layout time, its text, and sorts before every new key');
is(q1($adb, q{SELECT count(*) FROM order_items i JOIN orders o ON o.id = i.order_id}), 3100 + 0, 'article: the bigint children join the tsid parent');
# The article's URLs: 12 characters with the 0 put back, and the error's hint for the bare ones.
my $urls_sql = $recipe{article_urls};
for my $u (@urls)
{
	(my $q = $urls_sql) =~ s/E34NNFRTCQ15/$u/;
	my $got = q1($adb, $q);
	my ($found) = split /\n/, $got;
	is($found, "0$u", "article: the URL key $u finds its row") ;
}
my ($rc, $o, $e) = $node->psql($adb, q{SELECT 'E34NNFRTCQ15'::tsid});
like($e, qr/HINT:  .*this is '0E34NNFRTCQ15', a TSID of 2023-11-02 /, 'article: a bare URL key is refused with the 13 characters in the hint');

# ---- bigserial and identity ------------------------------------------------
for my $kind ('bigserial PRIMARY KEY', 'bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY', 'bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY')
{
	my $db = db('serial_' . ($kind =~ /ALWAYS/ ? 'always' : $kind =~ /IDENTITY/ ? 'identity' : 'bigserial'));
	q1($db, qq{CREATE TABLE accounts (id $kind, name text);
CREATE TABLE payments (id bigserial PRIMARY KEY, account_id bigint REFERENCES accounts);
INSERT INTO accounts (name) SELECT 'a' || n FROM generate_series(1, 1000) n;
INSERT INTO payments (account_id) SELECT id FROM accounts;});
	my $before = q1($db, q{SELECT string_agg(id || ':' || name, ',' ORDER BY id) FROM accounts});
	run_recipe($db, 'bigserial');
	q1($db, q{INSERT INTO accounts (name) SELECT 'new' || n FROM generate_series(1, 100) n;
INSERT INTO payments (account_id) SELECT id FROM accounts WHERE name LIKE 'new%';});
	is(q1($db, q{SELECT string_agg(id || ':' || name, ',' ORDER BY id) FROM accounts WHERE name NOT LIKE 'new%'}), $before,
		"$kind: old keys unchanged");
	is(q1($db, q{SELECT min(id) FILTER (WHERE name LIKE 'new%') > max(id) FILTER (WHERE name NOT LIKE 'new%')
  AND abs(extract(epoch FROM tsid_timestamp((min(id) FILTER (WHERE name LIKE 'new%'))::tsid) - now())) < 600
  AND count(DISTINCT id) = 1100 FROM accounts}), 't',
		"$kind: new keys are TSIDs, after every old key");
	is(q1($db, q{SELECT count(*) FROM payments p JOIN accounts a ON a.id = p.account_id}), '1100', "$kind: the children's keys still join");
	is(q1($db, q{SELECT count(*) FROM pg_class WHERE relkind = 'S' AND relname LIKE 'accounts%'}), '0', "$kind: its sequence is gone");
}

# ---- text ULIDs ------------------------------------------------------------
my %sizes;
for my $case ([ 'text_ulid', 'text' ], [ 'text_ulid_online', 'char(26)' ])
{
	my ($name, $type) = @$case;
	my $db = db($name);
	q1($db, qq{CREATE EXTENSION ulid_tsid;
CREATE TABLE events (id $type PRIMARY KEY, payload int);
INSERT INTO events SELECT CASE WHEN n % 2 = 0 THEN lower(u::text) ELSE u::text END, n
FROM (SELECT generate_ulid() AS u, n FROM generate_series(1, 100000) n) s;
VACUUM ANALYZE events;});
	my %before = map { split /\|/ } split /\n/, q1($db, 'SELECT payload, id FROM events');
	my $measure = q{SELECT avg(pg_column_size(id))::numeric(4,1) || '|' || pg_table_size('events') || '|'
  || pg_relation_size('events_pkey') FROM events};
	my $b = q1($db, $measure);
	run_recipe($db, $name);
	q1($db, 'VACUUM ANALYZE events');
	my $a = q1($db, $measure);
	q1($db, 'VACUUM FULL events');
	my $full = q1($db, $measure);
	$sizes{$name} = [ $type, $b, $a, $full ];
	my @after = split /\n/, q1($db, q{SELECT payload, id::text, (extract(epoch FROM ulid_timestamp(id)) * 1000)::bigint,
  format_type(a.atttypid, a.atttypmod) FROM events, pg_attribute a WHERE a.attrelid = 'events'::regclass AND a.attname = 'id'
  ORDER BY id});
	my ($bad, $prev) = (0, '');
	for (@after)
	{
		my ($n, $text, $ms, $t) = split /\|/;
		$bad++ unless $t eq 'ulid' && $text eq uc $before{$n} && $ms == unb32(substr($text, 0, 10)) && $text gt $prev;
		$prev = $text;
	}
	is(scalar(@after) . " $bad", '100000 0', "$name ($type): every key keeps its text (upper case), its time and its order");
	is(q1($db, q{SELECT count(*) FROM pg_index WHERE indrelid = 'events'::regclass AND indisprimary AND indisvalid}), '1',
		"$name: the primary key is on the ulid column");
}
for my $name ('text_ulid', 'text_ulid_online')
{
	my ($type, $b, $a, $full) = @{ $sizes{$name} };
	my @b = split /\|/, $b;
	my @a = split /\|/, $a;
	my @f = split /\|/, $full;
	my $line = sprintf('%s, 100,000 rows: id %s -> %s bytes; table %.1f -> %.1f MB (%.1f after VACUUM FULL); primary key %.1f -> %.1f MB',
		$type, $b[0], $a[0], $b[1] / 2**20, $a[1] / 2**20, $f[1] / 2**20, $b[2] / 2**20, $a[2] / 2**20);
	note "measured: $name: $line";
	ok($a[0] < $b[0] && $a[2] < $b[2], "$name: the keys and the index are smaller ($line)");
}

# ---- what pgx_ulid leaves behind -------------------------------------------
# Its type is also named ulid and prints 26 Crockford characters; its uuid cast
# keeps the bytes. A domain over text stands for the type (pgx_ulid cannot be
# built here); its published vector, and keys of known time and randomness.
{
	my $db = db('pgx_ulid');
	my @keys = ([ '01GV5PA9EQG7D82Q3Y4PKBZSYV', '0186cb65-25d7-81da-815c-7e25a6bfe7db' ]);
	for my $i (1 .. 500)
	{
		my $ms = 1678460282327 + $i * 86_400_017;
		my @rand = map { int(rand(256)) } 1 .. 10;
		my $hex = sprintf('%012x', $ms) . join('', map { sprintf '%02x', $_ } @rand);
		# 128 bits as 26 characters: 2 bits then 5 per character.
		my $bits = join '', map { sprintf '%04b', hex $_ } split //, $hex;
		$bits = '00' . $bits;
		my $text = join '', map { $sym[ oct("0b" . substr($bits, $_ * 5, 5)) ] } 0 .. 25;
		(my $uuid = $hex) =~ s/^(.{8})(.{4})(.{4})(.{4})/$1-$2-$3-$4-/;
		push @keys, [ $text, $uuid ];
	}
	q1($db, q{CREATE DOMAIN public.ulid AS text CHECK (VALUE ~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}$');
CREATE TABLE items (id public.ulid PRIMARY KEY DEFAULT 'not used', n int);
CREATE TABLE items_by_uuid (id uuid PRIMARY KEY, n int);} . "\nINSERT INTO items VALUES "
		  . join(', ', map { "('$keys[$_][0]', $_)" } 0 .. $#keys) . ";\nINSERT INTO items_by_uuid VALUES "
		  . join(', ', map { "('$keys[$_][1]', $_)" } 0 .. $#keys) . ';');
	run_recipe($db, 'pgx_ulid');
	my @got = split /\n/, q1($db, q{SET search_path = public, ulid_tsid; SELECT i.n, i.id::text, u.id::text, i.id::uuid::text,
  (extract(epoch FROM ulid_tsid.ulid_timestamp(i.id)) * 1000)::bigint, i.id = u.id
  FROM items i JOIN items_by_uuid u USING (n) ORDER BY i.id});
	my ($bad, $prev) = (0, '');
	for (@got)
	{
		my ($n, $t, $tu, $uuid, $ms, $same) = split /\|/;
		my ($want_t, $want_u) = @{ $keys[$n] };
		$bad++ unless $t eq $want_t && $tu eq $want_t && $uuid eq $want_u && $same eq 't'
		  && $ms == hex(substr($want_u =~ s/-//gr, 0, 12)) && $t gt $prev;
		$prev = $t;
	}
	is(scalar(@got) . " $bad", scalar(@keys) . ' 0', 'pgx_ulid: every key keeps its text, its uuid bytes, its time and its order');
	is(q1($db, q{SELECT (ulid_tsid.ulid_timestamp('01GV5PA9EQG7D82Q3Y4PKBZSYV') AT TIME ZONE 'UTC')::text,
  '01GV5PA9EQG7D82Q3Y4PKBZSYV'::ulid_tsid.ulid::uuid::text, '0186cb65-25d7-81da-815c-7e25a6bfe7db'::uuid::ulid_tsid.ulid::text}),
		'2023-03-10 12:00:49.111|0186cb65-25d7-81da-815c-7e25a6bfe7db|01GV5PA9EQG7D82Q3Y4PKBZSYV', 'pgx_ulid: its published vector, both ways');
}

# ---- andrielfn's pg-ulid and pg_uuidv7, built from ../shared/vendor ---------
# Built as the test's user into its own directory and loaded from there (the
# server's library directory is not ours to write): their install scripts run
# with the module path filled in.
sub vendor_build
{
	my ($tarball, $module) = @_;
	my $src = "$root/../shared/vendor/$tarball";
	return (undef, "$src is not there") unless -f $src;
	my $dir = "$ENV{TESTDIR}/vendor";
	mkdir $dir;
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'tar', '-xzf', $src, '-C', $dir ], '>', \$out, '2>', \$err) or return (undef, "tar: $err");
	(my $top = $tarball) =~ s/\.tar\.gz$//;
	IPC::Run::run([ 'make', '-C', "$dir/$top", 'with_llvm=no' ], '>&', \$out) or return (undef, "make: $out");
	return ("$dir/$top", '');
}
SKIP:
{
	my ($dir, $why) = vendor_build('pg-ulid-b5fee2a.tar.gz', 'ulid');
	skip "andrielfn's pg-ulid: $why", 4 unless $dir;
	my $db = db('pg_ulid');
	open my $fh, '<', "$dir/ulid--0.0.1.sql" or die $!;
	my $script = do { local $/; <$fh> };
	$script =~ s/AS 'ulid'/AS '$dir\/ulid.so'/g;
	q1($db, $script . q{
CREATE TABLE things (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int);
INSERT INTO things (n) SELECT n FROM generate_series(1, 2000) n;
CREATE TABLE old_keys AS SELECT n, id::text AS text, ulid_to_timestamp(id) AS made_at FROM things;});
	run_recipe($db, 'pg_ulid');
	is(q1($db, q{SET search_path = public, ulid_tsid; SELECT count(*) FILTER (WHERE o.text = t.id::text AND o.made_at = (ulid_tsid.ulid_timestamp(t.id) AT TIME ZONE 'UTC'))
  || ' ' || count(*) FROM old_keys o JOIN things t USING (n)}), '2000 2000',
		"pg-ulid: every key keeps its text and the time its own ulid_to_timestamp() read");
	is(q1($db, q{SET search_path = public, ulid_tsid; SELECT count(*) FROM old_keys a JOIN old_keys b ON b.n = a.n + 1 JOIN things ta ON ta.n = a.n JOIN things tb ON tb.n = b.n
  WHERE (ta.id < tb.id) IS DISTINCT FROM (a.text < b.text)}), '0', 'pg-ulid: the order of every pair is kept');
	q1($db, q{INSERT INTO things (n) VALUES (0)});
	is(q1($db, q{SET search_path = public, ulid_tsid; SELECT (SELECT id FROM things WHERE n = 0) > max(id) FROM things WHERE n > 0}), 't',
		'pg-ulid: a new key follows the old ones');
}
# pg_uuidv7 as users install it where Debian packages it for this major (sid's
# postgresql-18-pg-uuidv7, put into the chroot by scripts/suites/tap.sh): CREATE
# EXTENSION pg_uuidv7, ulid_tsid beside it, the default moved, then DROP EXTENSION
# pg_uuidv7 with every key kept. Elsewhere the vendored 1.6.0, loaded from the
# test's own build (not an extension there: nothing to drop).
my $uuidv7_packaged = $node->safe_psql('postgres',
	q{SELECT default_version FROM pg_available_extensions WHERE name = 'pg_uuidv7'});
SKIP:
{
	my $db;
	if ($uuidv7_packaged ne '')
	{
		$db = db('pg_uuidv7');
		q1($db, q{CREATE EXTENSION pg_uuidv7});
		note('pg_uuidv7: the server\'s packaged extension, version ' . q1($db, q{SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidv7'}));
	}
	else
	{
		my ($dir, $why) = vendor_build('pg_uuidv7-1.6.0.tar.gz', 'pg_uuidv7');
		skip "pg_uuidv7: $why", 4 unless $dir;
		$db = db('pg_uuidv7');
		open my $fh, '<', "$dir/sql/pg_uuidv7--1.6.sql" or die $!;
		my $script = do { local $/; <$fh> };
		$script =~ s/^\\echo.*$//mg;
		$script =~ s/'MODULE_PATHNAME'/'$dir\/pg_uuidv7.so'/g;
		q1($db, $script);
		note('pg_uuidv7: 1.6.0 from ../shared/vendor, its functions loaded from the test\'s build');
	}
	q1($db, q{
CREATE TABLE sessions (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), n int);
INSERT INTO sessions (n) SELECT n FROM generate_series(1, 2000) n;
CREATE TABLE old_keys AS SELECT n, id, uuid_v7_to_timestamptz(id) AS made_at FROM sessions;
SELECT pg_sleep(0.002);});
	run_recipe($db, 'uuid_defaults');
	q1($db, q{INSERT INTO sessions (n) SELECT -n FROM generate_series(1, 100) n});
	is(q1($db, q{SELECT count(*) FILTER (WHERE o.id = s.id AND date_trunc('milliseconds', o.made_at) = uuidv7_timestamp(s.id))
  FROM old_keys o JOIN sessions s USING (n)}), '2000',
		'pg_uuidv7: every key keeps its bytes, and its time reads the same through uuidv7_timestamp()');
	is(q1($db, q{SELECT NOT EXISTS (SELECT 1 FROM sessions a JOIN sessions b ON a.id <= b.id WHERE a.n < 0 AND b.n > 0)
  AND bool_and(uuid_extract_version(id) = 7) FROM sessions}),
		't', 'pg_uuidv7: new keys are version 7 and follow the old ones');
	is(q1($db, q{SELECT uuid_timestamptz_to_v7('2024-05-06 07:08:09.123Z', true) = uuidv7_lower_bound('2024-05-06 07:08:09.123Z')}),
		't', 'pg_uuidv7: uuid_timestamptz_to_v7(t, true) is uuidv7_lower_bound(t)');
	if ($uuidv7_packaged ne '')
	{
		my $before = q1($db, q{SELECT count(*) || ' ' || md5(string_agg(id::text, ',' ORDER BY n)) FROM sessions});
		my ($out, $err) = ('', '');
		my $rc = $node->psql($db, q{DROP EXTENSION pg_uuidv7}, stdout => \$out, stderr => \$err, on_error_stop => 1);
		ok($rc == 0, 'pg_uuidv7: DROP EXTENSION pg_uuidv7 once the default moved (nothing depends on it)') or diag $err;
		q1($db, q{INSERT INTO sessions (n) SELECT -n FROM generate_series(101, 110) n});
		is(q1($db, q{SELECT count(*) || ' ' || md5(string_agg(id::text, ',' ORDER BY n)) FROM sessions WHERE n NOT BETWEEN -110 AND -101})
			. ' ' . q1($db, q{SELECT count(*) FROM pg_extension WHERE extname = 'pg_uuidv7'})
			. ' ' . q1($db, q{SELECT NOT EXISTS (SELECT 1 FROM sessions a JOIN sessions b ON a.id <= b.id WHERE a.n BETWEEN -110 AND -101 AND b.n > 0)}),
			"$before 0 t", 'pg_uuidv7: after DROP EXTENSION every key is there with its bytes, and new keys follow');
	}
}

# ---- UUIDv4 and core 18's uuidv7() defaults --------------------------------
for my $case ([ 'uuid_v4', 'gen_random_uuid()', 0 ], [ 'uuid_v7_core18', 'uuidv7()', 1 ])
{
	my ($name, $default, $v7) = @$case;
	my $db = db($name);
	q1($db, ($v7 ? 'CREATE EXTENSION ulid_tsid;' : '') . qq{
CREATE TABLE sessions (id uuid PRIMARY KEY DEFAULT $default, n int);
INSERT INTO sessions (n) SELECT n FROM generate_series(1, 2000) n;
CREATE TABLE old_keys AS SELECT n, id FROM sessions;
SELECT pg_sleep(0.002);});
	run_recipe($db, 'uuid_defaults');
	q1($db, q{INSERT INTO sessions (n) SELECT -n FROM generate_series(1, 100) n});
	is(q1($db, q{SELECT count(*) FROM old_keys o JOIN sessions s USING (n) WHERE o.id = s.id}), '2000', "$name: every key keeps its bytes");
	is(q1($db, q{SELECT NOT EXISTS (SELECT 1 FROM sessions a JOIN sessions b ON a.id <= b.id
    WHERE a.n < 0 AND b.n > 0 AND uuid_extract_version(b.id) = 7)
  AND bool_and(uuid_extract_version(id) = 7) FILTER (WHERE n < 0) FROM sessions}), 't', "$name: new keys are version 7, after every old version-7 key");
}

$node->stop;
done_testing();
