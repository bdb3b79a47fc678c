/**
 * Hardhat-style test suites against Ashlar (issue #21), differential against Hardhat 2.29.1's
 * own network (the `hardhat` dev dependency, in process and behind its JSON-RPC server): the
 * client identity test helpers check, "pending" as the next block, sends from senders with code,
 * the error a reverted send answers, prevRandao, fee defaults and time travel.
 */
import { type Eip1193Provider as AshlarProvider, type Kernel, createProvider } from '@ashlar/core';
import { createNode } from 'ashlar';
import { BrowserProvider, Contract, type Eip1193Provider, Interface, JsonRpcSigner, parseEther } from 'ethers';
import { createTestClient, custom, publicActions } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compatArtifact } from './helpers/compatContract.js';
import { type Peer, startAnvil } from './helpers/devPeers.js';
import { type Eip1193, hardhatHttp, hardhatProvider } from './helpers/hardhatPeer.js';
import { startNode, type TestNode } from './helpers/node.js';

const art = compatArtifact();
const iface = new Interface(art.abi as never);
const A0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const A1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

type Rpc = (method: string, params?: unknown[]) => Promise<unknown>;
const rpcOf =
  (p: Eip1193 | AshlarProvider): Rpc =>
  (method, params = []) =>
    p.request({ method, params } as never) as Promise<unknown>;

async function deploy(rpc: Rpc): Promise<string> {
  const hash = await rpc('eth_sendTransaction', [{ from: A0, data: art.bytecode }]);
  const receipt = (await rpc('eth_getTransactionReceipt', [hash])) as { contractAddress: string; status: string };
  expect(receipt.status).toBe('0x1');
  return receipt.contractAddress;
}

const data = (fn: string, args: unknown[] = []) => iface.encodeFunctionData(fn, args);
const word = (hex: unknown) => BigInt(hex as string);

/** Both nodes, fresh, each with the Compat contract deployed by the same account. */
async function pair(hardfork = 'prague') {
  const kernel = await createNode({ chain: { hardfork } });
  const ours = rpcOf(createProvider(kernel));
  const theirs = rpcOf(await hardhatProvider({ hardfork }));
  const [c1, c2] = [await deploy(ours), await deploy(theirs)];
  expect(c1).toBe(c2);
  return { kernel, ours, theirs, compat: c1 };
}

describe('identity', () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = await createNode();
  });
  afterAll(() => kernel.close());

  it('answers a client version the network helpers and upgrade plugins accept', async () => {
    const v = (await kernel.request({ method: 'web3_clientVersion' })) as string;
    // hardhat-network-helpers 1.x, Hardhat 3's helpers, OpenZeppelin upgrades-core
    expect(v.toLowerCase().startsWith('hardhatnetwork')).toBe(true);
    expect(v.toLowerCase().startsWith('hardhat')).toBe(true);
    expect(v.split('/', 1)[0]).toBe('HardhatNetwork');
    expect(v).toMatch(/ashlar/);
  });

  it('takes another client version as an option', async () => {
    const k = await createNode({ clientVersion: 'anvil/v1.7.1' });
    try {
      expect(await k.request({ method: 'web3_clientVersion' })).toBe('anvil/v1.7.1');
    } finally {
      await k.close();
    }
  });

  it('answers hardhat_metadata with the fields and types of Hardhat 2.29', async () => {
    const theirs = (await (await hardhatProvider()).request({ method: 'hardhat_metadata' })) as Record<string, unknown>;
    const ours = (await kernel.request({ method: 'hardhat_metadata' })) as Record<string, unknown>;
    expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort());
    for (const k of Object.keys(theirs)) expect(typeof ours[k], k).toBe(typeof theirs[k]);
    expect(ours.chainId).toBe(31337);
    expect(ours.instanceId).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('answers every hardhat_* method Hardhat 2.29 answers, but the stack-trace ones', async () => {
    const hh = await hardhatProvider();
    const names = [
      'hardhat_dropTransaction',
      'hardhat_getAutomine',
      'hardhat_impersonateAccount',
      'hardhat_metadata',
      'hardhat_mine',
      'hardhat_reset',
      'hardhat_setBalance',
      'hardhat_setCode',
      'hardhat_setCoinbase',
      'hardhat_setLoggingEnabled',
      'hardhat_setMinGasPrice',
      'hardhat_setNextBlockBaseFeePerGas',
      'hardhat_setNonce',
      'hardhat_setPrevRandao',
      'hardhat_setStorageAt',
      'hardhat_stopImpersonatingAccount',
    ];
    for (const method of names) {
      // Hardhat knows the method: it answers, or complains about the parameters, never "not supported".
      const theirs = await hh.request({ method, params: [] }).then(
        () => 0,
        (e: { code?: number }) => e.code,
      );
      expect(theirs, method).not.toBe(-32004);
      const ours = await kernel.request({ method, params: [] }).then(
        () => 0,
        (e: { code?: number }) => e.code,
      );
      expect(ours, method).not.toBe(-32601);
    }
  });
});

describe('"pending" is the next block (against Hardhat)', () => {
  let p: Awaited<ReturnType<typeof pair>>;
  beforeAll(async () => {
    p = await pair();
  });
  afterAll(() => p.kernel.close());

  const both = async (fn: (rpc: Rpc) => Promise<unknown>) => [await fn(p.ours), await fn(p.theirs)];

  it('eth_call at pending sees number head+1; latest sees the head', async () => {
    const [ours, theirs] = await both(async (rpc) => {
      const head = word(await rpc('eth_blockNumber'));
      const pending = word(await rpc('eth_call', [{ to: p.compat, data: data('number') }, 'pending']));
      const latest = word(await rpc('eth_call', [{ to: p.compat, data: data('number') }, 'latest']));
      return [pending - head, latest - head];
    });
    expect(ours).toEqual([1n, 0n]);
    expect(ours).toEqual(theirs);
  });

  it('estimates a call whose gas depends on block.number > lastBlock for the next block', async () => {
    const results = await both(async (rpc) => {
      await rpc('eth_sendTransaction', [{ from: A0, to: p.compat, data: data('perBlock'), gas: '0x100000' }]);
      const tx = { from: A0, to: p.compat, data: data('perBlock') };
      return [
        await rpc('eth_estimateGas', [tx, 'latest']),
        await rpc('eth_estimateGas', [tx, 'pending']),
        await rpc('eth_estimateGas', [tx]),
      ];
    });
    const [ours, theirs] = results as string[][];
    expect(word(ours[1])).toBeGreaterThan(word(ours[0]) * 5n);
    expect(ours[2]).toBe(ours[1]);
    // The next block's estimate is exact on both. At latest the final SSTORE needs 2300 gas left
    // (EIP-2200), so the least gas lies above the gas used and both nodes stop their search
    // within Hardhat's tolerance (200 gas at this size), not at the same value.
    expect(ours.slice(1)).toEqual(theirs.slice(1));
    const diff = word(ours[0]) - word(theirs[0]);
    expect(diff < 200n && diff > -200n).toBe(true);
  });

  it('runs at the next timestamp: evm_setNextBlockTimestamp and the evm_increaseTime offset', async () => {
    const [ours, theirs] = await both(async (rpc) => {
      const head = (await rpc('eth_getBlockByNumber', ['latest', false])) as { timestamp: string };
      const target = word(head.timestamp) + 10_000n;
      await rpc('evm_setNextBlockTimestamp', [`0x${target.toString(16)}`]);
      const pinned = word(await rpc('eth_call', [{ to: p.compat, data: data('stamp') }, 'pending']));
      await rpc('evm_mine', []);
      await rpc('evm_increaseTime', ['0xe10']);
      const shifted = word(await rpc('eth_call', [{ to: p.compat, data: data('stamp') }, 'pending']));
      const latest = word(await rpc('eth_call', [{ to: p.compat, data: data('stamp') }, 'latest']));
      return [pinned === target, shifted - latest >= 3600n && shifted - latest < 3700n];
    });
    expect(ours).toEqual([true, true]);
    expect(ours).toEqual(theirs);
  });

  it('runs under the next base fee and coinbase', async () => {
    const [ours, theirs] = await both(async (rpc) => {
      await rpc('hardhat_setNextBlockBaseFeePerGas', ['0x12345678']);
      await rpc('hardhat_setCoinbase', ['0x00000000000000000000000000000000000000c0']);
      const priced = { from: A0, to: p.compat, gasPrice: '0x2540be400' };
      const fee = word(await rpc('eth_call', [{ ...priced, data: data('baseFee') }, 'pending']));
      const miner = word(await rpc('eth_call', [{ ...priced, data: data('miner') }, 'pending']));
      await rpc('evm_mine', []);
      return [fee, miner];
    });
    // A priced call sees the next block's base fee (Hardhat shows 0 to every call: the one
    // deliberate difference, as geth sets 0 only for price-less calls).
    expect(ours).toEqual([0x12345678n, 0xc0n]);
    expect(ours[1]).toEqual(theirs[1]);
  });

  it('with automine off, runs on top of the pending transactions', async () => {
    const [ours, theirs] = await both(async (rpc) => {
      await rpc('evm_setAutomine', [false]);
      const tx = { from: A0, to: p.compat, data: data('perBlock') };
      const before = await rpc('eth_estimateGas', [tx, 'pending']);
      await rpc('eth_sendTransaction', [{ ...tx, gas: '0x100000' }]);
      // The pending perBlock() has set lastBlock to the pending block: a second one is cheap there.
      const after = await rpc('eth_estimateGas', [tx, 'pending']);
      const last = word(await rpc('eth_call', [{ to: p.compat, data: data('lastBlock') }, 'pending']));
      const head = word(await rpc('eth_blockNumber'));
      await rpc('evm_mine', []);
      await rpc('evm_setAutomine', [true]);
      return [before, after, last - head];
    });
    expect(word(ours[0])).toBeGreaterThan(word(ours[1]));
    expect(ours[2]).toBe(1n);
    expect(ours[0]).toEqual(theirs[0]);
    expect(ours[2]).toEqual(theirs[2]);
    // (the cheap second estimate ends in an SSTORE: equal within Hardhat's search tolerance)
    const diff = word(ours[1]) - word(theirs[1]);
    expect(diff < 200n && diff > -200n).toBe(true);
  });

  it('eth_createAccessList at pending runs on top of the pending transactions (Hardhat has no such method)', async () => {
    const rpc = p.ours;
    await rpc('evm_setAutomine', [false]);
    const tx = { from: A0, to: p.compat, data: data('perBlock') };
    const before = (await rpc('eth_createAccessList', [tx, 'pending'])) as { gasUsed: string };
    await rpc('eth_sendTransaction', [{ ...tx, gas: '0x100000' }]);
    const after = (await rpc('eth_createAccessList', [tx, 'pending'])) as { gasUsed: string };
    await rpc('evm_mine', []);
    await rpc('evm_setAutomine', [true]);
    expect(word(before.gasUsed)).toBeGreaterThan(word(after.gasUsed) * 5n);
  });
});

describe('eth_estimateGas runs the transaction as few times as it can', () => {
  it('once for a plain transfer, twice for a contract call or a deployment; the same answers as Hardhat', async () => {
    const p = await pair();
    try {
      let runs = 0;
      p.kernel.chain.vm.events.on('beforeTx', () => {
        runs++;
      });
      const count = async (tx: Record<string, string>, expected?: string) => {
        runs = 0;
        const ours = await p.ours('eth_estimateGas', [tx]);
        // A transfer is its intrinsic gas exactly, as geth answers (Hardhat's search stops 1 above).
        expect(ours).toBe(expected ?? (await p.theirs('eth_estimateGas', [tx])));
        return runs;
      };
      expect(await count({ from: A0, to: A1, value: '0x1' }, '0x5208')).toBe(1);
      // Prague's EIP-7623 calldata floor: 21000 + 10 × (2 zero bytes + 4 × 2 non-zero bytes) = 21100
      expect(await count({ from: A0, to: A1, data: '0x00ff00ff' }, '0x526c')).toBe(1);
      expect(await count({ from: A0, to: p.compat, data: data('perBlock') })).toBe(2);
      expect(await count({ from: A0, data: art.bytecode })).toBe(2);
    } finally {
      await p.kernel.close();
    }
  });
});

describe('senders with code (no EIP-3607 outside real signed transactions)', () => {
  let p: Awaited<ReturnType<typeof pair>>;
  beforeAll(async () => {
    p = await pair();
  });
  afterAll(() => p.kernel.close());

  it('calls, estimates and access lists from a contract address, as Hardhat', async () => {
    const tx = { from: p.compat, to: p.compat, data: data('number') };
    for (const rpc of [p.ours, p.theirs]) {
      expect(word(await rpc('eth_call', [tx]))).toBeGreaterThan(0n);
      expect(word(await rpc('eth_estimateGas', [tx]))).toBeGreaterThan(21_000n);
    }
    expect(await p.ours('eth_estimateGas', [tx])).toBe(await p.theirs('eth_estimateGas', [tx]));
    const list = (await p.ours('eth_createAccessList', [tx])) as { error?: string };
    expect(list.error).toBeUndefined();
  });

  it('mines a send from every kind of sender, each with a receipt (ethers, waiting)', async () => {
    const provider = new BrowserProvider(createProvider(p.kernel) as unknown as Eip1193Provider, 31337, {
      cacheTimeout: -1,
    });
    provider.pollingInterval = 10;
    const eoa = '0x00000000000000000000000000000000000000e0';
    const coded = A1;
    await provider.send('hardhat_impersonateAccount', [eoa]);
    await provider.send('hardhat_impersonateAccount', [p.compat]);
    await provider.send('hardhat_setBalance', [eoa, '0xde0b6b3a7640000']);
    await provider.send('hardhat_setBalance', [p.compat, '0x56bc75e2d63100000']);
    await provider.send('hardhat_setCode', [coded, '0x6001600055']);
    const senders = {
      'dev account': A0,
      'impersonated EOA': eoa,
      'impersonated contract': p.compat,
      'account with code set': coded,
    };
    for (const [kind, from] of Object.entries(senders)) {
      const signer = new JsonRpcSigner(provider, from);
      const tx = await signer.sendTransaction({ to: A1, value: 1n, gasLimit: 50_000n });
      const receipt = await tx.wait();
      expect(receipt?.status, kind).toBe(1);
      expect(await provider.getTransaction(tx.hash), kind).not.toBeNull();
    }
    const c = new Contract(p.compat, art.abi as never, new JsonRpcSigner(provider, p.compat));
    const r = await (await c.perBlock({ gasLimit: 1_000_000n })).wait();
    expect(r?.status).toBe(1);
  });

  it('before Prague too (Cancun), a contract sends, is mined, and calls', async () => {
    const kernel = await createNode({ chain: { hardfork: 'cancun' } });
    try {
      const rpc = rpcOf(createProvider(kernel));
      const c = await deploy(rpc);
      await rpc('hardhat_impersonateAccount', [c]);
      await rpc('hardhat_setBalance', [c, '0xde0b6b3a7640000']);
      const hash = await rpc('eth_sendTransaction', [
        { from: c, to: A1, value: '0x1', gas: '0x10000', gasPrice: '0x3b9aca00' },
      ]);
      expect(((await rpc('eth_getTransactionReceipt', [hash])) as { status: string }).status).toBe('0x1');
      // its code is still there, and runs when called
      expect(word(await rpc('eth_call', [{ from: c, to: c, data: data('number') }]))).toBe(2n);
      expect(((await rpc('eth_getAccountInfo', [c, 'latest'])) as { nonce: string }).nonce).toBe('0x2');
    } finally {
      await kernel.close();
    }
  });
});

describe('a reverted send under automine (against Hardhat over HTTP)', () => {
  let node: TestNode;
  let hh: { url: string; close(): Promise<void> };
  let compat: string;
  let id = 1;
  const post = async (url: string, method: string, params: unknown[]) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }),
    });
    return (await res.json()) as {
      result?: unknown;
      error?: { code: number; message: string; data?: Record<string, string> };
    };
  };

  beforeAll(async () => {
    node = await startNode({ memory: true, chain: { hardfork: 'prague' } });
    hh = await hardhatHttp(await hardhatProvider());
    for (const url of [node.url, hh.url]) {
      const hash = (await post(url, 'eth_sendTransaction', [{ from: A0, data: art.bytecode }])).result;
      compat = ((await post(url, 'eth_getTransactionReceipt', [hash])).result as { contractAddress: string })
        .contractAddress;
    }
  });
  afterAll(async () => {
    await node?.close();
    await hh?.close();
  });

  const cases: [string, string, unknown[]][] = [
    ['reason string', 'fail', ['boom']],
    ['custom error', 'failCustom', []],
    ['panic', 'failPanic', [0]],
    ['no data', 'failEmpty', []],
  ];
  for (const [what, fn, args] of cases) {
    it(`mines it and answers Hardhat's error: ${what}`, async () => {
      const tx = { from: A0, to: compat, data: data(fn, args), gas: '0x30000' };
      const [ours, theirs] = [
        await post(node.url, 'eth_sendTransaction', [tx]),
        await post(hh.url, 'eth_sendTransaction', [tx]),
      ];
      expect(ours.error?.code).toBe(-32603);
      expect(ours.error?.code).toBe(theirs.error?.code);
      expect(ours.error?.message).toBe(theirs.error?.message);
      expect(Object.keys(ours.error?.data ?? {}).sort()).toEqual(['data', 'message', 'txHash']);
      expect(ours.error?.data?.message).toBe(theirs.error?.data?.message);
      expect(ours.error?.data?.data).toBe(theirs.error?.data?.data);
      const receipt = (await post(node.url, 'eth_getTransactionReceipt', [ours.error?.data?.txHash])).result as {
        status: string;
      };
      expect(receipt.status).toBe('0x0');
    });
  }

  it('answers an out-of-gas send as Hardhat: -32000 "Transaction ran out of gas", with the hash', async () => {
    const tx = { from: A0, to: compat, data: data('perBlock'), gas: '0x6000' };
    const [ours, theirs] = [
      await post(node.url, 'eth_sendTransaction', [tx]),
      await post(hh.url, 'eth_sendTransaction', [tx]),
    ];
    expect({ code: ours.error?.code, message: ours.error?.message }).toEqual({
      code: theirs.error?.code,
      message: theirs.error?.message,
    });
    expect(ours.error?.data?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it("answers only the hash with throwOnTransactionFailures off (Anvil's behaviour)", async () => {
    const kernel = await createNode({ throwOnTransactionFailures: false });
    try {
      const rpc = rpcOf(createProvider(kernel));
      const c = await deploy(rpc);
      const hash = await rpc('eth_sendTransaction', [{ from: A0, to: c, data: data('fail', ['x']), gas: '0x30000' }]);
      expect(((await rpc('eth_getTransactionReceipt', [hash])) as { status: string }).status).toBe('0x0');
    } finally {
      await kernel.close();
    }
  });
});

describe('hardhat_setPrevRandao', () => {
  it('sets the next block’s prevRandao, as Hardhat', async () => {
    const p = await pair();
    try {
      const value = `0x${'ab'.repeat(32)}`;
      const [ours, theirs] = [p.ours, p.theirs].map(async (rpc) => {
        expect(await rpc('hardhat_setPrevRandao', [value])).toBe(true);
        const pending = await rpc('eth_call', [{ to: p.compat, data: data('randao') }, 'pending']);
        await rpc('evm_mine', []);
        const block = (await rpc('eth_getBlockByNumber', ['latest', false])) as { mixHash: string };
        await rpc('evm_mine', []);
        const next = (await rpc('eth_getBlockByNumber', ['latest', false])) as { mixHash: string };
        return [pending, block.mixHash, next.mixHash !== value];
      });
      expect(await ours).toEqual([value, value, true]);
      expect(await ours).toEqual(await theirs);
    } finally {
      await p.kernel.close();
    }
  });
});

describe('send defaults', () => {
  it("'hardhat' fills gas and EIP-1559 fees as Hardhat's node does", async () => {
    const kernel = await createNode({ chain: { hardfork: 'prague' }, sendDefaults: 'hardhat' });
    try {
      const results = await Promise.all(
        [rpcOf(createProvider(kernel)), rpcOf(await hardhatProvider())].map(async (rpc) => {
          const base = word(
            ((await rpc('eth_getBlockByNumber', ['latest', false])) as { baseFeePerGas: string }).baseFeePerGas,
          );
          const hash = await rpc('eth_sendTransaction', [{ from: A0, to: A1, value: '0x1' }]);
          const tx = (await rpc('eth_getTransactionByHash', [hash])) as Record<string, string>;
          // what the head implied for the block the transaction went into
          const next = (base * 7n) / 8n; // an empty parent lowers the base fee by 1/8
          return { type: tx.type, tip: tx.maxPriorityFeePerGas, fee: word(tx.maxFeePerGas) - 2n * next, gas: tx.gas };
        }),
      );
      expect(results[0]).toEqual({ type: '0x2', tip: '0x3b9aca00', fee: 1_000_000_000n, gas: '0x1c9c380' });
      expect(results[0]).toEqual(results[1]);
    } finally {
      await kernel.close();
    }
  });

  it("'hardhat' lets a 1-ETH account send 200k gas; the spec's 10,000 gwei does not", async () => {
    for (const sendDefaults of ['hardhat', 'spec'] as const) {
      const kernel = await createNode({ sendDefaults });
      try {
        const rpc = rpcOf(createProvider(kernel));
        await rpc('hardhat_setBalance', [A1, '0xde0b6b3a7640000']);
        const send = rpc('eth_sendTransaction', [{ from: A1, to: A0, gas: '0x30d40' }]);
        if (sendDefaults === 'hardhat') expect(await send).toMatch(/^0x[0-9a-f]{64}$/);
        else await expect(send).rejects.toThrow(/insufficient funds/);
      } finally {
        await kernel.close();
      }
    }
  });
});

describe('time travel continues from the last block (viem test client, ethers send; against Hardhat)', () => {
  it('evm_increaseTime after a block ahead of the clock adds to that block’s time', async () => {
    const p = await pair();
    try {
      const client = createTestClient({
        chain: foundry,
        mode: 'hardhat',
        transport: custom(createProvider(p.kernel)),
      }).extend(publicActions);
      const ethers = new BrowserProvider(createProvider(p.kernel) as unknown as Eip1193Provider, 31337, {
        cacheTimeout: -1,
      });
      const gaps = async (rpc: Rpc) => {
        const ts = async () =>
          word(((await rpc('eth_getBlockByNumber', ['latest', false])) as { timestamp: string }).timestamp);
        const out: bigint[] = [];
        // ahead by evm_setNextBlockTimestamp
        await rpc('evm_setNextBlockTimestamp', [`0x${((await ts()) + 5000n).toString(16)}`]);
        await rpc('evm_mine', []);
        let before = await ts();
        await rpc('evm_increaseTime', ['0xe10']);
        await rpc('evm_mine', []);
        out.push((await ts()) - before);
        // ahead by evm_mine(timestamp)
        await rpc('evm_mine', [`0x${((await ts()) + 5000n).toString(16)}`]);
        before = await ts();
        await rpc('evm_increaseTime', ['0xe10']);
        await rpc('evm_mine', []);
        out.push((await ts()) - before);
        // ahead by hardhat_mine with an interval
        await rpc('hardhat_mine', ['0x3', '0x7d0']);
        before = await ts();
        await rpc('evm_increaseTime', ['0xe10']);
        await rpc('evm_mine', []);
        out.push((await ts()) - before);
        return out;
      };
      const viemRpc: Rpc = async (method, params = []) => {
        if (method === 'evm_increaseTime') return client.increaseTime({ seconds: Number(BigInt(params[0] as string)) });
        if (method === 'evm_mine' && params.length === 0) return client.mine({ blocks: 1 });
        return ethers.send(method, params);
      };
      for (const gap of [...(await gaps(viemRpc)), ...(await gaps(p.theirs))]) {
        expect(gap).toBeGreaterThanOrEqual(3600n);
        expect(gap).toBeLessThan(3610n);
      }
    } finally {
      await p.kernel.close();
    }
  });

  it('anvil_setBlockTimestampInterval steps each block from its parent; removing it answers true', async () => {
    const kernel = await createNode();
    try {
      const rpc = rpcOf(createProvider(kernel));
      const ts = async () =>
        word(((await rpc('eth_getBlockByNumber', ['latest', false])) as { timestamp: string }).timestamp);
      expect(await rpc('anvil_setBlockTimestampInterval', [100])).toBeNull();
      const t0 = await ts();
      await rpc('evm_mine', []);
      await rpc('eth_sendTransaction', [{ from: A0, to: A1, value: '0x1' }]);
      expect([(await ts()) - t0]).toEqual([200n]);
      expect(await rpc('anvil_removeBlockTimestampInterval', [])).toBe(true);
      await rpc('evm_mine', []);
      // back on the clock, continuing from the last block (the offset followed it)
      const gap = (await ts()) - (t0 + 200n);
      expect(gap).toBeGreaterThanOrEqual(1n);
      expect(gap).toBeLessThan(5n);
    } finally {
      await kernel.close();
    }
  });

  it("eth_getAccountInfo answers Anvil's shape: balance, nonce, code", async () => {
    const kernel = await createNode();
    try {
      const rpc = rpcOf(createProvider(kernel));
      const c = await deploy(rpc);
      expect(await rpc('eth_getAccountInfo', [A1, 'latest'])).toEqual({
        balance: '0x21e19e0c9bab2400000',
        nonce: '0x0',
        code: '0x',
      });
      const info = (await rpc('eth_getAccountInfo', [c, 'latest'])) as Record<string, string>;
      expect(info.code).toBe(await rpc('eth_getCode', [c, 'latest']));
      expect(info.nonce).toBe('0x1');
      expect(word(((await rpc('eth_getAccountInfo', [A0, 'latest'])) as { nonce: string }).nonce)).toBe(1n);
      expect(parseEther('1')).toBeGreaterThan(0n);
    } finally {
      await kernel.close();
    }
  });
});

describe("Anvil's methods against Anvil 1.7.1", () => {
  let anvil: Peer;
  let kernel: Kernel;
  let ours: Rpc;
  const theirs: Rpc = async (method, params = []) => {
    const r = await anvil.call(method, params);
    if (r.error) throw Object.assign(new Error(r.error.message), r.error);
    return r.result;
  };
  beforeAll(async () => {
    [anvil, kernel] = await Promise.all([startAnvil(), createNode()]);
    ours = rpcOf(createProvider(kernel));
  });
  afterAll(async () => {
    await anvil?.close();
    await kernel?.close();
  });

  it('anvil_metadata has the same fields and types, snapshots as id → [number, hash]', async () => {
    for (const rpc of [ours, theirs]) await rpc('evm_snapshot', []);
    const [a, b] = [
      (await ours('anvil_metadata')) as Record<string, unknown>,
      (await theirs('anvil_metadata')) as Record<string, unknown>,
    ];
    expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
    for (const k of Object.keys(b)) expect(typeof a[k], k).toBe(typeof b[k]);
    expect(a.forkedNetwork).toBe(b.forkedNetwork);
    const entry = (m: Record<string, unknown>) => Object.values(m.snapshots as Record<string, [number, string]>)[0];
    expect(entry(a)).toEqual([0, ((await ours('eth_getBlockByNumber', ['0x0', false])) as { hash: string }).hash]);
    expect(typeof entry(b)[0]).toBe('number');
  });

  it('eth_getAccountInfo answers what Anvil answers for a dev account and an empty one', async () => {
    for (const who of [A1, '0x00000000000000000000000000000000000000e1']) {
      expect(await ours('eth_getAccountInfo', [who, 'latest'])).toEqual(
        await theirs('eth_getAccountInfo', [who, 'latest']),
      );
    }
  });

  it('anvil_setBlockTimestampInterval answers and steps blocks as Anvil', async () => {
    const steps = async (rpc: Rpc) => {
      const ts = async () =>
        word(((await rpc('eth_getBlockByNumber', ['latest', false])) as { timestamp: string }).timestamp);
      const set = await rpc('anvil_setBlockTimestampInterval', [7]);
      const t0 = await ts();
      await rpc('evm_mine', []);
      const t1 = await ts();
      await rpc('evm_mine', []);
      const t2 = await ts();
      const removed = await rpc('anvil_removeBlockTimestampInterval', []);
      return [set, t1 - t0, t2 - t1, removed];
    };
    const [a, b] = [await steps(ours), await steps(theirs)];
    expect(a).toEqual([null, 7n, 7n, true]);
    expect(a).toEqual(b);
  });
});
