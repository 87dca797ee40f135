-- Search by trigram posting lists kept in buckets (trigram-postings.ts) instead of pg_trgm's
-- GIN index, whose build cost most of a full index build. Notes get a number per
-- repository for the posting lists. The derived rows are dropped, so the next sync of
-- every repository builds it afresh (the index is rebuildable from Git at any time).
DROP INDEX IF EXISTS notes_content_trgm;

DELETE FROM links;
DELETE FROM notes;
DELETE FROM files;
DELETE FROM repos;

ALTER TABLE notes ADD COLUMN id integer NOT NULL;
CREATE UNIQUE INDEX notes_id ON notes (repo, id);

-- For every trigram key (trigram-keys.ts), the ids of the notes that have it; a key's
-- bucket is its top 14 bits. `postings`: entries of key, length and ascending ids (varints).
CREATE TABLE trigram_buckets (
  repo text COLLATE "C" NOT NULL,
  bucket integer NOT NULL,
  postings bytea NOT NULL,
  PRIMARY KEY (repo, bucket)
);
