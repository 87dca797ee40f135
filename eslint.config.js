// Lint rules: the recommended sets of ESLint and typescript-eslint, the type-aware promise
// rules, and the import direction of DESIGN.md ("Code layout"), so a wrong import fails `npm test`.
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** Every folder of src/ (and the ones DESIGN.md plans), for the zones below. */
/** The folders of the core: below front/, instance/, jobs/ and cli/, above the ports' adapters. */
const coreFolders = [
  'catalogue',
  'tools',
  'special-tools',
  'notes',
  'note-index',
  'pool',
  'repo-host',
  'store',
  'tokens',
  'writes',
  'history',
  'bases',
  'config',
];
const layers = [
  'bases',
  'catalogue',
  'cli',
  'config',
  'demo',
  'front',
  'github-standin',
  'history',
  'instance',
  'jobs',
  'main',
  'note-index',
  'notes',
  'operations',
  'pool',
  'repo-host',
  'special-tools',
  'store',
  'tokens',
  'tools',
  'writes',
];
const src = (...names) => names.map((name) => `./src/${name}`);
const except = (...names) => src(...layers.filter((name) => !names.includes(name)));

/**
 * The import direction (DESIGN.md "Code layout"): main -> {front, instance, jobs} ->
 * {catalogue, tools, notes} -> ports, adapters wired only in main/. Each zone has a name so
 * a file could be exempted from one zone (none is).
 */
const zones = {
  main: {
    target: [...except('main', 'cli'), './src/vault-error.ts'],
    from: src('main'),
    message: 'Only the `major-vault` command imports main/: main/ is the composition root (DESIGN.md "Code layout").',
  },
  front: {
    target: src('front'),
    from: src('instance'),
    message: 'The front never imports the instance: it gets a `forward` function and the registry of src/tools/ (DESIGN.md "Code layout").',
  },
  frontJobs: {
    target: src('front'),
    from: './src/jobs',
    // The hosted jobs' names and the JobSender port: the front turns webhooks into jobs (issue 13).
    except: ['./hosted-jobs.ts'],
    message: 'The front sends jobs through the JobSender port (jobs/hosted-jobs.ts) only; the queue and the jobs are wired in main/.',
  },
  core: {
    target: [...src(...coreFolders), './src/vault-error.ts'],
    from: src('front', 'instance', 'cli'),
    message:
      'Imports point one way: main -> {front, instance, jobs} -> {catalogue, tools, notes} -> ports. This layer may not import front/, instance/, jobs/ or cli/ (DESIGN.md "Code layout").',
  },
  jobs: {
    target: [...src(...coreFolders), './src/vault-error.ts'],
    from: './src/jobs',
    // The Queue port is a port like RepoHost: an adapter that runs jobs (GitHub's webhooks) takes it.
    except: ['./queue.ts'],
    message:
      'Imports point one way: main -> {front, instance, jobs} -> {catalogue, tools, notes} -> ports. This layer may not import jobs/, only the Queue port jobs/queue.ts (DESIGN.md "Code layout").',
  },
  operations: {
    target: src('operations'),
    from: except('operations'),
    message:
      'operations/ (health, readiness, metrics, request ids) is a leaf every layer may use: it imports libraries only, and gets what it checks or counts handed to it.',
  },
  ports: {
    target: src('repo-host', 'note-index'),
    from: src('catalogue', 'tools', 'special-tools'),
    message: 'Ports and adapters sit below the catalogue and the tool definitions (DESIGN.md "Code layout").',
  },
  standin: {
    target: [...except('github-standin', 'main', 'demo'), './src/vault-error.ts'],
    from: src('github-standin'),
    message:
      'The GitHub stand-in plays GitHub for tests and the hosted demo: only main/ and demo/ start it; the product reaches it as it reaches GitHub, through Octokit and git.',
  },
  git: {
    target: [...except('repo-host', 'main', 'demo', 'github-standin'), './src/vault-error.ts'],
    from: src('repo-host/local', 'repo-host/git'),
    message:
      'Git behind the port: only repo-host/ and main/ import the local adapter or the git plumbing; use a RepoHost operation (DESIGN.md "Ports and adapters").',
  },
};

/** The boundary rule with the zones `names` lifted. */
const boundaries = (lifted = []) => ({
  'import-x/no-restricted-paths': [
    'error',
    {
      zones: Object.entries(zones)
        .filter(([name]) => !lifted.includes(name))
        .map(([, zone]) => zone),
    },
  ],
});

/** Production code: tests, the contract suite and fixtures may build real repositories with any part. */
const productionFiles = { files: ['src/**/*.ts'], ignores: ['src/**/*.test.ts', 'src/**/*.contract.ts'] };

export default tseslint.config(
  { ignores: ['node_modules/', 'coverage/', '.major-vault/', 'demo/', 'bench/checkouts/', 'tmp/', 'test-output/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  { ...productionFiles, plugins: { 'import-x': importX }, rules: boundaries() },
  {
    // Git behind the port (DESIGN.md "Ports and adapters"): outside repo-host/ (and the
    // composition roots), no code knows where a repository's Git folder or work tree is. The
    // GitHub stand-in is GitHub itself, outside the product: it keeps its own bare repositories.
    files: productionFiles.files,
    ignores: [...productionFiles.ignores, 'src/repo-host/**', 'src/main/**', 'src/demo/**', 'src/github-standin/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Identifier[name=/^(gitDir|workTree|mirror)$/]',
          message:
            'Git behind the port: only repo-host/ knows a repository\'s Git folder, work tree or mirror; ask a RepoHost operation (DESIGN.md "Ports and adapters").',
        },
      ],
    },
  },
);
