-- The catalogue store (store/store.ts CatalogueStore, issue 13): what the catalogue builder
-- read from each installation's repositories, and the answers of initialize and tools/list
-- per configuration version and sorted set of readable repositories.
CREATE TABLE catalogue_sources (
  installation_id bigint PRIMARY KEY,
  version text NOT NULL,
  repos jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE catalogue_answers (
  installation_id bigint NOT NULL,
  version text NOT NULL,
  -- The readable repositories' names, sorted, joined by a slash (a name never holds one).
  repo_set text NOT NULL,
  answer jsonb NOT NULL,
  used_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (installation_id, version, repo_set)
);
