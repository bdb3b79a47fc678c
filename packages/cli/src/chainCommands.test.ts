import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './args.js';
import { parseChainCommand } from './chainCommands.js';

describe('parseChainCommand', () => {
  it('leaves a plain node start to parseCliArgs', () => {
    expect(parseChainCommand(['--port', '0'], {})).toBeUndefined();
  });

  it('reads `import FILE` with the node flags around it', () => {
    const c = parseChainCommand(['import', '--db', '/tmp/x', 'chain.rlp', '--genesis', 'g.json'], {});
    expect(c).toMatchObject({ command: 'import', file: 'chain.rlp' });
    expect(c?.config.db).toBe('/tmp/x');
    expect(c?.config.genesisFile).toBe('g.json');
  });

  it('reads `export FILE FROM TO`', () => {
    expect(parseChainCommand(['export', 'out.rlp', '3', '0x10', '--memory'], {})).toMatchObject({
      command: 'export',
      file: 'out.rlp',
      from: 3n,
      to: 16n,
    });
    expect(parseChainCommand(['export', 'out.rlp'], {})).not.toHaveProperty('from');
  });

  it('names what is wrong', () => {
    expect(() => parseChainCommand(['import'], {})).toThrow(/needs a FILE.rlp/);
    expect(() => parseChainCommand(['import', 'a.rlp', 'b.rlp'], {})).toThrow(/unexpected argument "b.rlp"/);
    expect(() => parseChainCommand(['export', 'o.rlp', 'x'], {})).toThrow(/invalid FROM block "x"/);
    expect(() => parseChainCommand(['export', 'o.rlp', '5', '2'], {})).toThrow(/FROM 5 is after TO 2/);
  });
});

describe('--genesis and --import', () => {
  it('take a file each; with a genesis only explicit chain flags reach the node', () => {
    const c = parseCliArgs(['--genesis', 'g.json', '--import', 'c.rlp', '--chain-id', '5'], {});
    expect(c.genesisFile).toBe('g.json');
    expect(c.importFile).toBe('c.rlp');
    expect(c.node.chain).toEqual({ chainId: 5n, mnemonic: c.mnemonic, accounts: 20 });
  });

  it('read ASHLAR_GENESIS and ASHLAR_IMPORT', () => {
    const c = parseCliArgs([], { ASHLAR_GENESIS: 'g.json', ASHLAR_IMPORT: 'c.rlp' });
    expect(c).toMatchObject({ genesisFile: 'g.json', importFile: 'c.rlp' });
  });
});
