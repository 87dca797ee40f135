// Names and defaults the command line's help shows, kept apart from the modules that use them,
// so `major-vault --help` and each command load only what that command runs.

/** The GitHub stand-in's port in the hosted demos (`demo --hosted`, `demo --processes`): the one after the demo's 8787. */
export const defaultGitHubPort = 8788;

/** The environment variable naming the queue's database when it is not the front's (DATABASE_URL). */
export const queueDatabaseVariable = 'MAJOR_VAULT_QUEUE_DATABASE_URL';
