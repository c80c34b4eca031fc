# ActiveRecord's PostgreSQL adapter told the names of ulid_tsid's types (the
# README's ActiveRecord recipe): their values are Strings, as without it, but
# without the "unknown OID ... It will be treated as String" warning.
# README activerecord-types: begin
require "active_record/connection_adapters/postgresql_adapter"

module UlidTsidTypes
  def initialize_type_map(m = type_map)
    super
    %w[ulid tsid].each do |name|
      m.register_type(name, ActiveRecord::ConnectionAdapters::PostgreSQL::OID::SpecializedString.new(name.to_sym))
    end
  end
end
ActiveRecord::ConnectionAdapters::PostgreSQLAdapter.prepend(UlidTsidTypes)
# README activerecord-types: end
