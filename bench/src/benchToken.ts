// The ERC-20 the in-process bench sections deploy: test/contracts' Token, with its constructor
// arguments encoded by hand (two short strings and a supply).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Token.sol of the test fixtures: name, symbol, initial supply to the deployer. */
export function tokenDeployData(): string {
  const artifacts = JSON.parse(readFileSync(resolve(ROOT, 'test/contracts/artifacts.json'), 'utf8'));
  const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0');
  const text = (s: string) => word(s.length) + Buffer.from(s).toString('hex').padEnd(64, '0');
  // constructor(string name_, string symbol_, uint256 initialSupply): two dynamic heads, then tails
  const args = word(96) + word(96 + 64) + word(10n ** 30n) + text('Bench Token') + text('BENCH');
  return artifacts.Token.bytecode + args;
}
