# ulid_tsid_compat: pg_uuidv7's and pgx_ulid's function names as aliases.
# pg_uuidv7's own regression queries (test/sql/00[2-6]*.sql of its source, from
# ../shared/vendor: never copied here) run against the aliases and must print
# its expected output; the aliases agree with pg_uuidv7 itself (built from the
# same source and loaded in public beside them) and with pgx_ulid's published
# vector; the extension installs beside a type or function of the same names.
use strict;
use warnings;
use Cwd qw(realpath);
use File::Basename qw(dirname);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $root = realpath(dirname(__FILE__) . '/../..');
my $node = PostgreSQL::Test::Cluster->new('compat');
$node->init;
$node->start;
sub q1 { my ($db, $sql) = @_; return $node->safe_psql($db, $sql) }
$node->safe_psql('postgres', 'CREATE DATABASE compat; CREATE DATABASE beside; CREATE DATABASE other_ulid; CREATE ROLE owner_role LOGIN');

# Installed by a role that is not a superuser (both are trusted), into public.
q1('postgres', 'GRANT CREATE ON DATABASE compat TO owner_role');
my ($rc, $out, $err) = $node->psql('compat', 'CREATE EXTENSION ulid_tsid_compat CASCADE',
	extra_params => [ '-U', 'owner_role' ]);
is($rc, 0, 'CREATE EXTENSION ulid_tsid_compat CASCADE by a role with CREATE on the database') or diag $err;
is(q1('compat', q{SELECT string_agg(extname || ' ' || extversion, ', ' ORDER BY extname) FROM pg_extension WHERE extname LIKE 'ulid%'}),
	'ulid_tsid 0.4.0, ulid_tsid_compat 0.4.0', 'both extensions are there');

# pgx_ulid's names and its published vector.
is(q1('compat', q{SELECT pg_typeof(gen_ulid()), pg_typeof(gen_monotonic_ulid()),
  '01GV5PA9EQG7D82Q3Y4PKBZSYV'::ulid::uuid, '0186cb65-25d7-81da-815c-7e25a6bfe7db'::uuid::ulid}),
	'ulid|ulid|0186cb65-25d7-81da-815c-7e25a6bfe7db|01GV5PA9EQG7D82Q3Y4PKBZSYV', 'pgx_ulid: gen_ulid() and gen_monotonic_ulid() return ulid; its vector');
is(q1('compat', q{SELECT bool_and(a < b) FROM (SELECT u AS a, lead(u) OVER (ORDER BY n) AS b FROM
  (SELECT n, gen_monotonic_ulid() AS u FROM generate_series(1, 10000) n) s) t WHERE b IS NOT NULL}), 't',
	'pgx_ulid: gen_monotonic_ulid() strictly increases');
is(q1('compat', q{SELECT abs(extract(epoch FROM ulid_timestamp(gen_ulid()) - now())) < 60,
  abs(extract(epoch FROM uuid_v7_to_timestamptz(uuid_generate_v7()) - now())) < 60, uuid_extract_version(uuid_generate_v7())}),
	't|t|7', 'the generators write now');

# pg_uuidv7's own regression queries against the aliases.
my $vendor = "$root/../shared/vendor/pg_uuidv7-1.6.0.tar.gz";
SKIP:
{
	skip "pg_uuidv7's source: $vendor is not there", 11 unless -f $vendor;
	my $dir = "$ENV{TESTDIR}/vendor-compat";
	mkdir $dir;
	my $log = '';
	IPC::Run::run([ 'tar', '-xzf', $vendor, '-C', $dir ], '>&', \$log) or BAIL_OUT("tar: $log");
	my $src = "$dir/pg_uuidv7-1.6.0";
	for my $sql (sort glob "$src/test/sql/00[2-6]*.sql")
	{
		(my $name = $sql) =~ s{.*/(.*)\.sql$}{$1};
		my $got = '';
		IPC::Run::run([ 'psql', '-X', '-a', '-q', '-d', $node->connstr('compat') ], '<', $sql, '>&', \$got);
		my $want = do { open my $fh, '<', "$src/test/expected/$name.out" or die $!; local $/; <$fh> };
		is($got, $want, "pg_uuidv7's test $name prints its expected output against the aliases");
	}
	# pg_uuidv7 itself in public, ulid_tsid and the aliases beside it.
	IPC::Run::run([ 'make', '-C', $src, 'with_llvm=no' ], '>&', \$log) or BAIL_OUT("make pg_uuidv7: $log");
	my $script = do { open my $fh, '<', "$src/sql/pg_uuidv7--1.6.sql" or die $!; local $/; <$fh> };
	$script =~ s/^\\echo.*$//mg;
	$script =~ s/'MODULE_PATHNAME'/'$src\/pg_uuidv7.so'/g;
	q1('beside', $script);
	($rc, $out, $err) = $node->psql('beside', "CREATE EXTENSION ulid_tsid;\n\\set VERBOSITY verbose\nCREATE EXTENSION ulid_tsid_compat");
	like($err, qr/ERROR:  42723: ulid_tsid_compat cannot be created in schema public: function public\.uuid_generate_v7\(\) already exists \(a function in language c that belongs to no extension\)/,
		'in the schema of pg_uuidv7\'s functions: 42723 names the first one');
	like($err, qr/HINT:  Create it in a schema of its own, beside the original/, '... and the hint says where to put it');
	($rc, $out, $err) = $node->psql('beside', 'CREATE SCHEMA compat; CREATE EXTENSION ulid_tsid_compat SCHEMA compat');
	is($rc, 0, 'installs beside pg_uuidv7\'s functions, in a schema of its own') or diag $err;
	is(q1('beside', q{SELECT count(*) FROM pg_proc WHERE proname = 'uuid_generate_v7'}), '2', 'both uuid_generate_v7() are there');
	is(q1('beside', q{WITH v AS (SELECT public.uuid_generate_v7() AS u FROM generate_series(1, 500)
    UNION ALL SELECT compat.uuid_generate_v7() FROM generate_series(1, 500)
    UNION ALL SELECT public.uuid_timestamptz_to_v7(t) FROM (VALUES ('1970-01-01Z'::timestamptz), ('2023-01-02 04:26:40.637Z'),
      ('2999-12-31 23:59:59.999999Z')) x(t))
  SELECT count(*) FILTER (WHERE public.uuid_v7_to_timestamptz(u) = compat.uuid_v7_to_timestamptz(u)
    AND public.uuid_v7_to_timestamp(u) = compat.uuid_v7_to_timestamp(u)) FROM v}), '1003',
		'uuid_v7_to_timestamptz() and uuid_v7_to_timestamp() read what pg_uuidv7 reads, from either generator');
	is(q1('beside', q{SELECT count(*) FILTER (WHERE public.uuid_timestamptz_to_v7(t, true) = compat.uuid_timestamptz_to_v7(t, true)
    AND public.uuid_timestamp_to_v7(t::timestamp, true) = compat.uuid_timestamp_to_v7(t::timestamp, true)
    AND public.uuid_v7_to_timestamptz(compat.uuid_timestamptz_to_v7(t)) = public.uuid_v7_to_timestamptz(public.uuid_timestamptz_to_v7(t)))
  FROM (SELECT '2020-01-01Z'::timestamptz + n * interval '13 days 1.234567 s' AS t FROM generate_series(0, 999) n) s}), '1000',
		'uuid_timestamptz_to_v7() and uuid_timestamp_to_v7(): zero bits equal pg_uuidv7\'s, random ones carry the same time');
}

# Beside another ulid type and gen_ulid() (pgx_ulid's or pg-ulid's names).
q1('other_ulid', q{CREATE DOMAIN public.ulid AS text;
CREATE FUNCTION public.gen_ulid() RETURNS public.ulid LANGUAGE sql AS $$SELECT '01GV5PA9EQG7D82Q3Y4PKBZSYV'::public.ulid$$;
CREATE SCHEMA keys; CREATE EXTENSION ulid_tsid SCHEMA keys; CREATE SCHEMA compat; CREATE EXTENSION ulid_tsid_compat SCHEMA compat;});
is(q1('other_ulid', q{SELECT pg_typeof(public.gen_ulid()), pg_typeof(compat.gen_ulid()), pg_typeof(compat.gen_monotonic_ulid())}),
	'ulid|keys.ulid|keys.ulid', 'beside another ulid type, the aliases return ulid_tsid\'s');

# Trusted: the script runs as the bootstrap superuser. Hostile objects under
# the names it uses (and a type ulid), planted in the target schema by the
# role that installs there, never run.
q1('postgres', 'CREATE DATABASE hostile; CREATE ROLE attacker LOGIN; GRANT CREATE ON DATABASE hostile TO attacker');
my $plant = q{CREATE SCHEMA s;
CREATE TYPE s.ulid AS (a int);
CREATE FUNCTION s.timezone(text, timestamptz) RETURNS timestamp LANGUAGE plpgsql AS $h$
BEGIN RAISE WARNING 'hostile object ran'; RETURN pg_catalog.timezone($1, $2); END $h$;
CREATE FUNCTION s.format(text, name, text, text) RETURNS text LANGUAGE plpgsql AS $h$
BEGIN RAISE WARNING 'hostile object ran'; RETURN pg_catalog.format($1, $2, $3, $4); END $h$;
CREATE FUNCTION s.format(text, text, text, text) RETURNS text LANGUAGE plpgsql AS $h$
BEGIN RAISE WARNING 'hostile object ran'; RETURN pg_catalog.format($1, $2, $3, $4); END $h$;
CREATE FUNCTION s.hostile_eq(name, text) RETURNS bool LANGUAGE plpgsql AS $h$
BEGIN RAISE WARNING 'hostile object ran'; RETURN $1::text OPERATOR(pg_catalog.=) $2; END $h$;
CREATE OPERATOR s.= (LEFTARG = name, RIGHTARG = text, FUNCTION = s.hostile_eq);};
($rc, $out, $err) = $node->psql('hostile', $plant . q{
CREATE SCHEMA keys; CREATE EXTENSION ulid_tsid SCHEMA keys; CREATE EXTENSION ulid_tsid_compat SCHEMA s;
SET search_path = s, keys;
SELECT pg_typeof(s.gen_ulid()), s.uuid_v7_to_timestamp('018570bb-4a7d-7000-8000-000000000000'),
  s.uuid_timestamp_to_v7('2023-01-02 04:26:40.637', true);}, extra_params => [ '-U', 'attacker' ]);
is($rc, 0, 'installed by a role that planted objects in the target schema') or diag $err;
unlike($err, qr/hostile object ran/, 'nothing planted ran (at install or in the aliases\' bodies)');
like($out, qr/^keys\.ulid\|2023-01-02 04:26:40\.637\|018570bb-4a7d-7000-8000-000000000000$/m, 'the aliases use ulid_tsid\'s type and pg_catalog\'s functions');
is(q1('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'attacker'}), 'f', 'the planter gained nothing');

$node->stop;
done_testing();
