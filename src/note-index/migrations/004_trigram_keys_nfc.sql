-- Trigram keys are now computed over the text's NFC form (trigram-keys.ts), so a note stored
-- decomposed (as macOS writes it) is a candidate for a search in composed form. Keys stored
-- before are of the text as stored: the derived rows are dropped, and the next sync of every
-- repository builds them afresh (the index is rebuildable from Git at any time).
DELETE FROM trigram_buckets;
DELETE FROM links;
DELETE FROM notes;
DELETE FROM files;
DELETE FROM repos;
