// MAJOR_VAULT_GIT_RUNNER: git goes through the runner process unless the operator says 0 or off.
import { afterEach, expect, test } from 'vitest';
import { gitRunner, useGitRunner } from '../repo-host/git/git-runner.ts';
import { applyGitRunnerSetting } from './git-runner-setting.ts';

afterEach(() => useGitRunner(true));

test('the runner is on unless MAJOR_VAULT_GIT_RUNNER is 0 or off', () => {
  for (const value of ['0', 'off', 'OFF', ' off ']) {
    applyGitRunnerSetting({ MAJOR_VAULT_GIT_RUNNER: value });
    expect(gitRunner(), value).toBeNull();
  }
  for (const value of [undefined, '', '1', 'on']) {
    applyGitRunnerSetting(value === undefined ? {} : { MAJOR_VAULT_GIT_RUNNER: value });
    expect(gitRunner(), String(value)).not.toBeNull();
  }
});
