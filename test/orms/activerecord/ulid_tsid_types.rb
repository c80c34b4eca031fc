# ActiveRecord's PostgreSQL adapter told the names of ulid_tsid's types (the
# docs' ActiveRecord recipe): their values are Strings, as without it, but
# without the "unknown OID ... It will be treated as String" warning, and
# schema.rb dumps and loads ulid and tsid columns (id: :ulid, t.ulid, t.tsid).
# README activerecord-types: begin
require "active_record/connection_adapters/postgresql_adapter"

module UlidTsidTypes
  NAMES = { ulid: { name: "ulid" }, tsid: { name: "tsid" } }.freeze

  def initialize_type_map(m = type_map)
    super
    NAMES.each_key do |name|
      m.register_type(name.to_s, ActiveRecord::ConnectionAdapters::PostgreSQL::OID::SpecializedString.new(name))
    end
  end

  # What schema.rb may write: a type missing here is "Unknown type" to its dumper.
  def native_database_types
    @ulid_tsid_native_types ||= super.merge(NAMES)
  end
end
ActiveRecord::ConnectionAdapters::PostgreSQLAdapter.prepend(UlidTsidTypes)
# t.ulid / t.tsid in create_table and change_table, as schema.rb writes them
[ActiveRecord::ConnectionAdapters::PostgreSQL::TableDefinition, ActiveRecord::ConnectionAdapters::PostgreSQL::Table].each do |k|
  k.send(:define_column_methods, *UlidTsidTypes::NAMES.keys)
end
# README activerecord-types: end
