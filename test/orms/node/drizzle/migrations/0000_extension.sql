-- Written by hand (drizzle-kit generate --custom): the types the schema uses come from the extension.
CREATE EXTENSION IF NOT EXISTS ulid_tsid;
