# A table with a bigint key and a ulid column beside it that the database fills:
# ActiveRecord 7.1 and later read such a column back in the INSERT's RETURNING.
# README activerecord-public-id: begin
class CreateTickets < ActiveRecord::Migration[6.1]
  def change
    create_table :tickets do |t|
      t.column :public_id, :ulid, null: false, default: -> { "generate_ulid()" }, index: { unique: true }
      t.text :title, null: false
    end
  end
end
# README activerecord-public-id: end
