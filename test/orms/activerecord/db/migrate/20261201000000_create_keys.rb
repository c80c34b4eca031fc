# The extension and the tables with each key, through ActiveRecord's migrations.
# README activerecord-migration: begin
class CreateKeys < ActiveRecord::Migration[6.1]
  def change
    enable_extension "ulid_tsid"
    create_table :ulid_orders, id: :ulid, default: -> { "generate_ulid()" } do |t|
      t.text :item, null: false
      t.column :replaces, :ulid # a plain ulid column, may be NULL
    end
    create_table :ulid_lines do |t|
      t.references :ulid_order, type: :ulid, null: false, foreign_key: true
      t.text :note, null: false
    end
    create_table :tsid_orders, id: :tsid, default: -> { "generate_tsid()" } do |t|
      t.text :item, null: false
    end
    create_table :tsid_lines do |t|
      t.references :tsid_order, type: :tsid, null: false, foreign_key: true
      t.text :note, null: false
    end
    create_table :bigint_orders, id: :bigint, default: -> { "generate_tsid()" } do |t|
      t.text :item, null: false
    end
    create_table :bigint_lines do |t|
      t.references :bigint_order, null: false, foreign_key: true
      t.text :note, null: false
    end
    create_table :uuid_orders, id: :uuid, default: -> { "generate_uuidv7()" } do |t|
      t.text :item, null: false
    end
    create_table :uuid_lines do |t|
      t.references :uuid_order, type: :uuid, null: false, foreign_key: true
      t.text :note, null: false
    end
  end
end
# README activerecord-migration: end
