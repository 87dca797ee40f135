// The shape of the demo's history: commits by Acme's people, at fixed dates, so every build
// of the demo has the same commits.

/** Someone at Acme, as Git records an author. */
export interface DemoPerson {
  login: string;
  name: string;
  email: string;
}

export const maya: DemoPerson = { login: 'maya', name: 'Maya Brenner', email: 'maya@acme.example' };
export const jonas: DemoPerson = { login: 'jonas', name: 'Jonas Keller', email: 'jonas@acme.example' };
export const priya: DemoPerson = { login: 'priya', name: 'Priya Natarajan', email: 'priya@acme.example' };
export const tom: DemoPerson = { login: 'tom', name: 'Tom Okafor', email: 'tom@acme.example' };

/**
 * One commit: files written (text) or deleted (null), renames done before the writes
 * (`from → to`, so history follows them), the author, the date (ISO 8601 with offset) and
 * the message (subject, blank line, body).
 */
export interface DemoCommit {
  author: DemoPerson;
  date: string;
  message: string;
  renames?: Record<string, string>;
  files: Record<string, string | null>;
}
