# The persisted mark: no generator returns a value at or below one the same
# server returned before a clean restart, a crash (pg_ctl -m immediate, SIGKILL
# of the postmaster with all its children, and SIGKILL of one backend, after
# which the postmaster reinitializes without a restart) or, on a promoted standby,
# one whose row the standby received, whatever the server's clock reads.
# The clock is set with libfaketime (Debian's faketime package): each restart
# sets it back to 30 s before the previous keys began, and once three hours back; a
# streaming standby runs behind the primary's clock and is promoted; a pg_dump
# is restored into a new cluster whose clock is an hour behind, and the server
# is upgraded with pg_upgrade (to the same major) and started an hour behind. Every round
# inserts keys of all four generators (generate_tsid, generate_ulid,
# generate_ulid_monotonic, generate_uuidv7) from several sessions in turn, and
# for each generator counts duplicates and new values at or below the largest
# earlier one: both must be 0. Everything runs once without and once with
# shared_preload_libraries = 'ulid_tsid'.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Spec;
use IPC::Run;
use Time::HiRes ();
use UlidTsid;

my $libfaketime = libfaketime();
plan skip_all => 'libfaketime not installed (Debian package faketime; scripts/install-deps.sh installs it)'
  unless $libfaketime;

my $sessions = 5;        # sessions per round, one after another (new backends, reused TSID slots)
my $rows     = 2000;     # rows per session: 10,000 keys of each kind per round
my $pause    = 0.25;     # s each session waits after its keys: a round spans at least
                         # 1.25 s, more than the mark's reservation (kMarkReserveMs, 1 s),
                         # so every round moves the mark on as the clock moves

my %gens = (
	t => ['generate_tsid()',           'tsid_timestamp(t)'],
	u => ['generate_ulid()',           'ulid_timestamp(u)'],
	m => ['generate_ulid_monotonic()', 'ulid_timestamp(m)'],
	v => ['generate_uuidv7()',         'uuidv7_timestamp(v)']);
my @cols = sort keys %gens;


sub create_keys
{
	my ($node) = @_;
	$node->safe_psql('postgres',
		'CREATE TABLE keys (round int NOT NULL, sess int NOT NULL, g int NOT NULL, '
		  . join(', ', map { "$_ " . ($_ eq 't' ? 'tsid' : $_ eq 'v' ? 'uuid' : 'ulid') . ' NOT NULL' } @cols)
		  . ', at timestamptz NOT NULL DEFAULT clock_timestamp())');
}

# One round of keys: $sessions sessions in turn, each its own backend.
sub generate_round { generate_key_round($_[0], $_[1], \%gens, $sessions, $rows, $pause) }

# Unix ms of the earliest key of a round (where its keys began).
sub round_start_ms
{
	my ($node, $round) = @_;
	return $node->safe_psql('postgres',
		"SELECT (extract(epoch FROM min(ulid_timestamp(u))) * 1000)::bigint FROM keys WHERE round = $round");
}

# The offset (s) that puts a clock started now at Unix ms $target_ms by the time
# the first new key is made (a start and the first session take about 0.4 s
# here), so that the new keys would fall below the old ones. The callers aim
# $set_back_ms before the earlier round's first key: a start after pg_ctl -m
# immediate replays WAL, and on a loaded machine a clock aimed a second before
# that key had passed the earlier round's last one by 1,241 ms when the new keys
# began (15, a loaded run), testing the clock, not the mark; check_round() says
# how far behind it was, and requires that it was. The new keys then run ahead
# of the clock for the whole round, so the round after a set-back round
# measures the jump over a reservation made ahead of the clock (value + 10 ms),
# and the clean restart's, after a round that followed the clock, the one made
# from the clock (clock + 1 s).
my $set_back_ms = 30_000;
sub offset_to { clock_offset_to($_[0]) }
my $max_jump_ms = 1100;
# After a round whose keys ran ahead of the clock, the reservation was made from
# the value (value + 10 ms), not the clock: the jump is then about 10 ms (7-11 ms
# measured on 15), and a bound of a second would not notice a reservation made a
# second ahead of such a value; 300 ms leaves room for a descheduled backend.
my $max_jump_after_ahead_ms = 300;

# For each generator: duplicates among the keys of round $round, and its keys at
# or below the largest key of the earlier rounds; both must be 0. Together they
# say no key of any round equals another (the earlier rounds were checked the
# same way, and every new key is above all of theirs), at the cost of sorting one
# round, not all of them again each round.
sub check_round
{
	my ($node, $round, $what, $max_ms) = @_;
	$max_ms //= $max_jump_ms;
	for my $c (@cols)
	{
		my ($dups, $below, $n) = split /\|/, $node->safe_psql('postgres', qq{
SELECT (SELECT count(*) - count(DISTINCT $c) FROM keys WHERE round = $round),
       (SELECT count(*) FROM keys WHERE round = $round AND $c <= (SELECT $c FROM keys WHERE round < $round ORDER BY $c DESC LIMIT 1)),
       (SELECT count(*) FROM keys WHERE round = $round)});
		is("$dups|$below", '0|0',
			"$what: $gens{$c}[0]: no duplicate and none of $n new keys at or below an earlier one");
	}
	# How far the new keys begin above the old ones (continuing from the mark).
	my $jump = $node->safe_psql('postgres', qq{
SELECT ((extract(epoch FROM (SELECT min(ulid_timestamp(u)) FROM keys WHERE round = $round))
       - extract(epoch FROM (SELECT max(ulid_timestamp(u)) FROM keys WHERE round < $round))) * 1000)::bigint});
	# Where the server's clock stood when the new keys began, against the last
	# earlier key: a positive figure means the clock alone would have put the new
	# keys at or below earlier ones, so the mark is what kept them above.
	my $behind = $node->safe_psql('postgres', qq{
SELECT ((extract(epoch FROM (SELECT max(ulid_timestamp(u)) FROM keys WHERE round < $round))
       - extract(epoch FROM (SELECT min(at) FROM keys WHERE round = $round))) * 1000)::bigint});
	note "$what: the new ULIDs begin $jump ms after the last earlier one; the clock was then $behind ms behind it";
	ok($behind > 0, "$what: the clock was behind the earlier keys when the new ones began ($behind ms): the mark, not the clock, kept them above");
	# A new lifetime starts just above the reservation of the one before, which
	# reaches kMarkReserveMs (1 s) past the clock of its last write, itself at
	# or before the last earlier key (or kMarkAheadReserveMs, 10 ms, past a value
	# running ahead of the clock): 1,001 ms at most, more only where another
	# generator of the last row wrote it later than the row's ULID was made (a
	# backend descheduled between the two on a loaded machine): $max_jump_ms
	# leaves room for that; $max_jump_after_ahead_ms where the earlier round ran ahead.
	ok($jump > 0 && $jump <= $max_ms, "$what: the new keys continue from the mark, at most $max_ms ms above the earlier ones ($jump ms)");
	return $jump;
}

for my $preload (0, 1)
{
	my $mode = $preload ? 'preloaded' : 'not preloaded';
	my $conf = "autovacuum = off\nlog_statement = none\nrestart_after_crash = on";

	# --- One server: a clean restart, pg_ctl -m immediate, SIGKILL, three hours back
	my $node = new_node("clock_$preload", preload => $preload, conf => $conf);
	create_keys($node);
	generate_round($node, 1);

	# The round before the clean restart followed the clock; each later round
	# follows a round whose clock was set back, so its keys ran ahead.
	my @steps = (
		[ 'clean restart',           sub { $node->stop('fast') },      $max_jump_ms ],
		[ 'pg_ctl -m immediate',     sub { $node->stop('immediate') }, $max_jump_after_ahead_ms ],
		[ 'SIGKILL of the postmaster and its children', sub { kill_cluster($node) }, $max_jump_after_ahead_ms ]);
	my $round = 1;
	for my $step (@steps)
	{
		my ($what, $stop, $max_ms) = @$step;
		my $target = round_start_ms($node, $round) - $set_back_ms;
		$stop->();
		start_with_clock($node, offset_to($target));
		$round++;
		generate_round($node, $round);
		check_round($node, $round, "$mode, $what, clock set back before the earlier keys", $max_ms);
	}

	# Three hours back: still no error and no wait, and the keys stay above.
	$node->stop('fast');
	start_with_clock($node, -3 * 3600);
	$round++;
	my $t0 = Time::HiRes::time();
	generate_round($node, $round);
	my $took = Time::HiRes::time() - $t0;
	check_round($node, $round, "$mode, clock three hours behind", $max_jump_after_ahead_ms);
	cmp_ok($took, '<', 60, "$mode, clock three hours behind: $sessions x $rows rows in ${\ sprintf('%.1f', $took)} s (no waiting for the clock)");

	# A backend killed: the postmaster lives on (same start time) and
	# reinitializes after crash recovery, which also starts the shared ticks
	# again; the keys of the round before ran ahead of the clock (it is three
	# hours behind), and the new ones must still start above them.
	my ($vout, $verr) = ('', '');
	my $victim = IPC::Run::start(
		[ 'psql', '-XAtq', '-d', $node->connstr('postgres'), '-c', 'SELECT pg_sleep(120)' ],
		'>', \$vout, '2>', \$verr);
	poll_until($node, 'postgres',
		"SELECT count(*) = 1 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(120)'")
	  or die 'the victim session did not start';
	my $pid = $node->safe_psql('postgres', "SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(120)'");
	my $started = $node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()');
	kill 'KILL', $pid;
	$victim->finish;
	sleep 1;
	poll_until($node, 'postgres', 'SELECT true') or die 'no reinitialization';
	is($node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()'),
		$started, "$mode: a killed backend: the postmaster lived on and reinitialized");
	$round++;
	generate_round($node, $round);
	check_round($node, $round, "$mode, a backend killed (crash recovery without a restart), clock three hours behind",
		$max_jump_after_ahead_ms);

	# --- pg_dump into a new cluster whose clock is an hour behind -------------
	my $dump = PostgreSQL::Test::Utils::tempdir . '/keys.sql';
	IPC::Run::run([ 'pg_dump', '-d', $node->connstr('postgres'), '-f', $dump ]) or die 'pg_dump failed';
	my $restored = PostgreSQL::Test::Cluster->new("restored_$preload");
	$restored->init;
	$restored->append_conf('postgresql.conf', $conf);
	$restored->append_conf('postgresql.conf', "shared_preload_libraries = 'ulid_tsid'") if $preload;
	start_with_clock($restored, -3600);
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $restored->connstr('postgres'), '-f', $dump ],
		'>', \$out, '2>', \$err);
	ok($ok, "$mode: the dump restores into a new cluster") or diag($err);
	$round++;
	generate_round($restored, $round);
	check_round($restored, $round, "$mode, pg_dump restored into a new cluster with its clock an hour behind",
		$max_jump_after_ahead_ms);
	$restored->stop;
	$node->stop;

	# --- pg_upgrade (to the same major here; test/t/cross runs 13 -> 18) ------
	# The mark's sequences come across as files; the upgraded server, a new
	# lifetime with its clock an hour behind, starts above them.
	my $upgraded = PostgreSQL::Test::Cluster->new("upgraded_$preload");
	$upgraded->init;
	$upgraded->append_conf('postgresql.conf', $conf);
	$upgraded->append_conf('postgresql.conf', "shared_preload_libraries = 'ulid_tsid'") if $preload;
	my $bindir = `pg_config --bindir`;
	chomp $bindir;
	my $work = File::Spec->rel2abs(PostgreSQL::Test::Utils::tempdir);
	my ($uout, $uerr) = ('', '');
	my $upgrade_ok = IPC::Run::run(
		# (absolute: 17+'s test modules give relative data directories, and pg_upgrade runs in $work)
		[ 'pg_upgrade', '-b', $bindir, '-B', $bindir, '-d', File::Spec->rel2abs($node->data_dir),
		  '-D', File::Spec->rel2abs($upgraded->data_dir),
		  '-p', $node->port, '-P', $upgraded->port, '-s', $work ],
		'>', \$uout, '2>', \$uerr, init => sub { chdir $work or die "chdir $work: $!" });
	ok($upgrade_ok, "$mode: pg_upgrade") or diag("$uout\n$uerr");
	start_with_clock($upgraded, -3600);
	$round++;
	generate_round($upgraded, $round);
	check_round($upgraded, $round, "$mode, after pg_upgrade, clock an hour behind", $max_jump_after_ahead_ms);
	$upgraded->stop;

	# --- A streaming standby with its clock behind, promoted -------------------
	my $primary = new_node("primary_$preload",
		init => { allows_streaming => 1 }, preload => $preload, conf => $conf);
	create_keys($primary);
	$primary->backup('bk');
	my $standby = PostgreSQL::Test::Cluster->new("standby_$preload");
	$standby->init_from_backup($primary, 'bk', has_streaming => 1);
	start_with_clock($standby, -5);
	generate_round($primary, 1);
	$primary->wait_for_catchup($standby);
	# A hot standby makes ULIDs and UUIDv7s (values it cannot store, reserved
	# nowhere, told apart by their random bits), and refuses TSIDs: it carries
	# the primary's node id and cannot record what it made (test/t/018).
	my @random_kinds = grep { $_ ne 't' } @cols;
	is( $standby->safe_psql('postgres',
			'SELECT count(DISTINCT ' . join(') + count(DISTINCT ', map { $gens{$_}[0] } @random_kinds) . ') FROM generate_series(1, 1000)'),
		1000 * @random_kinds, "$mode: ULID and UUIDv7 generators run on the hot standby");
	my (undef, undef, $refusal) = $standby->psql('postgres', 'SELECT generate_tsid()', extra_params => ['-v', 'VERBOSITY=verbose']);
	like($refusal, qr/ERROR:  25006: generate_tsid\(\) cannot run on a standby/, "$mode: generate_tsid() refuses on the hot standby");
	$primary->stop('immediate');
	$standby->promote;
	poll_until($standby, 'postgres', 'SELECT NOT pg_is_in_recovery()')
	  or die 'standby did not finish promotion';
	generate_round($standby, 2);
	check_round($standby, 2, "$mode, standby 5 s behind the primary's clock, promoted");
	$standby->stop;
}

done_testing();
