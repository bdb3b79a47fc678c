import { createNode } from 'ashlar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Kernel = Awaited<ReturnType<typeof createNode>>;
interface Header {
  number: string;
  gasLimit: string;
  baseFeePerGas: string;
  timestamp: string;
  miner: string;
  mixHash: string;
}

// BASEFEE, GASLIMIT, NUMBER, TIMESTAMP, COINBASE and PREVRANDAO as six words:
// 48 6000 52 45 6020 52 43 6040 52 42 6060 52 41 6080 52 44 60a0 52 60c0 6000 f3
const CONTEXT_CODE = '0x48600052456020524360405242606052416080524460a05260c06000f3';
const PROBE = '0x00000000000000000000000000000000000c0de1';
const word = (n: bigint) => n.toString(16).padStart(64, '0');

describe('eth_call block context', () => {
  let k: Kernel;
  let a0: string;

  beforeAll(async () => {
    k = await createNode();
    a0 = k.chain.accounts[0].address.toString();
    for (let i = 0; i < 2; i++) {
      await k.request({ method: 'eth_sendTransaction', params: [{ from: a0, to: a0, value: '0x1' }] });
    }
  });
  afterAll(() => k.close());

  const block = (tag: string) =>
    k.request<Header>({
      method: 'eth_getBlockByNumber',
      params: [tag, false],
    });
  const probe = (tag: string, priced?: string) =>
    k.request<string>({
      method: 'eth_call',
      params: [
        { from: a0, to: PROBE, ...(priced === undefined ? {} : { gasPrice: priced }) },
        tag,
        { [PROBE]: { code: CONTEXT_CODE } },
      ],
    });
  // The call runs in the block asked for: its header's values, but base fee 0 for a call without a price.
  const expected = (b: Header, priced: boolean) =>
    `0x${word(priced ? BigInt(b.baseFeePerGas) : 0n)}${word(BigInt(b.gasLimit))}${word(BigInt(b.number))}${word(
      BigInt(b.timestamp),
    )}${word(BigInt(b.miner))}${word(BigInt(b.mixHash))}`;

  it('sees its own block and fee context when calls alternate between blocks and priced or free calls', async () => {
    const latest = await block('latest');
    const first = await block('0x1');
    expect(BigInt(latest.baseFeePerGas)).toBeGreaterThan(0n);
    // A call without a price runs with base fee 0 (as geth and Hardhat); a priced one sees the block's.
    const price = `0x${(BigInt(first.baseFeePerGas) * 2n).toString(16)}`;
    for (let round = 0; round < 2; round++) {
      expect(await probe('latest')).toBe(expected(latest, false));
      expect(await probe('latest', price)).toBe(expected(latest, true));
      expect(await probe('latest', price)).toBe(expected(latest, true));
      expect(await probe('0x1')).toBe(expected(first, false));
      expect(await probe('latest')).toBe(expected(latest, false));
      expect(await probe('0x1', price)).toBe(expected(first, true));
    }
    // A new block moves "latest": the next call sees it, not the block the last call ran in.
    await k.request({ method: 'eth_sendTransaction', params: [{ from: a0, to: a0, value: '0x1' }] });
    const next = await block('latest');
    expect(next.number).not.toBe(latest.number);
    expect(await probe('latest')).toBe(expected(next, false));
    expect(await probe('latest', price)).toBe(expected(next, true));
  });
});
