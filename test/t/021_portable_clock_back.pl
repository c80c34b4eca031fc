# The portable edition (portable/ulid_tsid_portable.sql, SQL and PL/pgSQL, no
# library) through what a hosted database lives through, the cases 012_clock_back
# runs for the native extension: a clean restart with the server's clock set
# back, a crash (pg_ctl -m immediate) with the clock set back, and a streaming
# standby whose clock is behind its primary's, promoted. The clock is set with
# libfaketime (Debian's faketime package), 30 s before the earlier keys began:
# far enough that a loaded machine cannot catch up between the stop and the new
# keys (check_round() requires that the clock really was behind).
#
# The edition is installed with psql -f into database postgres of a server that
# never loads the library (no CREATE EXTENSION ulid_tsid). Every round inserts
# keys of each portable generator from several sessions in turn; for each
# generator:
# - no duplicate among all the keys of all rounds (asserted: this holds, by the
#   TSID sequence, which never goes back, a crash skipping it ahead, and by the
#   ULIDs' and UUIDv7s' random bits);
# - the count of new keys at or below the largest earlier one. The portable
#   edition has no mark (docs/portable.md, "Not included"): its generators
#   follow the clock, so after a restart onto a clock set back its new keys sort
#   below the earlier ones. The count is printed, not asserted (a check that
#   is known to fail would only inflate the tally); docs/guarantees.md says
#   which guarantees hold.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Cwd qw(realpath);
use File::Basename qw(dirname);
use IPC::Run;
use Time::HiRes ();
use UlidTsid;

my $libfaketime = libfaketime();
plan skip_all => 'libfaketime not installed (Debian package faketime; scripts/install-deps.sh installs it)'
  unless $libfaketime;

my $portable = realpath(dirname(__FILE__) . '/../..') . '/portable/ulid_tsid_portable.sql';
-e $portable or BAIL_OUT("no $portable");

my $sessions = 5;       # sessions per round, one after another (new backends)
my $rows     = 2000;    # rows per session: 10,000 keys of each kind per round
my $pause    = 0.1;     # s each session waits after its keys

my %gens = (
	t => ['generate_tsid()',           'bigint'],
	u => ['generate_ulid()',           'uuid'],
	m => ['generate_ulid_monotonic()', 'uuid'],
	v => ['generate_uuidv7()',         'uuid']);
my @cols = sort keys %gens;

# The portable edition into database postgres, with psql -f as a user would.
sub install_portable
{
	my ($node) = @_;
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run(
		[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'), '-f', $portable ],
		'>', \$out, '2>', \$err);
	ok($ok, $node->name . ': the portable edition installs with psql -f') or diag($err);
	is( $node->safe_psql('postgres',
			q{SELECT count(*) FROM pg_extension WHERE extname = 'ulid_tsid'} . ' UNION ALL '
			  . q{SELECT count(*) FROM pg_proc WHERE prolang = (SELECT oid FROM pg_language WHERE lanname = 'c')}
			  . q{ AND pronamespace = 'public'::regnamespace}),
		"0\n0", $node->name . ': no native extension, no C function in its schema');
	$node->safe_psql('postgres',
		'CREATE TABLE keys (round int NOT NULL, sess int NOT NULL, g int NOT NULL, '
		  . join(', ', map { "$_ $gens{$_}[1] NOT NULL" } @cols)
		  . ', at timestamptz NOT NULL DEFAULT clock_timestamp())');
}

# One round of keys: $sessions sessions in turn, each its own backend.
sub generate_round { generate_key_round($_[0], $_[1], \%gens, $sessions, $rows, $pause) }

# Unix ms of the earliest key of a round (the clock when its keys began).
sub round_start_ms
{
	my ($node, $round) = @_;
	return $node->safe_psql('postgres',
		"SELECT (extract(epoch FROM min(at)) * 1000)::bigint FROM keys WHERE round = $round");
}

# The offset (s) that puts a clock started now at Unix ms $target_ms by the time
# the first new key is made (a start and the first session take about 0.4 s).
my $set_back_ms = 30_000;
sub offset_to { clock_offset_to($_[0]) }


sub check_round
{
	my ($node, $round, $what) = @_;
	# Where the server's clock stood when the new keys began, against the last
	# earlier key: positive, so the clock alone would put new keys below.
	my $behind = $node->safe_psql('postgres', qq{
SELECT ((extract(epoch FROM (SELECT max(at) FROM keys WHERE round < $round))
       - extract(epoch FROM (SELECT min(at) FROM keys WHERE round = $round))) * 1000)::bigint});
	ok($behind > 0, "$what: the clock was behind the earlier keys when the new ones began ($behind ms)");
	for my $c (@cols)
	{
		my ($dups, $n, $all) = split /\|/, $node->safe_psql('postgres', qq{
SELECT count(*) - count(DISTINCT $c), count(*) FILTER (WHERE round = $round), count(*) FROM keys});
		is($dups, 0, "$what: $gens{$c}[0]: no duplicate among all $all keys ($n new)");
		my $below = $node->safe_psql('postgres', qq{
SELECT count(*) FROM keys WHERE round = $round
   AND $c <= (SELECT $c FROM keys WHERE round < $round ORDER BY $c DESC LIMIT 1)});
		note "$what: $gens{$c}[0]: $below of $n new keys at or below the largest earlier one";
	}
}

my $conf = "autovacuum = off\nlog_statement = none\ntimezone = 'UTC'";

# --- One server: a clean restart and pg_ctl -m immediate, each onto a clock set back
my $node = PostgreSQL::Test::Cluster->new('portable_clock');
$node->init;
$node->append_conf('postgresql.conf', $conf);
$node->start;
install_portable($node);
generate_round($node, 1);
my $round = 1;
for my $step ([ 'clean restart', 'fast' ], [ 'pg_ctl -m immediate', 'immediate' ])
{
	my ($what, $mode) = @$step;
	my $target = round_start_ms($node, $round) - $set_back_ms;
	$node->stop($mode);
	start_with_clock($node, offset_to($target));
	$round++;
	generate_round($node, $round);
	check_round($node, $round, "portable, $what, clock set back 30 s before the earlier keys");
}
$node->stop;

# --- A streaming standby 30 s behind its primary's clock, promoted -------------
my $primary = PostgreSQL::Test::Cluster->new('portable_primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', $conf);
$primary->start;
install_portable($primary);
$primary->backup('bk');
my $standby = PostgreSQL::Test::Cluster->new('portable_standby');
$standby->init_from_backup($primary, 'bk', has_streaming => 1);
start_with_clock($standby, -$set_back_ms / 1000);
generate_round($primary, 1);
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', 'SELECT count(*) FROM keys'), $sessions * $rows,
	'the standby received every row of the primary');
$primary->stop('immediate');
$standby->promote;
poll_until($standby, 'postgres', 'SELECT NOT pg_is_in_recovery()')
  or die 'standby did not finish promotion';
generate_round($standby, 2);
check_round($standby, 2, 'portable, standby 30 s behind the primary\'s clock, promoted');
$standby->stop;

done_testing();
