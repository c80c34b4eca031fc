# The extension is trusted: CREATE EXTENSION and ALTER EXTENSION UPDATE run its
# scripts as the bootstrap superuser for any role with CREATE on the database.
# Here roles that are not superusers plant hostile functions and operators under
# every core name the scripts use (and overloads of the extension's own names)
# in the target schema, in public and in pg_temp, then install every version
# and take every update path. Nothing planted may ever run (each one raises a
# WARNING "hostile object ran" (a script runs with client_min_messages = warning) and tries ALTER ROLE ... SUPERUSER), no role may
# gain an attribute or a membership, and the extension must come out exactly as
# a clean install of the same path (or the install must refuse).
# The same for ulid_tsid_compat, a second trusted extension that requires
# ulid_tsid: installed after it (into its schema), and with CASCADE (which
# installs ulid_tsid too, trusted, for the same role).
use strict;
use warnings;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('trusted');
$node->init;
$node->start;
# 15+ copy a database through the WAL by default, block by block; the file copy (the
# older way, and 13's only one) took this test from 39.7 to 35.9 CPU-s on an idle 15.
my $strategy = $node->safe_psql('postgres', 'SHOW server_version_num') >= 150000 ? ' STRATEGY FILE_COPY' : '';
$node->safe_psql('postgres', q{
CREATE ROLE attacker LOGIN;
CREATE ROLE mallory LOGIN;
CREATE ROLE dbowner LOGIN;
});

my @versions = split /\n/, $node->safe_psql('postgres', q{
SELECT version FROM pg_available_extension_versions
WHERE name = 'ulid_tsid' AND version ~ '^[0-9]+\.[0-9]+\.[0-9]+$'
ORDER BY string_to_array(version, '.')::int[]});
my $current = $node->safe_psql('postgres',
	q{SELECT default_version FROM pg_available_extensions WHERE name = 'ulid_tsid'});
ok(@versions >= 4 && $versions[-1] eq $current,
	"every released version is installable (@versions), the last is the default $current");
my @paths = ((map { [$_] } @versions), (map { [ $_, $current ] } grep { $_ ne $current } @versions));
# ulid_tsid_compat (one version, the current one): after ulid_tsid, and alone with CASCADE.
my $compat = $node->safe_psql('postgres',
	q{SELECT default_version FROM pg_available_extensions WHERE name = 'ulid_tsid_compat'});
ok($compat ne '', "ulid_tsid_compat is available ($compat)");
push @paths, [ 'compat', $current ], [ 'compat-cascade' ];

# The core functions the scripts name: every identifier the installed scripts
# put before "(" or after "=" that pg_catalog has, plus the names of ours.
my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
my %mentioned;
for my $file (glob "$sharedir/extension/ulid_tsid--*.sql $sharedir/extension/ulid_tsid_compat--*.sql")
{
	open my $fh, '<', $file or die "$file: $!";
	local $/;
	my $text = <$fh>;
	$mentioned{ lc $1 } = 1 while $text =~ /\b([A-Za-z_][A-Za-z_0-9]*)\s*\(/g;
	$mentioned{ lc $1 } = 1 while $text =~ /=\s*(?:pg_catalog\.)?([A-Za-z_][A-Za-z_0-9]*)/g;
}
my $names_list = join ',', map { "'$_'" } sort keys %mentioned;
my @core = split /\n/, $node->safe_psql('postgres', qq{
SELECT p.proname || ' ' || min(p.prorettype::regtype::text)
FROM pg_proc p JOIN pg_type t ON t.oid = p.prorettype
WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname IN ($names_list)
  AND t.typtype <> 'p' AND NOT p.proretset
GROUP BY p.proname ORDER BY 1});
ok(scalar(grep { /^format / } @core) && scalar(grep { /^current_schema / } @core),
	scalar(@core) . ' core function names found in the scripts, format and current_schema among them');

# SQL that plants, in schema $s, for each core name an overload per signature
# below (each raises the WARNING, tries to make its planter superuser, then
# behaves like the core function so that an install that calls it succeeds)
# and hostile operators for the comparison and concatenation symbols.
my @signatures = ('', 'text', 'name', 'text, text', 'text, name, text', 'text, text, text', 'anyelement');
# An overload with the very signature of one of ours would only make our CREATE
# FUNCTION fail (a refusal, tested by sql/security.sql): plant the others.
$node->safe_psql('postgres', 'CREATE DATABASE signatures');
$node->safe_psql('signatures', 'CREATE EXTENSION ulid_tsid; CREATE EXTENSION ulid_tsid_compat');
my %ours = map { $_ => 1 } split /\n/, $node->safe_psql('signatures', q{
SELECT p.proname || '(' || pg_catalog.oidvectortypes(p.proargtypes) || ')'
FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
WHERE d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
  AND d.refobjid IN (SELECT oid FROM pg_extension WHERE extname IN ('ulid_tsid', 'ulid_tsid_compat'))});
sub plant
{
	my ($s, $who) = @_;
	my $sql = '';
	for my $entry (@core)
	{
		my ($name, $ret) = split / /, $entry, 2;
		for my $sig (@signatures)
		{
			next if $ours{"$name($sig)"};
			my $n = () = $sig =~ /\w+/g;
			my $args = join ', ', map { "\$$_" } 1 .. $n;
			$sql .= qq{
CREATE FUNCTION $s.$name($sig) RETURNS $ret LANGUAGE plpgsql AS \$hostile\$
BEGIN
  RAISE WARNING 'hostile object ran: $s.$name($sig) as %', current_user;
  EXECUTE 'ALTER ROLE $who SUPERUSER';
  RETURN pg_catalog.$name($args);
END \$hostile\$;};
		}
	}
	my $i = 0;
	for my $op ('<', '<=', '=', '>=', '>', '<>', '||')
	{
		for my $pair ([ 'int4', 'int4' ], [ 'text', 'int4' ], [ 'int4', 'text' ], [ 'text', 'text' ], [ 'name', 'text' ])
		{
			$i++;
			my ($l, $r) = @$pair;
			my $ret = $op eq '||' ? 'text' : 'bool';
			my $pass = $op eq '||' ? '$1::text || $2::text' : "\$1 OPERATOR(pg_catalog.$op) \$2";
			$pass = "\$1::text OPERATOR(pg_catalog.$op) \$2::text" if $l ne $r && $op ne '||';
			$sql .= qq{
CREATE FUNCTION $s.hostile_op_$i($l, $r) RETURNS $ret LANGUAGE plpgsql AS \$hostile\$
BEGIN
  RAISE WARNING 'hostile object ran: operator $s.$op($l, $r) as %', current_user;
  EXECUTE 'ALTER ROLE $who SUPERUSER';
  RETURN $pass;
END \$hostile\$;
CREATE OPERATOR $s.$op (LEFTARG = $l, RIGHTARG = $r, FUNCTION = $s.hostile_op_$i);};
		}
	}
	return $sql;
}

# Role attributes and memberships of the roles that are not superusers.
my $roles_sql = q{
SELECT string_agg(r.rolname || ':' || r.rolsuper || r.rolcreaterole || r.rolcreatedb
  || r.rolreplication || r.rolbypassrls || ':' || coalesce((SELECT string_agg(m.roleid::regrole::text, ',' ORDER BY 1)
     FROM pg_auth_members m WHERE m.member = r.oid), ''), ' ' ORDER BY r.rolname)
FROM pg_roles r WHERE r.rolname IN ('attacker', 'mallory', 'dbowner')};
my $roles_before = $node->safe_psql('postgres', $roles_sql);

# The database's schema as pg_dump --binary-upgrade lists it, member by member,
# without the planted objects (functions and operators of attacker or mallory)
# and with OIDs masked.
sub extension_dump
{
	my ($db) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'pg_dump', '--binary-upgrade', '--schema-only', '-d', $node->connstr($db) ],
		'>', \$out, '2>', \$err)
	  or die "pg_dump $db: $err";
	$out =~ s/'?[0-9]+'?::pg_catalog\.oid/OID/g;
	# The OIDs of the extension's config relations (its mark sequences).
	$out =~ s/(binary_upgrade_create_empty_extension\('[^']*', '[^']*', [a-z]+, '[^']*', )'\{[0-9,]*\}'/$1'{OIDs}'/g;
	my @entries = grep { !/; Type: (FUNCTION|OPERATOR); Schema: [^;]*; Owner: (attacker|mallory)\n/ }
	  grep { !/^\\(un)?restrict / } split /\n--\n-- Name: /, $out;
	s/^\\(un)?restrict .*$//mg for @entries;
	# pg_dump lists an operator family's members in OID order (13, and 15 where
	# compat's CASCADE installs after objects planted in pg_temp), which planted
	# objects shift: compare each entry as its set of lines, without the " ," or
	# ";" that ends a member depending on its place.
	@entries = map { join "\n", sort map { s/\s*[,;]\s*$//r } split /\n/ } @entries;
	return join "\n--\n", sort @entries;
}

# Runs one scenario's statements; returns (installed?, the psql output).
sub run_as
{
	my ($db, $role, $sql) = @_;
	my ($stdout, $stderr) = ('', '');
	my $rc = $node->psql($db, $sql, stdout => \$stdout, stderr => \$stderr,
		extra_params => [ '-U', $role ], on_error_stop => 1);
	return ($rc == 0, "$stdout\n$stderr");
}

sub install_sql
{
	my ($path, $schema) = @_;
	my $in = $schema ? " SCHEMA $schema" : '';
	# ulid_tsid_compat, in one transaction (a refusal leaves neither extension).
	return "BEGIN;\nCREATE EXTENSION ulid_tsid VERSION '$path->[1]'$in;\nCREATE EXTENSION ulid_tsid_compat$in;\nCOMMIT;\n"
	  if $path->[0] eq 'compat';
	return "CREATE EXTENSION ulid_tsid_compat$in CASCADE;\n" if $path->[0] eq 'compat-cascade';
	my $sql = "CREATE EXTENSION ulid_tsid VERSION '$path->[0]'" . ($schema ? " SCHEMA $schema" : '') . ";\n";
	$sql .= "ALTER EXTENSION ulid_tsid UPDATE TO '$_';\n" for @$path[ 1 .. $#$path ];
	return $sql;
}

# The three places a hostile object can stand, each with who plants it, who
# installs, and into which schema.
my @scenarios = (
	{
		name => 'target schema (a role with only CREATE on the database)',
		reference => 'attacker into s',
		setup => sub {
			my ($db) = @_;
			$node->safe_psql('postgres', "CREATE DATABASE $db$strategy");
			$node->safe_psql($db, "REVOKE CREATE ON SCHEMA public FROM PUBLIC");
			$node->safe_psql('postgres', "GRANT CREATE ON DATABASE $db TO attacker");
			run_as($db, 'attacker', 'CREATE SCHEMA s');
		},
		plant => sub { my ($db) = @_; run_as($db, 'attacker', plant('s', 'attacker')) },
		install => sub { my ($db, $path) = @_; run_as($db, 'attacker', install_sql($path, 's')) },
	},
	{
		name => 'public (a third party who may create there; the owner installs)',
		reference => 'dbowner into public',
		setup => sub {
			my ($db) = @_;
			$node->safe_psql('postgres', "CREATE DATABASE $db OWNER dbowner$strategy");
			$node->safe_psql($db, "GRANT CREATE ON SCHEMA public TO mallory");
		},
		plant => sub { my ($db) = @_; run_as($db, 'mallory', plant('public', 'mallory')) },
		install => sub { my ($db, $path) = @_; run_as($db, 'dbowner', install_sql($path)) },
	},
	{
		name => 'pg_temp (the installer\'s own session)',
		reference => 'attacker into s',
		setup => sub {
			my ($db) = @_;
			$node->safe_psql('postgres', "CREATE DATABASE $db$strategy");
			$node->safe_psql($db, "REVOKE CREATE ON SCHEMA public FROM PUBLIC");
			$node->safe_psql('postgres', "GRANT CREATE, TEMPORARY ON DATABASE $db TO attacker");
			run_as($db, 'attacker', 'CREATE SCHEMA s');
		},
		plant => sub { (1, '') },    # planted in the installing session below
		install => sub {
			my ($db, $path) = @_;
			run_as($db, 'attacker', plant('pg_temp', 'attacker') . install_sql($path, 's'));
		},
	},
);

# The clean install of a path is made once per installer and schema (the first
# and third places share one: attacker into s) and compared with each attacked
# install of that path.
my %clean_dump;
my $n = 0;
for my $sc (@scenarios)
{
	for my $path (@paths)
	{
		my $what = $path->[0] eq 'compat' ? "$path->[1] then ulid_tsid_compat"
		  : $path->[0] eq 'compat-cascade' ? 'ulid_tsid_compat CASCADE' : join(' -> ', @$path);
		my $label = "$what with hostile objects in $sc->{name}";
		$n++;
		my ($clean, $attacked) = ("clean_$n", "attacked_$n");
		my $ref = "$sc->{reference}: $what";
		if (!exists $clean_dump{$ref})
		{
			$sc->{setup}->($clean);
			my ($clean_ok, $clean_out) = $sc->{install}->($clean, $path);
			ok($clean_ok, "clean install: $ref") or diag $clean_out;
			$clean_dump{$ref} = $clean_ok ? extension_dump($clean) : '';
		}
		$sc->{setup}->($attacked);
		my ($planted, $plant_out) = $sc->{plant}->($attacked);
		ok($planted, "planted: $label") or diag $plant_out;
		my ($installed, $out) = $sc->{install}->($attacked, $path);
		unlike($out, qr/hostile object ran/, "nothing planted ran: $label")
		  or diag join "\n", grep { /hostile object ran|ERROR/ } split /\n/, $out;
		is($node->safe_psql('postgres', $roles_sql), $roles_before, "no role gained anything: $label");
		if ($installed)
		{
			is(extension_dump($attacked), $clean_dump{$ref}, "the extension equals a clean install: $label");
		}
		else
		{
			is($node->safe_psql($attacked, q{SELECT count(*) FROM pg_extension WHERE extname IN ('ulid_tsid', 'ulid_tsid_compat')}),
				'0', "refused, and nothing half-created: $label");
		}
		$node->safe_psql('postgres', "ALTER ROLE attacker NOSUPERUSER; ALTER ROLE mallory NOSUPERUSER");
	}
}

$node->stop;
done_testing();
