// The GitHub stand-in and serve-github with sign-in, as a program, for scripts that need a
// running installation behind the front's authorization server (scripts/conformance-auth.sh
// with no URL, scripts/inspector-signin.sh by hand) until `major-vault demo --hosted` exists.
//
//   node --import tsx test/support/github-signin-server.ts
//
// It prints `Major Vault (sign-in) serving acme at <address>` once indexed, and the people the
// stand-in's sign-in page accepts (alice writes handbook and reads plans, bob reads handbook,
// carol reads nothing), then runs until SIGINT or SIGTERM, when it stops both and cleans up.
import { randomBytes } from 'node:crypto';
import { startGitHubE2e, testPeople } from './github-server.ts';

const e2e = await startGitHubE2e({ oauth: { secrets: [randomBytes(32).toString('base64url')] } });
process.stdout.write(`Major Vault (sign-in) serving ${e2e.server.name} at ${e2e.server.url.href}\n`);
process.stdout.write(`GitHub stand-in at ${e2e.standin.origin}; people: ${testPeople.map((person) => person.login).join(', ')}\n`);

let stopping = false;
const stop = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  await e2e.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
