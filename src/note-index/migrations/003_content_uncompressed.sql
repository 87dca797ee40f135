-- Note content is stored out of line without compression: pglz cost about a third of
-- writing obsidian-help's 25 MB of notes in PGlite, and every search and read of a long
-- note paid for decompressing it. The text is in Git too; the disk is cheaper than the CPU.
ALTER TABLE notes ALTER COLUMN content SET STORAGE EXTERNAL;
