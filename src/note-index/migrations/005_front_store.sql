-- The Store (store/store.ts): the front's short-lived records and the App's installations.
-- Locally they live in the index database; hosted, in the front's own Postgres.
CREATE TABLE short_records (
  key text PRIMARY KEY,
  value text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX short_records_expires_at ON short_records (expires_at);

CREATE TABLE installations (
  id bigint PRIMARY KEY,
  account text,
  name text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'on', 'off')),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX installations_name ON installations (lower(name)) WHERE name IS NOT NULL;
