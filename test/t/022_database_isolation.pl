# One database, one mark: with shared_preload_libraries = 'ulid_tsid', what the
# roles of one database do moves the keys of that database only.
# Databases a and b have owners of their own (alice, bob: no superusers), each
# creates the trusted extension. alice raises a's mark 23 hours ahead, sets
# ulid_tsid_mark_dumped of a 20 hours ahead, and restores a dump of a into a
# new database; after each, b's keys of every generator (in a session opened
# before and in a new one), b's ulid_tsid_status(), b's sequences and the
# server's copy of b's mark (pg_ulid_tsid/mark.<oid>) stay at today's time, and
# no WARNING reaches b. A superuser sets a's mark back; after a restart a's
# and b's keys are at today's time. Then, with the clock behind the marks of
# both databases (raised an hour ahead by their owners, so that every
# monotonic value of a database falls in one millisecond), two sessions of b
# take values of generate_ulid_monotonic() around 5,000 of a's: the second is
# the first + 1 (one sequence per database, across its sessions), and says
# nothing of a's count. Before 0.4.0's per-database state every check of b
# fails: the generators' ticks were one set for the whole server.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UlidTsid;

my $node = new_node('isolation', preload => 1, conf => "log_min_messages = warning\n");
$node->safe_psql('postgres', q{
CREATE ROLE alice LOGIN; CREATE ROLE bob LOGIN;
CREATE DATABASE a OWNER alice; CREATE DATABASE b OWNER bob;
CREATE DATABASE a2 OWNER alice;});
$node->safe_psql('a', 'CREATE EXTENSION ulid_tsid', extra_params => [ '-U', 'alice' ]);
$node->safe_psql('b', 'CREATE EXTENSION ulid_tsid', extra_params => [ '-U', 'bob' ]);
my %oid = map { $_ => $node->safe_psql('postgres', "SELECT oid FROM pg_database WHERE datname = '$_'") } qw(a b);

# Each generator's new key at today's time: ulid|tsid|uuidv7|monotonic.
my ($leads_sql, $today) = keys_at_clock_sql();

# psql as a role: (exit code, stdout, stderr).
sub as_role
{
	my ($db, $role, $sql) = @_;
	return psql_file($node, $db, $sql, '-v', 'ON_ERROR_STOP=1', '-U', $role);
}

# The server's copy of database $db's mark: its Unix ms (offset 8 of the file), or 0.
sub file_mark_ms
{
	my ($db) = @_;
	my $path = $node->data_dir . "/pg_ulid_tsid/mark.$oid{$db}";
	return 0 unless -e $path;
	open my $fh, '<:raw', $path or return -1;
	my $got = read($fh, my $bytes, 16);
	close $fh;
	return -1 unless $got == 16;
	return unpack('q<', substr($bytes, 8, 8));
}

# Everything of b that must stay at today's time, checked after $what.
my $old_b = $node->background_psql('b', on_error_stop => 0);
$old_b->query_safe('SELECT generate_ulid(), generate_tsid(), generate_uuidv7(), generate_ulid_monotonic()');
sub b_untouched
{
	my ($what) = @_;
	my ($rc, $out, $err) = as_role('b', 'bob', $leads_sql);
	is($rc == 0 ? $out : "error: $err", $today, "$what: a new session of b: its keys (ulid|tsid|uuidv7|monotonic) at today's time");
	is($err, '', "$what: no WARNING in b");
	if (defined $old_b)
	{
		my $old = $old_b->query($leads_sql);
		is($old, $today, "$what: a session of b opened before: its keys at today's time");
	}
	my $status = $node->safe_psql('b', 'SELECT extract(epoch FROM mark - clock_timestamp()) < 2 FROM ulid_tsid_status()');
	is($status, 't', "$what: ulid_tsid_status() in b: the mark less than 2 s ahead of the clock");
	my $seq = $node->safe_psql('b',
		'SELECT max(last_value) - (extract(epoch FROM clock_timestamp()) * 1000)::bigint < 2000 FROM '
		  . '(SELECT last_value FROM ulid_tsid_mark UNION ALL SELECT last_value FROM ulid_tsid_mark_floor '
		  . 'UNION ALL SELECT last_value FROM ulid_tsid_mark_dumped) s');
	is($seq, 't', "$what: b's mark sequences less than 2 s ahead of the clock");
	my $file_lead = file_mark_ms('b') - time() * 1000;
	ok($file_lead < 2000, sprintf("%s: the server's copy of b's mark %.0f ms ahead of the clock (< 2000)", $what, $file_lead));
}

b_untouched('before anything');

# --- a's owner raises a's mark 23 hours ------------------------------------
my ($rc, $out, $err) = as_role('a', 'alice', "SELECT ulid_tsid_mark_raise(now() + interval '23 hours') IS NOT NULL");
is($rc, 0, "alice raises a's mark 23 hours ahead") or diag($err);
($rc, $out) = as_role('a', 'alice', "SELECT ulid_timestamp(generate_ulid()) > now() + interval '22 hours'");
is($out, 't', "a's keys are dated tomorrow");
b_untouched("after a's owner raised a's mark 23 hours");

# --- a's owner sets a's dumped sequence 20 hours ahead (no function called) ---
($rc, $out, $err) = as_role('a', 'alice',
	"SELECT setval('ulid_tsid_mark_dumped', ((extract(epoch FROM now() + interval '20 hours')) * 1000)::bigint) > 0");
is($rc, 0, "alice sets a's ulid_tsid_mark_dumped 20 hours ahead") or diag($err);
b_untouched("after a setval() of a's ulid_tsid_mark_dumped");

# --- a restore by a's owner ---------------------------------------------------
my $dump = PostgreSQL::Test::Utils::tempdir . '/a.sql';
$node->command_ok([ 'pg_dump', '-d', $node->connstr('a'), '-f', $dump ], 'pg_dump of a');
($rc, $out, $err) = psql_file($node, 'a2', "\\i $dump", '-v', 'ON_ERROR_STOP=1', '-U', 'alice', '--single-transaction');
is($rc, 0, "alice restores the dump into a2") or diag($err);
# The dump carries a's ulid_tsid_mark_dumped as alice's setval() left it.
($rc, $out) = as_role('a2', 'alice', "SELECT ulid_timestamp(generate_ulid()) > now() + interval '19 hours'");
is($out, 't', "a2's keys are 20 hours ahead (the restored mark)");
b_untouched('after a restore of a into a2');

# --- a superuser sets a's (and a2's) mark back; a restart ---------------------
$node->safe_psql($_, 'SELECT ulid_tsid_mark_reset()') for qw(a a2);
$old_b->quit;
undef $old_b;
$node->restart;
b_untouched('after a restart');
($rc, $out, $err) = as_role('a', 'alice', $leads_sql);
is($rc == 0 ? $out : "error: $err", $today, "after a superuser's reset of a and a restart: a's keys at today's time");

# --- generate_ulid_monotonic(): one sequence per database ----------------------
# Both marks an hour ahead of the clock: every value of a database is in its
# floor's millisecond, +1 each.
for my $db (qw(a b))
{
	my $owner = $db eq 'a' ? 'alice' : 'bob';
	($rc, $out, $err) = as_role($db, $owner, "SELECT ulid_tsid_mark_raise(now() + interval '1 hour') IS NOT NULL");
	is($rc, 0, "$owner raises database ${db}'s mark an hour ahead") or diag($err);
}
my $low80 = q{('x' || right(replace(v::uuid::text, '-', ''), 16))::bit(64)::bigint};
my $b1 = $node->background_psql('b');
my $b2 = $node->background_psql('b');
my $first = $b1->query("SELECT ulid_timestamp(v) || '|' || $low80 FROM (SELECT generate_ulid_monotonic() v) s");
my $made = $node->safe_psql('a', 'SELECT count(DISTINCT generate_ulid_monotonic()) FROM generate_series(1, 5000)');
is($made, 5000, 'a makes 5,000 monotonic values');
my $second = $b2->query("SELECT ulid_timestamp(v) || '|' || $low80 FROM (SELECT generate_ulid_monotonic() v) s");
my ($ms1, $n1) = split /\|/, $first;
my ($ms2, $n2) = split /\|/, $second;
is($ms2, $ms1, "b's two sessions' monotonic values fall in one millisecond ($ms1)");
is(defined $n1 && defined $n2 ? $n2 - $n1 : 'none', 1,
	"the second session of b's value is the first's + 1: none of a's 5,000 values in between");
$b1->quit;
$b2->quit;

done_testing();
