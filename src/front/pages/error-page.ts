// STUB (replaced by the pages branch): a sign-in error shown in the browser.
/** The HTML of an error page. */
export function errorPage(options: { title: string; message: string; hint?: string }): string {
  const e = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${e(options.title)}</title></head><body><h1>${e(options.title)}</h1><p>${e(options.message)}</p>${options.hint ? `<p>${e(options.hint)}</p>` : ''}</body></html>`;
}
