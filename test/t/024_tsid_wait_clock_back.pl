# generate_tsid()'s wait for the next millisecond, with the system clock
# stepped back during it. When a millisecond's counter is used up, the value
# moves to the next millisecond and the call waits for the clock to get there
# (up to 2 ms). That wait must stay short in real time whatever the wall clock
# does (it is bounded by the monotonic clock, which no step moves), and must
# answer a cancel; the TSIDs made across the step stay unique and increasing.
#
# The node's clock comes from libfaketime reading its offset from a file on
# every call (FAKETIME_TIMESTAMP_FILE, FAKETIME_NO_CACHE), which the test
# rewrites while the server runs: a step of the wall clock an hour back, the
# monotonic clock left alone (FAKETIME_DONT_FAKE_MONOTONIC), as settimeofday()
# or an NTP step would do. ulid_tsid.node_bits leaves no counter bits (one TSID
# a millisecond per backend without preload, four for the cluster with it), so
# a session making TSIDs spends nearly all its time in that wait, and the step
# falls into one.
#
# pg_cancel_backend() is the cancel here, not statement_timeout: Postgres times
# its timeouts by the same wall clock, so a statement_timeout set before the
# step fires only when the clock has made up the step, for any statement.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Spec;
use IPC::Run;
use POSIX ();
use Time::HiRes ();
use UlidTsid;

my $libfaketime = libfaketime();
plan skip_all => 'libfaketime not installed (Debian package faketime; scripts/install-deps.sh installs it)'
  unless $libfaketime;

my $step_s     = 3600;   # the clock steps this far back
my $seconds    = 4;      # the round that ends by itself makes TSIDs for about this long
my $end_by_s   = 20;     # that round must end this soon after the step (without the bound: an hour)
my $cancel_s   = 5;      # a cancelled statement must end this soon
my $tick       = POSIX::sysconf(POSIX::_SC_CLK_TCK()) || 100;
# (absolute: the server reads the file from its data directory, and 17+'s
# test modules give relative temporary directories)
my $dir        = File::Spec->rel2abs(PostgreSQL::Test::Utils::tempdir);
my $clock_file = "$dir/faketime";

# The node's clock: $offset seconds off the real one, from its next reading on.
# Written aside and renamed, so that libfaketime never reads half a file.
sub set_clock
{
	my ($offset) = @_;
	open my $fh, '>', "$clock_file.new" or die "$clock_file.new: $!";
	printf $fh "%+ds\n", $offset;
	close $fh;
	rename "$clock_file.new", $clock_file or die "rename $clock_file: $!";
}

# CPU seconds (user and system) a process has used, or undef once it is gone.
sub cpu_s
{
	my ($pid) = @_;
	open my $fh, '<', "/proc/$pid/stat" or return undef;
	my $stat = <$fh>;
	close $fh;
	return undef unless defined $stat && $stat =~ /\)\s+(.*)$/s;
	my @f = split ' ', $1;    # from field 3 (state) on: utime is field 14, stime 15
	return ($f[11] + $f[12]) / $tick;
}

# Sleeps $s seconds (a child's exit, which interrupts sleep(), does not cut it short).
sub pause
{
	my ($s) = @_;
	my $until = Time::HiRes::time() + $s;
	while ((my $left = $until - Time::HiRes::time()) > 0) { Time::HiRes::sleep($left) }
}

# Waits until a new TSID is not ahead of the server's clock: after a start, and
# after values ran ahead of a clock stepped back, TSIDs count on above the
# mark and never wait for the clock until it has caught up with them.
sub follow_clock
{
	my ($node) = @_;
	poll_until($node, 'postgres', 'SELECT tsid_timestamp(generate_tsid()) <= clock_timestamp()')
	  or die 'TSIDs stay ahead of the clock';
}

# A psql in the background running $sql as application_name $app; returns its
# handle, its stderr file, and its backend's pid once the statement runs.
sub start_session
{
	my ($node, $app, $sql) = @_;
	my ($out, $err) = ("$dir/$app.out", "$dir/$app.err");
	my $h = IPC::Run::start(
		[ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres') . " application_name=$app", '-c', $sql ],
		'>', $out, '2>', $err);
	poll_until($node, 'postgres', "SELECT count(*) = 1 FROM pg_stat_activity WHERE application_name = '$app' AND state = 'active'")
	  or die "$app did not start";
	my $pid = $node->safe_psql('postgres', "SELECT pid FROM pg_stat_activity WHERE application_name = '$app'");
	return ($h, $err, $pid);
}

# Waits up to $limit s for backend $pid to leave (its statement over, its psql
# gone); returns whether it did, the seconds waited, and the CPU seconds it
# used meanwhile (to its last reading).
sub wait_backend_end
{
	my ($pid, $limit) = @_;
	my $t0 = Time::HiRes::time();
	my $cpu0 = cpu_s($pid) // 0;
	my $cpu = $cpu0;
	while (Time::HiRes::time() - $t0 < $limit)
	{
		my $now = cpu_s($pid);
		return (1, Time::HiRes::time() - $t0, $cpu - $cpu0) unless defined $now;
		$cpu = $now;
		Time::HiRes::usleep(20_000);
	}
	return (0, Time::HiRes::time() - $t0, $cpu - $cpu0);
}

for my $preload (0, 1)
{
	my $mode = $preload ? 'preloaded' : 'not preloaded';
	my $node = new_node("tsid_wait_$preload", preload => $preload,
		conf => "autovacuum = off\nulid_tsid.node_id = 1\nulid_tsid.max_lead = 0");
	# The fewest counter bits the settings allow: node_bits takes what the
	# backend slot (without preload) leaves of the 22 low bits, at most 20.
	my $slot_bits = $node->safe_psql('postgres', 'SELECT tsid_slot_bits FROM ulid_tsid_status()');
	my $node_bits = 22 - $slot_bits > 20 ? 20 : 22 - $slot_bits;
	$node->append_conf('postgresql.conf', "ulid_tsid.node_bits = $node_bits");
	$node->stop;
	set_clock(0);
	{
		local $ENV{LD_PRELOAD}                   = $libfaketime;
		local $ENV{FAKETIME_TIMESTAMP_FILE}      = $clock_file;
		local $ENV{FAKETIME_NO_CACHE}            = '1';
		local $ENV{FAKETIME_DONT_FAKE_MONOTONIC} = '1';
		local $ENV{DONT_FAKE_MONOTONIC}          = '1';
		delete local $ENV{FAKETIME};
		$node->start;
	}
	my $counter_bits = $preload ? 2 : 0;
	is($node->safe_psql('postgres', 'SELECT tsid_counter_bits FROM ulid_tsid_status()'),
		$counter_bits, "$mode: node_bits = $node_bits leaves $counter_bits counter bits");
	my $rows = $seconds * 1000 * 2**$counter_bits;
	# The file drives the server's clock: an hour back, then right again.
	set_clock(-$step_s);
	my $behind = $node->safe_psql('postgres', "SELECT extract(epoch FROM now()) < $^T - 1800");
	set_clock(0);
	is($behind, 't', "$mode: rewriting the file steps the server's clock");

	# --- A statement across the step ends by itself, its TSIDs unique ------
	$node->safe_psql('postgres', 'CREATE TABLE made (id bigserial PRIMARY KEY, t tsid NOT NULL)');
	follow_clock($node);
	my ($h, $err, $pid) = start_session($node, 'across',
		"INSERT INTO made (t) SELECT generate_tsid() FROM generate_series(1, $rows)");
	pause(1);    # a second of TSIDs in, nearly all of the time in the wait
	ok(defined cpu_s($pid), "$mode: the statement is still making TSIDs (" . 2**$counter_bits . ' a millisecond) when the clock steps');
	set_clock(-$step_s);
	my ($ended, $took, $cpu) = wait_backend_end($pid, $end_by_s);
	ok($ended, "$mode: a statement making TSIDs, the clock stepped ${step_s} s back during it, ends by itself ("
		  . sprintf('%.1f s after the step', $took) . ')');
	cmp_ok($cpu, '<', 5, "$mode: it burnt " . sprintf('%.2f', $cpu) . ' CPU-s after the step (not the spin of the whole step)');
	set_clock(0);    # (without the bound, the clock put right ends the spin)
	wait_backend_end($pid, 60) unless $ended;
	ok($h->finish, "$mode: the statement succeeded") or diag(slurp_file($err));
	is( $node->safe_psql('postgres', q{
SELECT count(*) || ' ' || count(DISTINCT t) || ' ' || count(*) FILTER (WHERE t <= prev)
FROM (SELECT t, lag(t) OVER (ORDER BY id) AS prev FROM made) s}),
		"$rows $rows 0", "$mode: its $rows TSIDs are unique and increasing across the step");

	# --- A cancel during the step ends the statement at once -----------------
	follow_clock($node);
	# (the series from a subquery's target list, which streams it: in FROM it
	# would be stored whole before the first row)
	($h, $err, $pid) = start_session($node, 'cancelled',
		'SELECT count(generate_tsid()) FROM (SELECT generate_series(1, 1000000000)) s');
	pause(1);
	ok(defined cpu_s($pid), "$mode: the statement is still making TSIDs when the clock steps");
	set_clock(-$step_s);
	pause(0.5);
	$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid)");
	($ended, $took, $cpu) = wait_backend_end($pid, $cancel_s);
	ok($ended, "$mode: pg_cancel_backend() during the step ends the statement ("
		  . ($ended ? sprintf('in %.2f s', $took) : "not within $cancel_s s") . ')');
	cmp_ok($cpu, '<', 1, "$mode: the backend burnt " . sprintf('%.2f', $cpu) . ' CPU-s after the cancel');
	set_clock(0);
	wait_backend_end($pid, 60) unless $ended;
	$h->finish;
	like(slurp_file($err), qr/canceling statement due to user request/, "$mode: the statement was cancelled");

	# After the step the server carries on: new TSIDs stay above all of them.
	is( $node->safe_psql('postgres', q{
WITH n AS (SELECT generate_tsid() AS t FROM generate_series(1, 100))
SELECT count(*) FROM n WHERE t <= (SELECT max(t) FROM made)}),
		'0', "$mode: TSIDs made after the clock is put right stay above those made before");
	$node->stop;
}

done_testing();
