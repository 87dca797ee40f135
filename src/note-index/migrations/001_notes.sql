-- The notes index: every non-hidden file of each repository, the notes among them parsed,
-- and their links. Derived from Git and rebuildable at any time (DESIGN.md "Index").

-- One row per indexed repository: the snapshot the rows below were built from.
CREATE TABLE repos (
  name text COLLATE "C" PRIMARY KEY,
  head text,
  fingerprint text NOT NULL,
  -- typeField/summaryField and the parser's version the notes were parsed with: a change
  -- of either re-parses every note.
  parse_key text NOT NULL,
  indexed_at timestamptz NOT NULL DEFAULT now()
);

-- Every non-hidden file, notes included (links resolve to any file).
CREATE TABLE files (
  repo text COLLATE "C" NOT NULL,
  path text COLLATE "C" NOT NULL,
  oid text NOT NULL,
  size integer,
  is_note boolean NOT NULL,
  PRIMARY KEY (repo, path)
);

-- Paths and repository names sort in byte order ("C"), the same on every server, so the
-- primary keys serve ORDER BY repo, path and a search can stop after its first page.

-- Every .md file that is text, parsed with the notes model.
CREATE TABLE notes (
  repo text COLLATE "C" NOT NULL,
  path text COLLATE "C" NOT NULL,
  oid text NOT NULL,
  size integer NOT NULL,
  content text NOT NULL,
  total_lines integer NOT NULL,
  title text NOT NULL,
  type text,
  summary text,
  frontmatter jsonb,
  frontmatter_error text,
  headings jsonb NOT NULL,
  tags text[] NOT NULL,
  grades jsonb NOT NULL,
  PRIMARY KEY (repo, path)
);

-- Trigram index for search_notes and find_references: serves LIKE and ILIKE alike.
CREATE INDEX notes_content_trgm ON notes USING gin (content gin_trgm_ops);
CREATE INDEX notes_type ON notes (repo, type);

-- Every wiki-link, embed and markdown link of every note, with the file it resolves to.
CREATE TABLE links (
  repo text COLLATE "C" NOT NULL,
  source text COLLATE "C" NOT NULL,
  ordinal integer NOT NULL,
  line integer NOT NULL,
  kind text NOT NULL,
  raw text NOT NULL,
  target text NOT NULL,
  subpath text,
  alias text,
  start_offset integer NOT NULL,
  end_offset integer NOT NULL,
  -- A wiki-link written in a frontmatter value (Obsidian "properties" links).
  in_frontmatter boolean NOT NULL,
  -- The target's file name, lower case, without ".md": the only part of a target that
  -- decides which files it could resolve to, so adding or removing a file re-resolves
  -- just the links with that key.
  target_key text NOT NULL,
  resolved text,
  PRIMARY KEY (repo, source, ordinal)
);

CREATE INDEX links_resolved ON links (repo, resolved);
CREATE INDEX links_target_key ON links (repo, target_key);
