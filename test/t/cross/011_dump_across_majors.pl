# Plain pg_dump between an older major (15, or the one ULID_TSID_DUMP_OLD names:
# the crossversion suite runs 13, in the sid chroot beside 18) and 18, both ways, of a
# database whose column defaults and generated column call the extension's
# UUIDv7 functions by their schema (public.uuidv7(), public.generate_uuidv7(),
# public.uuid_extract_timestamp()), which PostgreSQL 17/18 also have in
# pg_catalog.
#
# OLD -> 18: OLD's pg_dump, replayed by 18's psql with ON_ERROR_STOP: no error
# at all; the same rows; the defaults keep calling the extension's functions
# (not 18's pg_catalog.uuidv7, which an unqualified uuidv7() finds on 18) and
# go on working.
# 18 -> OLD: 18's pg_dump, replayed by OLD's psql without ON_ERROR_STOP: the only
# errors allowed are settings OLD does not know (listed in a note); the same
# rows; the defaults work on OLD.
#
# Needs ULID_TSID_PG<old>_BINDIR and ULID_TSID_PG18_BINDIR (scripts/suites/crossversion.sh
# sets them); a missing one fails the test.
use strict;
use warnings;
use Cwd qw(realpath);
use File::Basename qw(dirname);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UlidTsid qw(installations);

my $o = $ENV{ULID_TSID_DUMP_OLD} // 15;    # the older major
my ($bindir_ref, $install_ref) = installations($o, 18);
my %bindir  = %$bindir_ref;
my %install = %$install_ref;

my $conf = qq{
log_statement = none
autovacuum = off
};
sub node
{
	my ($name, $major) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name, install_path => $install{$major});
	is($node->pg_version->major, $major, "node $name runs PostgreSQL $major");
	$node->init;
	$node->append_conf('postgresql.conf', $conf);
	$node->start;
	return $node;
}

# The same SQL on both majors (nothing 18-only): every function of the
# extension named with its schema where 17/18 have one of the same name.
my $schema_sql = q{
CREATE EXTENSION ulid_tsid;
CREATE TABLE events (
    id ulid PRIMARY KEY DEFAULT generate_ulid(),
    ts tsid NOT NULL UNIQUE DEFAULT generate_tsid(),
    u uuid NOT NULL UNIQUE DEFAULT public.uuidv7(),
    g uuid NOT NULL DEFAULT public.generate_uuidv7(),
    earlier uuid NOT NULL DEFAULT public.uuidv7(interval '-1 hour'),
    u_at timestamptz GENERATED ALWAYS AS (public.uuid_extract_timestamp(u)) STORED,
    n int NOT NULL,
    note text
);
CREATE INDEX events_u_at ON events (u_at);
CREATE VIEW recent_events AS
    SELECT id, ts, u, u_at, n FROM events
    WHERE u >= public.uuidv7_lower_bound('2020-01-01 00:00:00+00');
INSERT INTO events (n, note) SELECT g, 'event ' || g FROM generate_series(1, 3000) g;
};
my $rows = 3000;

sub fingerprint
{
	my ($node, $what) = @_;
	return $node->safe_psql('app',
		"SET TimeZone = 'UTC'; SELECT count(*) || ' ' || md5(string_agg(t::text, ',' ORDER BY t.id)) FROM $what t");
}

# Column defaults and generation expressions as the server prints them.
my $defaults_sql = q{
SELECT string_agg(a.attname || '=' || pg_get_expr(d.adbin, d.adrelid), ' ' ORDER BY a.attnum)
FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
WHERE d.adrelid = 'events'::regclass};
# The functions the defaults, the generated column and the view call, with
# their schema and whether they belong to ulid_tsid.
my $called_sql = q{
SELECT string_agg(DISTINCT p.pronamespace::regnamespace || '.' || p.proname || '('
                  || pg_get_function_identity_arguments(p.oid) || ')'
                  || CASE WHEN e.objid IS NULL THEN ' (core)' ELSE ' (ulid_tsid)' END, ', ')
FROM pg_depend dep
JOIN pg_proc p ON dep.refclassid = 'pg_proc'::regclass AND p.oid = dep.refobjid
LEFT JOIN pg_depend e ON e.classid = 'pg_proc'::regclass AND e.objid = p.oid AND e.deptype = 'e'
WHERE (dep.classid = 'pg_attrdef'::regclass
       AND dep.objid IN (SELECT oid FROM pg_attrdef WHERE adrelid = 'events'::regclass))
   -- 13 records a generated column's functions as the column's own dependencies
   OR (dep.classid = 'pg_class'::regclass AND dep.objid = 'events'::regclass AND dep.objsubid > 0)
   OR (dep.classid = 'pg_rewrite'::regclass
       AND dep.objid IN (SELECT oid FROM pg_rewrite WHERE ev_class = 'recent_events'::regclass))};
my $expected_called = 'public.generate_tsid() (ulid_tsid), public.generate_ulid() (ulid_tsid), '
  . 'public.generate_uuidv7() (ulid_tsid), public.uuid_extract_timestamp(uuid) (ulid_tsid), '
  . 'public.uuidv7() (ulid_tsid), public.uuidv7(shift interval) (ulid_tsid), '
  . 'public.uuidv7_lower_bound(timestamp with time zone) (ulid_tsid)';
my $ext_sql = q{SELECT extversion FROM pg_extension WHERE extname = 'ulid_tsid'};
my $unqualified_sql = q{SELECT pronamespace::regnamespace FROM pg_proc WHERE oid = 'uuidv7()'::regprocedure};

# Inserts 100 rows with the defaults; all of them later than $max (the old
# largest id), version-7 uuids, generated timestamps of now.
sub check_new_rows
{
	my ($node, $label, $max_id, $max_ts) = @_;
	is( $node->safe_psql('app', qq{
INSERT INTO events (n, note) SELECT -g, 'new' FROM generate_series(1, 100) g;
SELECT count(*), count(DISTINCT id), bool_and(id > '$max_id'::ulid), bool_and(ts > '$max_ts'::tsid),
       bool_and(public.uuid_extract_version(u) = 7 AND public.uuid_extract_version(g) = 7),
       bool_and(u_at BETWEEN now() - interval '1 minute' AND now() + interval '1 minute'),
       bool_and(public.uuid_extract_timestamp(earlier) < now() - interval '59 minutes')
FROM events WHERE n < 0}),
		'100|100|t|t|t|t|t',
		"$label: 100 rows from the defaults: later keys, v7 uuids, generated timestamps of now");
}

# Runs a command, returns (exit status, stdout, stderr).
sub run
{
	my @cmd = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run(\@cmd, '>', \$out, '2>', \$err);
	my $rc = $? >> 8;
	print {*STDERR} "# ran: @cmd\n# exit $rc\n# stderr:\n$err\n";    # into the regress log
	return ($rc, $out, $err);
}

my $tmp = PostgreSQL::Test::Utils::tempdir;

# --- $o -> 18 ---------------------------------------------------------------------
my $src_old = node("src$o", $o);
my $dst18 = node('dst18', 18);
$src_old->safe_psql('postgres', 'CREATE DATABASE app');
$src_old->safe_psql('app', $schema_sql);
note ">> $o: " . $src_old->safe_psql('app', 'SELECT version()') . ', ulid_tsid ' . $src_old->safe_psql('app', $ext_sql);
my $fp_events = fingerprint($src_old, 'events');
my $fp_view = fingerprint($src_old, 'recent_events');
is((split / /, $fp_events)[0], $rows, "$o: events holds $rows rows");
is($src_old->safe_psql('app', $unqualified_sql), 'public', "$o: an unqualified uuidv7() is the extension's");
is($src_old->safe_psql('app', $called_sql), $expected_called, "$o: defaults and view call the extension's functions");
my $defaults_old = $src_old->safe_psql('app', $defaults_sql);
note ">> $o: defaults: $defaults_old";
my $max_id = $src_old->safe_psql('app', 'SELECT max(id) FROM events');
my $max_ts = $src_old->safe_psql('app', 'SELECT max(ts) FROM events');

my $dump_old = "$tmp/from_old.sql";
my ($rc, $out, $err) = run("$bindir{$o}/pg_dump", '-f', $dump_old, '-d', $src_old->connstr('app'));
is($rc . $err, '0', "${o}'s pg_dump (plain) succeeds");
my $dump_old_text = PostgreSQL::Test::Utils::slurp_file($dump_old);
like($dump_old_text, qr/DEFAULT public\.uuidv7\(\)/, "${o}'s dump names the default public.uuidv7()");
note ">> $o dump: " . length($dump_old_text) . ' bytes; SETs: '
  . join(' ', sort { $a cmp $b } keys %{ { map { $_ => 1 } $dump_old_text =~ /^SET (\w+) /mg } });

$dst18->safe_psql('postgres', 'CREATE DATABASE app');
($rc, $out, $err) =
  run("$bindir{18}/psql", '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', $dump_old, '-d', $dst18->connstr('app'));
is($rc, 0, "18's psql -v ON_ERROR_STOP=1 replays ${o}'s dump");
my @errors = grep { /ERROR|FATAL/ } split /\n/, $err;
is(scalar(@errors), 0, '... with no error') or diag(join("\n", @errors));
note ">> 18: " . $dst18->safe_psql('app', 'SELECT version()') . ', ulid_tsid ' . $dst18->safe_psql('app', $ext_sql);
is($dst18->safe_psql('app', $ext_sql), $src_old->safe_psql('app', $ext_sql), '18: restored as the same ulid_tsid version');
is(fingerprint($dst18, 'events'), $fp_events, "18: events rows identical ($rows rows, md5 of their text)");
is(fingerprint($dst18, 'recent_events'), $fp_view, '18: recent_events view reads the same');
my $defaults18 = $dst18->safe_psql('app', $defaults_sql);
note ">> 18: defaults: $defaults18";
like($defaults18, qr/(?:^| )u=public\.uuidv7\(\)(?: |$)/, "18: u's default is still public.uuidv7()");
like($defaults18, qr/(?:^| )earlier=public\.uuidv7\('-01:00:00'::interval\)(?: |$)/,
	"18: earlier's default is still public.uuidv7(interval)");
like($defaults18, qr/(?:^| )u_at=public\.uuid_extract_timestamp\(u\)(?: |$)/,
	'18: u_at is still generated by public.uuid_extract_timestamp(u)');
is($dst18->safe_psql('app', $called_sql), $expected_called,
	"18: defaults, generated column and view call the extension's functions, none of the core's");
is($dst18->safe_psql('app', $unqualified_sql), 'pg_catalog', '18: an unqualified uuidv7() is pg_catalog.uuidv7');
check_new_rows($dst18, '18', $max_id, $max_ts);
note ">> $o -> 18: events " . $src_old->safe_psql('app', 'SELECT count(*) FROM events') . " rows on $o, "
  . $dst18->safe_psql('app', 'SELECT count(*) FROM events') . ' on 18 after 100 new ones';

# --- 18 -> $o ---------------------------------------------------------------------
my $dst_old = node("dst$o", $o);
$dst18->safe_psql('postgres', 'CREATE DATABASE app18');
$dst18->safe_psql('app18', $schema_sql);
my $fp18_events = $dst18->safe_psql('app18',
	"SET TimeZone = 'UTC'; SELECT count(*) || ' ' || md5(string_agg(t::text, ',' ORDER BY t.id)) FROM events t");
my $fp18_view = $dst18->safe_psql('app18',
	"SET TimeZone = 'UTC'; SELECT count(*) || ' ' || md5(string_agg(t::text, ',' ORDER BY t.id)) FROM recent_events t");
is((split / /, $fp18_events)[0], $rows, "18: events of the new database holds $rows rows");
is($dst18->safe_psql('app18', $called_sql), $expected_called, "18: its defaults and view call the extension's functions");
my $max18_id = $dst18->safe_psql('app18', 'SELECT max(id) FROM events');
my $max18_ts = $dst18->safe_psql('app18', 'SELECT max(ts) FROM events');

my $dump18 = "$tmp/from18.sql";
($rc, $out, $err) = run("$bindir{18}/pg_dump", '-f', $dump18, '-d', $dst18->connstr('app18'));
is($rc . $err, '0', "18's pg_dump (plain) succeeds");
my $dump18_text = PostgreSQL::Test::Utils::slurp_file($dump18);
like($dump18_text, qr/DEFAULT public\.uuidv7\(\)/, "18's dump names the default public.uuidv7()");
note '>> 18 dump: ' . length($dump18_text) . ' bytes; SETs: '
  . join(' ', sort { $a cmp $b } keys %{ { map { $_ => 1 } $dump18_text =~ /^SET (\w+) /mg } });

$dst_old->safe_psql('postgres', 'CREATE DATABASE app');
($rc, $out, $err) = run("$bindir{$o}/psql", '-X', '-q', '-f', $dump18, '-d', $dst_old->connstr('app'));
is($rc, 0, "${o}'s psql replays 18's dump (without ON_ERROR_STOP)");
@errors = map { s/^psql:\S*\/(from18\.sql:)/psql:$1/r } grep { /ERROR|FATAL/ } split /\n/, $err;
my @unknown_settings = map { /unrecognized configuration parameter "([^"]+)"/ ? $1 : () } @errors;
note ">> 18 -> $o: " . scalar(@errors) . ' errors: ' . (@errors ? join(' | ', @errors) : 'none');
is(join("\n", grep { !/ERROR:  unrecognized configuration parameter "[^"]+"$/ } @errors),
	'', "every error is about a setting $o does not know");
note ">> 18 -> $o: settings $o does not know: " . (@unknown_settings ? join(', ', @unknown_settings) : 'none');
is(fingerprint($dst_old, 'events'), $fp18_events, "$o: events rows identical ($rows rows, md5 of their text)");
is(fingerprint($dst_old, 'recent_events'), $fp18_view, "$o: recent_events view reads the same");
is($dst_old->safe_psql('app', $called_sql), $expected_called, "$o: defaults and view call the extension's functions");
note ">> $o: defaults: " . $dst_old->safe_psql('app', $defaults_sql);
check_new_rows($dst_old, "$o", $max18_id, $max18_ts);
note ">> 18 -> $o: events " . $dst18->safe_psql('app18', 'SELECT count(*) FROM events') . ' rows on 18, '
  . $dst_old->safe_psql('app', 'SELECT count(*) FROM events') . " on $o after 100 new ones";
is($dst_old->safe_psql('app', q{SELECT count(*) FROM pg_index WHERE NOT (indisvalid AND indisready AND indislive)}),
	'0', "$o: every restored index valid");

$_->stop for ($src_old, $dst18, $dst_old);
done_testing();
