# ActiveRecord (Debian's ruby-activerecord, ruby-pg: 6.1 on bookworm, 7.2 on trixie and
# sid) against ulid_tsid's keys: the tables made by migrations (db/migrate), a key the
# database makes read back by the INSERT's RETURNING, finds, joins, keyset pages, a time
# window through a SQL fragment with its index, JSON round trips, a ulid column beside
# the key that the database fills (read back by RETURNING from 7.1 on), the schema dump
# (schema.rb and structure.sql), and the edge cases. Prints "ok N" / "not ok N" lines
# (scripts/suites/orms.sh counts them).
#   PGHOST=... PGPORT=... PGUSER=... PGDATABASE=... ruby activerecord_orm.rb
require "active_record"
require "json"
require "stringio"
require "tmpdir"

$count = 0
$failed = 0
def ok(cond, what, detail = nil)
  $count += 1
  if cond
    puts "ok #{$count} - activerecord: #{what}"
  else
    $failed += 1
    puts "not ok #{$count} - activerecord: #{what}"
    puts "#   got: #{detail.inspect[0, 2000]}" unless detail.nil?
  end
  $stdout.flush
  cond
end

def run(what)
  yield
rescue StandardError => e
  ok(false, what, "#{e.class}: #{e.message}")
end

def sqlstate(err)
  err.cause.respond_to?(:result) && err.cause.result ? err.cause.result.error_field(PG::PG_DIAG_SQLSTATE) : nil
end

DB = { adapter: "postgresql", host: ENV["PGHOST"], port: ENV["PGPORT"], username: ENV["PGUSER"],
       database: ENV["PGDATABASE"] }.freeze
ActiveRecord::Base.establish_connection(DB)
ActiveRecord::Migration.verbose = false

# README activerecord-models: begin
class UlidOrder < ActiveRecord::Base
  has_many :ulid_lines
end

class UlidLine < ActiveRecord::Base
  belongs_to :ulid_order
end
# README activerecord-models: end

class TsidOrder < ActiveRecord::Base
  has_many :tsid_lines
end

class TsidLine < ActiveRecord::Base
  belongs_to :tsid_order
end

class BigintOrder < ActiveRecord::Base
  has_many :bigint_lines
end

class BigintLine < ActiveRecord::Base
  belongs_to :bigint_order
end

class UuidOrder < ActiveRecord::Base
  has_many :uuid_lines
end

class UuidLine < ActiveRecord::Base
  belongs_to :uuid_order
end

class Ticket < ActiveRecord::Base
end

def conn
  ActiveRecord::Base.connection
end

def captured_stderr
  saved = $stderr
  $stderr = StringIO.new
  yield
  $stderr.string
ensure
  $stderr = saved
end

UUIDV7 = /\A\h{8}-\h{4}-7\h{3}-[89ab]\h{3}-\h{12}\z/.freeze
KINDS = [
  ["ulid", UlidOrder, UlidLine, :ulid_lines, "generate_ulid()", "ulid_timestamp(id)", ->(v) { v.is_a?(String) && v.size == 26 }],
  ["tsid", TsidOrder, TsidLine, :tsid_lines, "generate_tsid()", "tsid_timestamp(id)", ->(v) { v.is_a?(String) && v.size == 13 }],
  ["bigint", BigintOrder, BigintLine, :bigint_lines, "generate_tsid()", "tsid_timestamp(id::tsid)", ->(v) { v.is_a?(Integer) && v.positive? }],
  ["uuid", UuidOrder, UuidLine, :uuid_lines, "generate_uuidv7()", "uuidv7_timestamp(id)", ->(v) { v.is_a?(String) && UUIDV7.match?(v) }]
].freeze

def at_least(version)
  ActiveRecord.version >= Gem::Version.new(version)
end

# ActiveRecord 7.1 made the schema_migrations table the connection pool's (no argument);
# 6.1 takes the class.
def migration_context
  path = File.join(__dir__, "db/migrate")
  at_least("7.1") ? ActiveRecord::MigrationContext.new(path) : ActiveRecord::MigrationContext.new(path, ActiveRecord::SchemaMigration)
end

def check_migration
  migration_context.migrate
  ok(conn.select_values("SELECT extname FROM pg_extension WHERE extname = 'ulid_tsid'") == ["ulid_tsid"],
     "the migration makes the tables (enable_extension included)")
end

def check_unknown_oid_warning
  # Before the recipe's module: each type is an "unknown OID", read as a String, with a warning.
  warned = captured_stderr { UlidOrder.first; TsidOrder.first }
  ok(warned.scan(/unknown OID \d+: failed to recognize type of 'id'. It will be treated as String./).size == 2,
     "without the recipe's types the adapter warns of an unknown OID for ulid and tsid (and reads Strings)", warned)
  # Nor can schema.rb express them: it skips those tables and keeps their foreign keys.
  skipped = schema_rb.scan(/^# Could not dump table "(\w+)" because of following StandardError$/).flatten.sort
  ok(skipped == %w[tickets tsid_lines tsid_orders ulid_lines ulid_orders] &&
     schema_rb.include?('add_foreign_key "ulid_lines", "ulid_orders"'),
     "without them schema.rb cannot dump the ulid and tsid tables (yet keeps their foreign keys)", skipped)
  require_relative "ulid_tsid_types"
  ActiveRecord::Base.connection_pool.disconnect!
  [UlidOrder, TsidOrder].each(&:reset_column_information)
  warned = captured_stderr { UlidOrder.first; TsidOrder.first }
  ok(warned.empty? && UlidOrder.columns_hash["id"].type == :ulid && TsidOrder.columns_hash["id"].type == :tsid,
     "with them, no warning and the columns' type is :ulid and :tsid", warned)
end

def check_usage
  since = conn.select_value("SELECT now() - interval '1 hour'")
  # README activerecord-usage: begin
  order = UlidOrder.create!(item: "book")        # INSERT ... RETURNING "id"
  order.ulid_lines.create!(note: "gift wrap")
  found = UlidOrder.find(order.id)               # order.id: "01M8...", the database's key
  next_page = UlidOrder.where(UlidOrder.arel_table[:id].gt(order.id)).order(:id).limit(50)
  recent = UlidOrder.where("ulid_timestamp(id) >= ?", since)   # the key's index
  # README activerecord-usage: end
  ok(found == order && order.id.is_a?(String) && order.id.size == 26,
     "the README's usage lines: the key comes back and finds the row", order.id)
  ok(next_page.to_a.empty? && recent.include?(order) && found.ulid_lines.map(&:note) == ["gift wrap"],
     "the README's usage lines: the keyset page, the time window and the lines", recent.to_a)
end

# A ulid column that is not the key, with DEFAULT generate_ulid(): 7.1 and later put
# every column with a default function in the INSERT's RETURNING; 6.1 returns the key
# only, and the record holds nil until a reload.
def check_public_id
  sent = []
  sub = ActiveSupport::Notifications.subscribe("sql.active_record") { |*, p| sent << p[:sql] unless p[:name] == "SCHEMA" }
  # README activerecord-public-id-usage: begin
  ticket = Ticket.create!(title: "refund")   # INSERT ... RETURNING "id", "public_id"
  public_id = ticket.public_id               # "01M8...", the database's (6.1: nil until ticket.reload)
  # README activerecord-public-id-usage: end
  ActiveSupport::Notifications.unsubscribe(sub)
  insert = sent.grep(/INSERT/)
  db_value = conn.select_value("SELECT public_id::text FROM tickets WHERE id = #{ticket.id.to_i}")
  if at_least("7.1")
    ok(public_id.is_a?(String) && public_id == db_value && insert.size == 1 && insert[0].include?('RETURNING "id", "public_id"'),
       "7.1 and later: create! reads back the ulid column the database filled (RETURNING \"id\", \"public_id\")",
       [public_id, db_value, insert])
  else
    ok(public_id.nil? && insert.size == 1 && insert[0].include?('RETURNING "id"') && !insert[0].include?("public_id"),
       "6.1: create! returns the key only: the ulid column the database filled is nil", [public_id, insert])
  end
  ok(ticket.reload.public_id == db_value && db_value.size == 26, "reload reads the ulid column the database filled",
     [ticket.public_id, db_value])
end

def check_kind(kind, order_class, line_class, lines, generator, timefn, value_ok)
  table = order_class.table_name
  col = conn.select_rows("SELECT udt_name, column_default FROM information_schema.columns" \
                         " WHERE table_name = '#{table}' AND column_name = 'id'")
  ok(col == [[kind == "bigint" ? "int8" : kind, generator]], "#{kind}: the migration gives #{table}.id the type and DEFAULT #{generator}", col)
  fk = conn.select_values("SELECT confrelid::regclass::text FROM pg_constraint" \
                          " WHERE conrelid = '#{line_class.table_name}'::regclass AND contype = 'f'")
  ok(fk == [table], "#{kind}: #{line_class.table_name} has a foreign key to #{table}", fk)

  # (2) insert without a key: the database's key comes back from the INSERT's RETURNING
  sent = []
  sub = ActiveSupport::Notifications.subscribe("sql.active_record") { |*, p| sent << p[:sql] unless p[:name] == "SCHEMA" }
  order = order_class.create!(item: "#{kind} book")
  ActiveSupport::Notifications.unsubscribe(sub)
  inserts = sent.grep(/INSERT/)
  ok(inserts.size == 1 && inserts[0].include?('RETURNING "id"') && !inserts[0].include?('("id"'),
     "#{kind}: create! is one INSERT without the key ... RETURNING \"id\"", sent)
  ok(value_ok.call(order.id), "#{kind}: create! reads back the key the database made (#{order.id.class})", order.id)
  db_key = conn.select_value("SELECT id FROM #{table} WHERE item = '#{kind} book'")
  ok(db_key.to_s == order.id.to_s, "#{kind}: the key read back is the row's", [db_key, order.id])

  # (3) find by key, join, keyset pages, a time window with its index
  ok(order_class.find(order.id).item == "#{kind} book", "#{kind}: find finds it by its #{order.id.class}")
  if kind == "tsid"
    as_int = conn.select_value("SELECT '#{order.id}'::tsid::bigint").to_i
    ok(order_class.where("id = ?::bigint", as_int).pick(:id) == order.id,
       "tsid: where('id = ?::bigint', integer) finds it too (tsid = bigint)")
    # 6.1 writes an Integer into a SQL fragment bare; 7.2 sends it as a parameter, whose
    # type the server takes from the column: tsid, which refuses decimal text.
    begin
      found = order_class.where("id = ?", as_int).pick(:id)
      ok(!at_least("7.2") && found == order.id, "tsid: where('id = ?', integer) finds it on 6.1, is 22P02 on 7.2", found)
    rescue ActiveRecord::StatementInvalid => e
      ok(at_least("7.2") && sqlstate(e) == "22P02", "tsid: where('id = ?', integer) finds it on 6.1, is 22P02 on 7.2", sqlstate(e))
    end
    begin
      order_class.find(as_int)
      ok(false, "tsid: find(integer) sends its decimal text, which tsid refuses: 22P02", "no error")
    rescue ActiveRecord::StatementInvalid => e
      ok(sqlstate(e) == "22P02", "tsid: find(integer) sends its decimal text, which tsid refuses: 22P02", sqlstate(e))
    end
  end
  if kind == "ulid"
    as_uuid = conn.select_value("SELECT '#{order.id}'::ulid::uuid::text")
    ok(order_class.where("id = ?::uuid", as_uuid).pick(:id) == order.id, "ulid: where('id = ?::uuid', uuid) finds it too (ulid = uuid)")
  end
  line = order.public_send(lines).create!(note: "first line")
  fk_value = line.public_send("#{order_class.name.underscore}_id")
  ok(fk_value == order.id, "#{kind}: a line's foreign key holds the order's key", [fk_value, order.id])
  joined = line_class.joins(order_class.name.underscore.to_sym).where(table => { id: order.id }).pluck(:note, "#{table}.item")
  ok(joined == [["first line", "#{kind} book"]], "#{kind}: joins(:order) joins line to order", joined)
  ok(order_class.find(order.id).public_send(lines).map(&:note) == ["first line"], "#{kind}: has_many loads the lines")

  4.times { |i| order_class.create!(item: "#{kind} page #{i}") }
  every = order_class.order(:id).pluck(:id)
  pages = []
  last = nil
  loop do
    page = order_class.order(:id).limit(2)
    page = page.where(order_class.arel_table[:id].gt(last)) unless last.nil?
    keys = page.pluck(:id)
    break if keys.empty?

    pages << keys
    last = keys.last
  end
  ok(pages.flatten == every && every.size == 5 && pages.size == 3,
     "#{kind}: keyset pages where(arel id > last).order(:id).limit(2) walk all 5 rows in key order", pages)

  now = conn.select_value("SELECT now()")
  window = order_class.where("#{timefn} >= ? AND #{timefn} < ?", now - 60, now + 60)
  ok(window.count == 5, "#{kind}: the time window on #{timefn} through where(sql) holds the 5 rows", window.count)
  conn.execute("SET enable_seqscan = off")
  plan = window.explain
  plan = plan.inspect unless plan.is_a?(String)   # 7.1's explain returns a proxy that prints the plan
  conn.execute("RESET enable_seqscan")
  ok(plan.include?("Index") && plan.include?("#{table}_pkey"), "#{kind}: the time window's plan uses the key's index", plan)

  # (4) serialisation: as_json / to_json and back
  text = order.reload.to_json
  back = JSON.parse(text)
  db_json = conn.select_value("SELECT to_json(id)::text FROM #{table} WHERE id = '#{order.id}'")
  ok(back["id"] == JSON.parse("[#{db_json}]")[0], "#{kind}: to_json's key is what PostgreSQL's to_json(id) gives", [text, db_json])
  again = order_class.find(back["id"])
  ok(again == order && again.to_json == text && order_class.new(back).attributes == order.attributes,
     "#{kind}: to_json -> JSON.parse -> find and new give the same record", back)
end

def schema_rb
  io = StringIO.new
  ActiveRecord::SchemaDumper.dump(at_least("7.2") ? ActiveRecord::Base.connection_pool : conn, io)   # 7.2 takes the pool
  io.string
end

def check_schema_dump
  dump = schema_rb
  skipped = dump.scan(/^# Could not dump table "(\w+)" because of following StandardError\n#   (.*)$/)
  skipped.each { |t, why| puts "# schema.rb: table #{t} not dumped: #{why}" }
  ok(skipped.empty? && dump.include?('enable_extension "ulid_tsid"'),
     "with the recipe's types, schema.rb dumps every table (and enable_extension \"ulid_tsid\")", skipped)
  want = ['create_table "ulid_orders", id: :ulid, default: -> { "generate_ulid()" }', 't.ulid "replaces"',
          't.ulid "ulid_order_id", null: false', 'create_table "tsid_orders", id: :tsid, default: -> { "generate_tsid()" }',
          't.tsid "tsid_order_id", null: false', 't.ulid "public_id", default: -> { "generate_ulid()" }, null: false',
          'add_foreign_key "ulid_lines", "ulid_orders"', 'add_foreign_key "tsid_lines", "tsid_orders"']
  ok(want.all? { |line| dump.include?(line) },
     "schema.rb writes the ulid and tsid keys (id: :ulid, id: :tsid) with their DEFAULT, t.ulid and t.tsid columns",
     [want.reject { |line| dump.include?(line) }, dump.lines.grep(/ulid|tsid/)])
  ok(dump.include?('create_table "bigint_orders", id: :bigint, default: -> { "generate_tsid()" }') &&
     dump.include?('create_table "uuid_orders", id: :uuid, default: -> { "generate_uuidv7()" }'),
     "schema.rb dumps the bigint and uuid tables with their DEFAULT", dump.lines.grep(/create_table/))

  file = File.join(ENV.fetch("ORMS_TMP", Dir.tmpdir), "structure-#{Process.pid}.sql")
  ActiveRecord::Tasks::DatabaseTasks.structure_dump(ActiveRecord::Base.connection_db_config, file)
  sql = File.read(file)
  ok(sql.include?("CREATE EXTENSION IF NOT EXISTS ulid_tsid") &&
     sql =~ /id public\.ulid DEFAULT public\.generate_ulid\(\) NOT NULL/ &&
     sql =~ /ulid_order_id public\.ulid NOT NULL/ && sql.include?("REFERENCES public.ulid_orders(id)"),
     "structure.sql (pg_dump) has the extension, the ulid key with its DEFAULT and the foreign key",
     sql.lines.grep(/ulid/))
  check_loads(dump, file)
ensure
  File.delete(file) if file && File.exist?(file)
end

# The columns of a database's tables, as the server describes them.
COLUMNS_SQL = "SELECT table_name, column_name, udt_name, column_default, is_nullable FROM information_schema.columns" \
              " WHERE table_schema = 'public' AND table_name <> 'ar_internal_metadata' AND table_name <> 'schema_migrations'" \
              " ORDER BY 1, 2".freeze
CONSTRAINTS_SQL = "SELECT conrelid::regclass::text, contype, pg_get_constraintdef(oid) FROM pg_constraint" \
                  " WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2, 3".freeze
INDEXES_SQL = "SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> 'ar_internal_metadata'" \
              " AND tablename <> 'schema_migrations' ORDER BY 1".freeze

def described
  [COLUMNS_SQL, CONSTRAINTS_SQL, INDEXES_SQL].map { |q| conn.select_rows(q) }
end

# schema.rb and structure.sql loaded into empty databases, as db:schema:load would: each
# gives the tables the migrations made, and their keys work.
def check_loads(schema_rb, structure_sql)
  base = ActiveRecord::Base.connection_db_config.configuration_hash
  migrated = described
  from_rb = "#{base[:database]}_schema_rb"
  from_sql = "#{base[:database]}_structure_sql"
  [from_rb, from_sql].each { |db| conn.drop_database(db); conn.create_database(db) }
  begin
    ActiveRecord::Base.establish_connection(base.merge(database: from_rb))
    ActiveRecord::Schema.verbose = false
    eval(schema_rb) # rubocop:disable Security/Eval
    loaded = described
    ok(loaded == migrated, "schema.rb loads into an empty database with the migrated tables' columns, types, DEFAULTs, constraints and indexes",
       { only_loaded: loaded.zip(migrated).map { |l, m| l - m }, only_migrated: migrated.zip(loaded).map { |m, l| m - l } })
    order = conn.select_value("INSERT INTO tsid_orders (item) VALUES ('x') RETURNING id::text")
    line = conn.select_value("INSERT INTO tsid_lines (tsid_order_id, note) VALUES ('#{order}', 'y') RETURNING tsid_order_id::text")
    ok(order.is_a?(String) && order.size == 13 && line == order, "in it, the tsid key's DEFAULT and its foreign key work", [order, line])
    conn.change_table(:tickets) { |t| t.tsid :legacy_ref }
    ok(conn.select_value("SELECT udt_name FROM information_schema.columns WHERE table_name = 'tickets' AND column_name = 'legacy_ref'") == "tsid",
       "change_table's t.tsid adds a tsid column")
  ensure
    ActiveRecord::Base.establish_connection(base)
  end
  config = ActiveRecord::DatabaseConfigurations::HashConfig.new("orms", "primary", base.merge(database: from_sql))
  ActiveRecord::Tasks::DatabaseTasks.structure_load(config, structure_sql)
  loaded = PG.connect(dbname: from_sql)
  default = loaded.exec("SELECT column_default FROM information_schema.columns" \
                        " WHERE table_name = 'ulid_orders' AND column_name = 'id'").values
  made = loaded.exec("INSERT INTO ulid_orders (item) VALUES ('x') RETURNING length(id::text)").values
  loaded.close
  ok(default.flatten.map { |d| d.delete_prefix("public.") } == ["generate_ulid()"] && made == [["26"]],
     "structure.sql loads (psql) into an empty database: the ulid key and its DEFAULT work", [default, made])
end

def check_edges
  first = UlidOrder.create!(item: "no predecessor")
  ok(UlidOrder.find(first.id).replaces.nil? && UlidOrder.where(replaces: nil, id: first.id).exists?,
     "a NULL ulid column reads as nil and where(replaces: nil) finds it")
  second = UlidOrder.create!(item: "successor", replaces: first.id)
  ok(UlidOrder.find(second.id).replaces == first.id, "a ulid column stores and reads a ulid's text")
  given = conn.select_value("SELECT generate_ulid()::text")
  ok(UlidOrder.create!(id: given, item: "given").id == given && UlidOrder.exists?(given), "a key the application gives is inserted as given")
  [["find('not a ulid')", -> { UlidOrder.find("not a ulid") }],
   ["create!(replaces: '01ARZ3NDEKTSV4RRFFQ69G5FAU') (U is not Crockford)",
    -> { UlidOrder.create!(item: "x", replaces: "01ARZ3NDEKTSV4RRFFQ69G5FAU") }],
   ["tsid find('12345') (decimal text)", -> { TsidOrder.find("12345") }]].each do |what, fn|
    fn.call
    ok(false, "#{what} is ActiveRecord::StatementInvalid with 22P02", "no error")
  rescue ActiveRecord::StatementInvalid => e
    ok(sqlstate(e) == "22P02" && e.cause.is_a?(PG::InvalidTextRepresentation),
       "#{what} is ActiveRecord::StatementInvalid with 22P02", sqlstate(e))
  end
  ok(UlidOrder.exists?(first.id), "the connection works after those errors")
  begin
    UuidOrder.find("not a uuid")
    ok(false, "uuid: find('not a uuid') is RecordNotFound (the uuid type casts bad text to nil)", "no error")
  rescue ActiveRecord::RecordNotFound
    ok(true, "uuid: find('not a uuid') is RecordNotFound (the uuid type casts bad text to nil)")
  end
end

begin
  run("the migration") { check_migration }
  run("the unknown-OID checks") { check_unknown_oid_warning }
  KINDS.each { |kind| run("#{kind[0]}: the checks ran") { check_kind(*kind) } }
  run("the README's usage lines ran") { check_usage }
  run("the public_id checks ran") { check_public_id }
  run("the schema dumps") { check_schema_dump }
  run("the edge cases ran") { check_edges }
rescue StandardError, ScriptError => e
  ok(false, "the program ran to its end", "#{e.class}: #{e.message}\n#{e.backtrace.first(5).join("\n")}")
end
puts "1..#{$count}"
exit($failed.zero? ? 0 : 1)
