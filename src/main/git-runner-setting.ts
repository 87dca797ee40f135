// The operator's choice of how git is started (README, "Starting git"), read from the environment.
import type { Logger } from '../instance/log.ts';
import { onGitRunnerTrouble, useGitRunner } from '../repo-host/git/git-runner.ts';

/**
 * Starts git through the runner process unless `MAJOR_VAULT_GIT_RUNNER` is `0` or `off` in
 * `env`, for every git call of this process's main thread from here on.
 */
export function applyGitRunnerSetting(env: NodeJS.ProcessEnv = process.env): void {
  const value = env['MAJOR_VAULT_GIT_RUNNER']?.trim().toLowerCase();
  useGitRunner(value !== '0' && value !== 'off');
}

/** Logs each trouble of the git runner (it ended, was killed for not answering, was given up) as a warning to `log`. */
export function reportGitRunnerTrouble(log: Logger): void {
  onGitRunnerTrouble((trouble) => log.warn({ event: trouble.event }, trouble.message));
}
