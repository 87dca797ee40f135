// The operator's choice of how git is started (README, "Starting git"), read from the environment.
import { useGitRunner } from '../repo-host/git/git-runner.ts';

/**
 * Starts git through the runner process unless `MAJOR_VAULT_GIT_RUNNER` is `0` or `off` in
 * `env`, for every git call of this process's main thread from here on.
 */
export function applyGitRunnerSetting(env: NodeJS.ProcessEnv = process.env): void {
  const value = env['MAJOR_VAULT_GIT_RUNNER']?.trim().toLowerCase();
  useGitRunner(value !== '0' && value !== 'off');
}
