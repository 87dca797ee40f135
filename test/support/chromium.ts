// Debian's Chromium, driven by playwright-core, for the page checks (DESIGN.md "Choices for the
// hosted parts": pages in a browser). Tests that need it skip, saying why, when it is absent.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser (`.ci/run` installs it). */
export const chromiumPath = '/usr/bin/chromium';

/** Why Chromium tests cannot run on this machine, or null when they can: for `describe.skipIf` and the suite's title. */
export const chromiumMissing: string | null = existsSync(chromiumPath)
  ? null
  : `${chromiumPath} is absent: install Debian's chromium (apt-get install chromium) to check the pages in a browser`;

/**
 * Starts headless Chromium: no sandbox (CI runs as root, in a container), no GPU, and no
 * background traffic (updates, safe browsing), so the browser reaches only the test's own
 * servers on 127.0.0.1. Close it with `browser.close()`.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
