// The sign-in error page: what went wrong and how to succeed, as text.
import { describe, expect, test } from 'vitest';
import { errorPage } from './error-page.ts';

describe('the error page', () => {
  test('shows the title, the message and the hint, escaped', () => {
    const html = errorPage({ title: 'Sign-in failed <x>', message: 'GitHub said "no" & left.', hint: 'Try <again>.' });
    expect(html).toContain('<title>Sign-in failed &lt;x&gt; – Major Vault</title>');
    expect(html).toContain('<h1>Sign-in failed &lt;x&gt;</h1>\n<p>GitHub said &quot;no&quot; &amp; left.</p>\n<p>Try &lt;again&gt;.</p>');
    expect(html).not.toContain('<script');
  });

  test('leaves out a missing hint', () => {
    expect(errorPage({ title: 't', message: 'm' })).toContain('<h1>t</h1>\n<p>m</p>\n</main>');
  });
});
