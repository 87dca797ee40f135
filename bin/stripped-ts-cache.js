// Node's type stripping of the checkout's TypeScript, kept on disk between starts. Node 22
// strips each `.ts` module's types as it loads it (amaro, a WebAssembly build of swc) and
// its compile cache keeps only V8's code, so every start strips all of them again: about
// 40% of the time it takes to load the server's modules. This load hook hands Node the
// stripped text it kept from an earlier start instead, beside Node's own compile cache.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Ends every kept file: the SHA-1 of the source it was stripped from follows. */
const sourceMark = '\n//# major-vault-source-sha1=';

/**
 * Registers the hook for the modules this thread loads (module.registerHooks): a TypeScript
 * ES module (`.ts` in a `"type": "module"` package) at a `file:` URL outside node_modules is answered with its stripped text,
 * exactly as Node's own stripping writes it (same text, same `sourceURL`, so the same
 * positions and stack traces), from `<Node's compile cache folder>/major-vault-stripped/`,
 * one file per source file named after the SHA-1 of its URL and holding the SHA-1 of the
 * source it came from; a changed source is stripped again and its file replaced. Everything
 * else, and anything that fails here (a source that does not parse, an unwritable folder),
 * is left to Node, which answers or fails as without the hook.
 *
 * Does nothing when Node's compile cache is off (call module.enableCompileCache first; it is
 * off with NODE_DISABLE_COMPILE_CACHE=1), when this Node cannot register hooks or strip types,
 * and when it strips otherwise (`--enable-source-maps`, `--experimental-transform-types`).
 */
export function cacheStrippedTypeScript() {
  const compileCache = module.getCompileCacheDir?.();
  if (compileCache === undefined || typeof module.registerHooks !== 'function' || typeof module.stripTypeScriptTypes !== 'function') return;
  // Node strips otherwise then (a source map, or transformed types): left to it.
  if (process.sourceMapsEnabled || process.features.typescript !== 'strip') return;
  const dir = join(compileCache, 'major-vault-stripped');
  let dirMade = false;
  module.registerHooks({
    load(url, context, nextLoad) {
      if (context.format !== 'module-typescript' || !url.startsWith('file:') || url.includes('/node_modules/'))
        return nextLoad(url, context);
      let source;
      try {
        source = readFileSync(fileURLToPath(url), 'utf8');
      } catch {
        return nextLoad(url, context);
      }
      const sourceHash = createHash('sha1').update(source).digest('hex');
      const file = join(dir, `${createHash('sha1').update(url).digest('hex')}.js`);
      const kept = readKept(file, sourceHash);
      if (kept !== null) return { format: 'module', source: kept, shortCircuit: true };
      const stripped = strip(source, url);
      if (stripped === null) return nextLoad(url, context);
      try {
        if (!dirMade) mkdirSync(dir, { recursive: true });
        dirMade = true;
        // Written aside and renamed over: a process starting meanwhile never reads half a file.
        const partial = `${file}.${process.pid}.partial`;
        writeFileSync(partial, `${stripped}${sourceMark}${sourceHash}\n`);
        renameSync(partial, file);
      } catch {
        // Not kept: the next start strips it again.
      }
      return { format: 'module', source: stripped, shortCircuit: true };
    },
  });
}

/**
 * For a worker thread's entry: the same caches as the main thread's (bin/major-vault.js), in
 * this thread (each thread has its own module loader): Node's compile cache, then
 * {@link cacheStrippedTypeScript}. Without them a thread strips and compiles every module it
 * loads on each start (about 100 ms of the index thread's start on this machine).
 */
export function cacheThreadModules() {
  module.enableCompileCache?.();
  cacheStrippedTypeScript();
}

/** The stripped text kept in `file` when it was stripped from the source with SHA-1 `sourceHash`; else null. */
function readKept(file, sourceHash) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const end = `${sourceMark}${sourceHash}\n`;
  return text.endsWith(end) ? text.slice(0, -end.length) : null;
}

/** `source` stripped as Node strips a module at `url` (strip-only, no source map, its `sourceURL`); null when it does not parse. */
function strip(source, url) {
  // The public function warns that it is experimental; Node's own stripping does not.
  const emitWarning = process.emitWarning;
  process.emitWarning = () => undefined;
  try {
    return module.stripTypeScriptTypes(source, { mode: 'strip', sourceUrl: url });
  } catch {
    return null;
  } finally {
    process.emitWarning = emitWarning;
  }
}
