// The index's query surface used by the tools: every statement behind a named, typed function.
// (Filled in by the index work; tools import only this module from note-index/.)

/** Typed access to the notes index of one installation. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface NoteIndex {}
