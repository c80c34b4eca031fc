CREATE TABLE "ulid_parent" (
	"id" "ulid" PRIMARY KEY DEFAULT generate_ulid() NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ulid_child" (
	"id" "ulid" PRIMARY KEY DEFAULT generate_ulid() NOT NULL,
	"parent_id" "ulid",
	"note" text
);
--> statement-breakpoint
CREATE TABLE "tsid_parent" (
	"id" "tsid" PRIMARY KEY DEFAULT generate_tsid() NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tsid_child" (
	"id" "tsid" PRIMARY KEY DEFAULT generate_tsid() NOT NULL,
	"parent_id" "tsid",
	"note" text
);
--> statement-breakpoint
CREATE TABLE "bigint_parent" (
	"id" bigint PRIMARY KEY DEFAULT generate_tsid() NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bigint_child" (
	"id" bigint PRIMARY KEY DEFAULT generate_tsid() NOT NULL,
	"parent_id" bigint,
	"note" text
);
--> statement-breakpoint
CREATE TABLE "uuid_parent" (
	"id" uuid PRIMARY KEY DEFAULT generate_uuidv7() NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uuid_child" (
	"id" uuid PRIMARY KEY DEFAULT generate_uuidv7() NOT NULL,
	"parent_id" uuid,
	"note" text
);
--> statement-breakpoint
ALTER TABLE "ulid_child" ADD CONSTRAINT "ulid_child_parent_id_ulid_parent_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."ulid_parent"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tsid_child" ADD CONSTRAINT "tsid_child_parent_id_tsid_parent_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."tsid_parent"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bigint_child" ADD CONSTRAINT "bigint_child_parent_id_bigint_parent_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."bigint_parent"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uuid_child" ADD CONSTRAINT "uuid_child_parent_id_uuid_parent_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."uuid_parent"("id") ON DELETE no action ON UPDATE no action;