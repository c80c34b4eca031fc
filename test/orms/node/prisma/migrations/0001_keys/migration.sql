-- prisma migrate dev --create-only writes this file from schema.prisma, with TEXT for the
-- String keys: written by hand here (the schema engine cannot be downloaded), with the
-- extension's types and CREATE EXTENSION first.
CREATE EXTENSION IF NOT EXISTS ulid_tsid;

-- CreateTable
CREATE TABLE "ulid_parent" (
    "id" ulid NOT NULL DEFAULT generate_ulid(),
    "name" TEXT NOT NULL,

    CONSTRAINT "ulid_parent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ulid_child" (
    "id" ulid NOT NULL DEFAULT generate_ulid(),
    "parent_id" ulid,
    "note" TEXT,

    CONSTRAINT "ulid_child_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tsid_parent" (
    "id" tsid NOT NULL DEFAULT generate_tsid(),
    "name" TEXT NOT NULL,

    CONSTRAINT "tsid_parent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tsid_child" (
    "id" tsid NOT NULL DEFAULT generate_tsid(),
    "parent_id" tsid,
    "note" TEXT,

    CONSTRAINT "tsid_child_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bigint_parent" (
    "id" BIGINT NOT NULL DEFAULT generate_tsid(),
    "name" TEXT NOT NULL,

    CONSTRAINT "bigint_parent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bigint_child" (
    "id" BIGINT NOT NULL DEFAULT generate_tsid(),
    "parent_id" BIGINT,
    "note" TEXT,

    CONSTRAINT "bigint_child_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "uuid_parent" (
    "id" UUID NOT NULL DEFAULT generate_uuidv7(),
    "name" TEXT NOT NULL,

    CONSTRAINT "uuid_parent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "uuid_child" (
    "id" UUID NOT NULL DEFAULT generate_uuidv7(),
    "parent_id" UUID,
    "note" TEXT,

    CONSTRAINT "uuid_child_pkey" PRIMARY KEY ("id")
);

-- AddForeignKey
ALTER TABLE "ulid_child" ADD CONSTRAINT "ulid_child_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "ulid_parent"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tsid_child" ADD CONSTRAINT "tsid_child_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "tsid_parent"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bigint_child" ADD CONSTRAINT "bigint_child_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "bigint_parent"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "uuid_child" ADD CONSTRAINT "uuid_child_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "uuid_parent"("id") ON DELETE SET NULL ON UPDATE CASCADE;
