import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readArtifacts } from './artifacts.js';

const dir = mkdtempSync(join(tmpdir(), 'ashlar-artifacts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const output = {
  contracts: {
    'A.sol': {
      A: {
        abi: [],
        evm: {
          bytecode: { object: '6001600155', linkReferences: {} },
          deployedBytecode: { object: '600160015500', linkReferences: {}, immutableReferences: {} },
        },
      },
      I: { abi: [], evm: { bytecode: { object: '' }, deployedBytecode: { object: '' } } },
    },
  },
};
const input = { language: 'Solidity', sources: { 'A.sol': { content: 'contract A {}' } }, settings: {} };

describe('readArtifacts', () => {
  it('reads Hardhat 3 build-infos (input and output in two files), skipping interfaces and junk', async () => {
    const bi = join(dir, 'artifacts', 'build-info');
    mkdirSync(bi, { recursive: true });
    writeFileSync(
      join(bi, 'solc-0_8_37-abc.json'),
      JSON.stringify({ _format: 'hh3-sol-build-info-1', solcLongVersion: '0.8.37+commit.f401782d', input }),
    );
    writeFileSync(
      join(bi, 'solc-0_8_37-abc.output.json'),
      JSON.stringify({ _format: 'hh3-sol-build-info-output-1', output }),
    );
    writeFileSync(join(dir, 'artifacts', 'junk.json'), '{ not json');
    writeFileSync(join(dir, 'artifacts', 'other.json'), JSON.stringify({ abi: [] }));
    const found = await readArtifacts(dir);
    expect(found.map((c) => [c.filePath, c.name, c.compilerVersion, c.runtime])).toEqual([
      ['A.sol', 'A', 'v0.8.37+commit.f401782d', '600160015500'],
    ]);
    expect(found[0].input).toEqual(input);
  });

  it('answers nothing for a folder that does not exist', async () => {
    expect(await readArtifacts(join(dir, 'missing'))).toEqual([]);
  });
});
