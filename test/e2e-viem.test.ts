/**
 * End-to-end: viem 2 against a real Ashlar node over HTTP on 127.0.0.1,
 * written the way a viem user would write it.
 *
 * multicall is deliberately not covered: the dev chain has no Multicall3 deployed.
 */
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  defineChain,
  getContractAddress,
  type Hash,
  http,
  parseAbiItem,
  parseEther,
  parseGwei,
  zeroAddress,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS, loadArtifact } from './helpers/contracts.js';
import { startNode } from './helpers/node.js';

const counter = loadArtifact('Counter');
const token = loadArtifact('Token');
const incrementedEvent = parseAbiItem('event Incremented(address indexed by, uint256 newValue)');
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** Dev account 0, signing locally (eth_sendRawTransaction). */
const account = privateKeyToAccount(DEV_ACCOUNTS[0].privateKey);
/** Dev account 1, signing locally. */
const otherAccount = privateKeyToAccount(DEV_ACCOUNTS[1].privateKey);

function makeClients(url: string) {
  const chain = defineChain({
    id: 31337,
    name: 'Ashlar',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
  const transport = http(url);
  return {
    chain,
    publicClient: createPublicClient({ chain, transport, pollingInterval: 50 }),
    /** Local account: viem signs and sends eth_sendRawTransaction. */
    walletClient: createWalletClient({
      account,
      chain,
      transport,
      pollingInterval: 50,
    }),
    otherWalletClient: createWalletClient({
      account: otherAccount,
      chain,
      transport,
      pollingInterval: 50,
    }),
    /** JSON-RPC account: the node holds the key and signs eth_sendTransaction. */
    rpcWalletClient: createWalletClient({
      account: DEV_ACCOUNTS[0].address,
      chain,
      transport,
      pollingInterval: 50,
    }),
  };
}

let node: Awaited<ReturnType<typeof startNode>>;
let clients: ReturnType<typeof makeClients>;

beforeAll(async () => {
  node = await startNode();
  clients = makeClients(node.url);
});

afterAll(async () => {
  await node?.close();
});

/** The error a promise rejects with; fails the test if it resolves. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/** Addresses in raw RPC results are compared case-insensitively (the node may or may not checksum them). */
function expectAddress(actual: string | null | undefined, expected: string) {
  expect(actual?.toLowerCase(), `address ${actual}`).toBe(expected.toLowerCase());
}

/** Finds the ContractFunctionRevertedError viem puts in the cause chain of a contract failure. */
function revertedError(error: unknown): ContractFunctionRevertedError {
  expect(error).toBeInstanceOf(BaseError);
  const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError);
  expect(reverted, String(error)).toBeInstanceOf(ContractFunctionRevertedError);
  return reverted as ContractFunctionRevertedError;
}

async function deployCounter(): Promise<Address> {
  const { walletClient, publicClient } = clients;
  const hash = await walletClient.deployContract({
    abi: counter.abi,
    bytecode: counter.bytecode,
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  if (!receipt.contractAddress) throw new Error('no contractAddress in the deployment receipt');
  return receipt.contractAddress;
}

async function mined(hash: Hash) {
  return clients.publicClient.waitForTransactionReceipt({ hash });
}

describe('viem — chain and accounts', () => {
  it('reports chain id 31337', async () => {
    expect(await clients.publicClient.getChainId()).toBe(31337);
    expect(await clients.walletClient.getChainId()).toBe(31337);
  });

  it('lists the node-held accounts', async () => {
    const addresses = await clients.rpcWalletClient.getAddresses();
    expect(addresses).toHaveLength(20);
    expectAddress(addresses[0], account.address);
  });

  it('funds the dev accounts with 10000 ETH', async () => {
    const untouched = privateKeyToAccount(generatePrivateKey()).address;
    expect(await clients.publicClient.getBalance({ address: untouched })).toBe(0n);
    const [, , , , , , , , , , , , , , , , , , , last] = await clients.rpcWalletClient.getAddresses();
    if (!last) throw new Error('expected 20 accounts');
    expect(await clients.publicClient.getBalance({ address: last })).toBe(parseEther('10000'));
  });
});

describe('viem — contracts', () => {
  it('deploys Counter with deployContract', async () => {
    const { publicClient, walletClient } = clients;
    const nonce = await publicClient.getTransactionCount({
      address: account.address,
    });
    const hash = await walletClient.deployContract({
      abi: counter.abi,
      bytecode: counter.bytecode,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.to).toBeNull();
    expectAddress(receipt.contractAddress, getContractAddress({ from: account.address, nonce: BigInt(nonce) }));
    const address = receipt.contractAddress as Address;

    const code = await publicClient.getCode({ address });
    expect(code?.length).toBe(counter.deployedBytecode.length);
    expect(
      await publicClient.readContract({
        address,
        abi: counter.abi,
        functionName: 'count',
      }),
    ).toBe(0n);
    expect(
      await publicClient.readContract({
        address,
        abi: counter.abi,
        functionName: 'owner',
      }),
    ).toBe(account.address);
  });

  it('writes with writeContract, waits for the receipt and reads back', async () => {
    const { publicClient, walletClient } = clients;
    const address = await deployCounter();

    const hash = await walletClient.writeContract({
      address,
      abi: counter.abi,
      functionName: 'increment',
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.transactionHash).toBe(hash);
    expect(receipt.logs).toHaveLength(1);
    expect(
      await publicClient.readContract({
        address,
        abi: counter.abi,
        functionName: 'count',
      }),
    ).toBe(1n);

    await mined(
      await walletClient.writeContract({
        address,
        abi: counter.abi,
        functionName: 'add',
        args: [9n],
      }),
    );
    expect(
      await publicClient.readContract({
        address,
        abi: counter.abi,
        functionName: 'count',
      }),
    ).toBe(10n);
  });

  it('writes through a JSON-RPC account (eth_sendTransaction)', async () => {
    const { publicClient, rpcWalletClient } = clients;
    const deployHash = await rpcWalletClient.deployContract({
      abi: counter.abi,
      bytecode: counter.bytecode,
    });
    const deployment = await mined(deployHash);
    expect(deployment.status).toBe('success');
    const address = deployment.contractAddress as Address;

    const receipt = await mined(
      await rpcWalletClient.writeContract({
        address,
        abi: counter.abi,
        functionName: 'add',
        args: [3n],
      }),
    );
    expect(receipt.status).toBe('success');
    expectAddress(receipt.from, account.address);
    expect(
      await publicClient.readContract({
        address,
        abi: counter.abi,
        functionName: 'count',
      }),
    ).toBe(3n);
  });

  it('filters logs with getLogs, the event ABI and args', async () => {
    const { publicClient, walletClient, otherWalletClient } = clients;
    const address = await deployCounter();
    const first = await mined(
      await walletClient.writeContract({
        address,
        abi: counter.abi,
        functionName: 'increment',
      }),
    );
    await mined(
      await otherWalletClient.writeContract({
        address,
        abi: counter.abi,
        functionName: 'add',
        args: [4n],
      }),
    );
    await mined(
      await walletClient.writeContract({
        address,
        abi: counter.abi,
        functionName: 'increment',
      }),
    );

    const all = await publicClient.getLogs({
      address,
      event: incrementedEvent,
      fromBlock: first.blockNumber,
    });
    expect(all.map((l) => l.args.newValue)).toEqual([1n, 5n, 6n]);

    const mine = await publicClient.getLogs({
      address,
      event: incrementedEvent,
      args: { by: account.address },
      fromBlock: 0n,
      toBlock: 'latest',
    });
    expect(mine).toHaveLength(2);
    for (const log of mine) {
      expect(log.eventName).toBe('Incremented');
      expect(log.args.by).toBe(account.address);
      expectAddress(log.address, address);
      expect(log.removed).toBe(false);
    }
    expect(mine[0]?.transactionHash).toBe(first.transactionHash);
    expect(mine[0]?.blockNumber).toBe(first.blockNumber);

    const theirs = await publicClient.getLogs({
      address,
      event: incrementedEvent,
      args: { by: otherAccount.address },
      fromBlock: 0n,
    });
    expect(theirs.map((l) => l.args.newValue)).toEqual([5n]);

    const nobody = await publicClient.getLogs({
      address,
      event: incrementedEvent,
      args: { by: zeroAddress },
      fromBlock: 0n,
    });
    expect(nobody).toHaveLength(0);
  });

  it('reads events with getContractEvents', async () => {
    const { publicClient, walletClient } = clients;
    const address = await deployCounter();
    await mined(
      await walletClient.writeContract({
        address,
        abi: counter.abi,
        functionName: 'add',
        args: [2n],
      }),
    );
    await mined(
      await walletClient.writeContract({
        address,
        abi: counter.abi,
        functionName: 'add',
        args: [3n],
      }),
    );

    const events = await publicClient.getContractEvents({
      address,
      abi: counter.abi,
      eventName: 'Incremented',
      fromBlock: 0n,
    });
    expect(events).toHaveLength(2);
    expect(events.map((e) => e.eventName)).toEqual(['Incremented', 'Incremented']);
    expect(events.map((e) => (e.args as { newValue?: bigint }).newValue)).toEqual([2n, 5n]);

    const filtered = await publicClient.getContractEvents({
      address,
      abi: counter.abi,
      eventName: 'Incremented',
      args: { by: otherAccount.address },
      fromBlock: 0n,
    });
    expect(filtered).toHaveLength(0);
  });

  it('simulateContract returns the result and the request for a successful call', async () => {
    const { publicClient, walletClient } = clients;
    const address = await deployCounter();
    const { result, request } = await publicClient.simulateContract({
      account,
      address,
      abi: counter.abi,
      functionName: 'guarded',
    });
    expect(result).toBe(true);
    expect((await mined(await walletClient.writeContract(request))).status).toBe('success');
  });

  it('simulateContract throws ContractFunctionRevertedError with the reason', async () => {
    const address = await deployCounter();
    const error = await rejectionOf(
      clients.publicClient.simulateContract({
        account,
        address,
        abi: counter.abi,
        functionName: 'fail',
      }),
    );
    const reverted = revertedError(error);
    expect(reverted.reason).toBe('Counter: failed on purpose');
    expect(reverted.data?.errorName).toBe('Error');
    expect(reverted.raw).toMatch(/^0x08c379a0/);
  });

  it('writeContract fails with the reason when gas estimation reverts', async () => {
    const address = await deployCounter();
    const error = await rejectionOf(
      clients.walletClient.writeContract({
        address,
        abi: counter.abi,
        functionName: 'fail',
      }),
    );
    expect(revertedError(error).reason).toBe('Counter: failed on purpose');
  });

  it('decodes a custom error', async () => {
    const address = await deployCounter();
    const error = await rejectionOf(
      clients.publicClient.simulateContract({
        account: otherAccount,
        address,
        abi: counter.abi,
        functionName: 'guarded',
      }),
    );
    const reverted = revertedError(error);
    expect(reverted.data?.errorName).toBe('NotOwner');
    expect(reverted.data?.args).toEqual([otherAccount.address]);
    expect(reverted.reason).toBeUndefined();
  });

  it('decodes Panic(0x12)', async () => {
    const address = await deployCounter();
    const error = await rejectionOf(
      clients.publicClient.readContract({
        address,
        abi: counter.abi,
        functionName: 'panic',
      }),
    );
    const reverted = revertedError(error);
    expect(reverted.data?.errorName).toBe('Panic');
    expect(reverted.data?.args).toEqual([0x12n]);
    expect(reverted.reason).toBe('Division or modulo by zero (e.g. `5 / 0` or `23 % 0`).');
  });

  it('deploys the Token and transfers', async () => {
    const { publicClient, walletClient } = clients;
    const supply = parseEther('1000000');
    const deployment = await mined(
      await walletClient.deployContract({
        abi: token.abi,
        bytecode: token.bytecode,
        args: ['Ashlar Token', 'ASH', supply],
      }),
    );
    const address = deployment.contractAddress as Address;
    expect(await publicClient.getCode({ address })).toBe(token.deployedBytecode);

    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const receipt = await mined(
      await walletClient.writeContract({
        address,
        abi: token.abi,
        functionName: 'transfer',
        args: [recipient, 1234n],
      }),
    );
    expect(receipt.status).toBe('success');
    expect(
      await publicClient.readContract({
        address,
        abi: token.abi,
        functionName: 'balanceOf',
        args: [recipient],
      }),
    ).toBe(1234n);

    const transfers = await publicClient.getLogs({
      address,
      event: transferEvent,
      args: { to: recipient },
    });
    // No fromBlock: the default range is the latest block only, which holds the transfer.
    expect(transfers).toHaveLength(1);
    expect(transfers[0]?.args).toEqual({
      from: account.address,
      to: recipient,
      value: 1234n,
    });
  });
});

describe('viem — blocks, transactions and fees', () => {
  it('getBlock returns the latest block and a block with its transactions', async () => {
    const { publicClient, walletClient } = clients;
    const hash = await walletClient.sendTransaction({
      to: otherAccount.address,
      value: 1n,
    });
    const receipt = await mined(hash);

    const latest = await publicClient.getBlock();
    expect(latest.number).toBe(await publicClient.getBlockNumber());
    expect(latest.number).toBe(receipt.blockNumber);
    expect(latest.hash).toBe(receipt.blockHash);
    expect(latest.transactions).toContain(hash);
    expect(latest.baseFeePerGas).toBeTypeOf('bigint');
    expect(latest.gasLimit).toBeGreaterThan(0n);
    expect(latest.gasUsed).toBeGreaterThanOrEqual(21000n);
    expect(latest.timestamp).toBeGreaterThan(0n);
    expect(latest.difficulty).toBe(0n);
    expect(latest.miner).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(latest.blobGasUsed).toBeTypeOf('bigint');
    expect(latest.excessBlobGas).toBeTypeOf('bigint');

    const full = await publicClient.getBlock({
      blockNumber: receipt.blockNumber,
      includeTransactions: true,
    });
    expect(full.hash).toBe(latest.hash);
    const tx = full.transactions.find((t) => t.hash === hash);
    expectAddress(tx?.from, account.address);
    expectAddress(tx?.to, otherAccount.address);
    expect(tx?.value).toBe(1n);

    const parent = await publicClient.getBlock({
      blockHash: latest.parentHash,
    });
    expect(parent.number).toBe(latest.number - 1n);
  });

  it('getTransactionCount follows the nonce', async () => {
    const { publicClient, walletClient } = clients;
    const before = await publicClient.getTransactionCount({
      address: account.address,
    });
    const hash = await walletClient.sendTransaction({
      to: otherAccount.address,
      value: 1n,
    });
    const tx = await publicClient.getTransaction({ hash });
    expect(tx.nonce).toBe(before);
    await mined(hash);
    expect(await publicClient.getTransactionCount({ address: account.address })).toBe(before + 1);
    expect(
      await publicClient.getTransactionCount({
        address: account.address,
        blockTag: 'pending',
      }),
    ).toBe(before + 1);
  });

  it('sends an EIP-1559 transaction', async () => {
    const { publicClient, walletClient } = clients;
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await walletClient.sendTransaction({
      to: recipient,
      value: parseEther('1'),
      type: 'eip1559',
    });
    const receipt = await mined(hash);
    expect(receipt.status).toBe('success');
    expect(receipt.type).toBe('eip1559');
    expect(receipt.gasUsed).toBe(21000n);
    expect(receipt.effectiveGasPrice).toBeGreaterThan(0n);
    expect(await publicClient.getBalance({ address: recipient })).toBe(parseEther('1'));

    const tx = await publicClient.getTransaction({ hash });
    expect(tx.type).toBe('eip1559');
    expect(tx.chainId).toBe(31337);
    expect(tx.maxFeePerGas).toBeGreaterThan(0n);
    expect(tx.maxPriorityFeePerGas).toBeTypeOf('bigint');
    expectAddress(tx.from, account.address);
    expectAddress(tx.to, recipient);
    expect(tx.value).toBe(parseEther('1'));
  });

  it('sends a legacy transaction', async () => {
    const { publicClient, walletClient } = clients;
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await walletClient.sendTransaction({
      to: recipient,
      value: 777n,
      type: 'legacy',
    });
    const receipt = await mined(hash);
    expect(receipt.status).toBe('success');
    expect(receipt.type).toBe('legacy');
    expect(receipt.gasUsed).toBe(21000n);

    const tx = await publicClient.getTransaction({ hash });
    expect(tx.type).toBe('legacy');
    expect(tx.gasPrice).toBeGreaterThan(0n);
    expect(tx.chainId).toBe(31337);
    expect(await publicClient.getBalance({ address: recipient })).toBe(777n);
  });

  it('sends an EIP-2930 transaction with an access list', async () => {
    const { publicClient, walletClient } = clients;
    const address = await deployCounter();
    const accessList = [{ address, storageKeys: [`0x${'00'.repeat(32)}` as const] }];
    const hash = await walletClient.writeContract({
      address,
      abi: counter.abi,
      functionName: 'increment',
      type: 'eip2930',
      accessList,
    });
    const receipt = await mined(hash);
    expect(receipt.status).toBe('success');
    expect(receipt.type).toBe('eip2930');
    const tx = await publicClient.getTransaction({ hash });
    expect(tx.type).toBe('eip2930');
    expect(tx.accessList?.map((e) => ({ ...e, address: e.address.toLowerCase() }))).toEqual(
      accessList.map((e) => ({ ...e, address: e.address.toLowerCase() })),
    );
  });

  it('sends ETH with the JSON-RPC account', async () => {
    const { publicClient, rpcWalletClient } = clients;
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await rpcWalletClient.sendTransaction({
      to: recipient,
      value: parseEther('2'),
    });
    const receipt = await mined(hash);
    expect(receipt.status).toBe('success');
    expectAddress(receipt.from, account.address);
    expect(await publicClient.getBalance({ address: recipient })).toBe(parseEther('2'));

    const legacy = await mined(
      await rpcWalletClient.sendTransaction({
        to: recipient,
        value: 1n,
        type: 'legacy',
        gasPrice: parseGwei('5'),
      }),
    );
    expect(legacy.status).toBe('success');
    expect(legacy.type).toBe('legacy');
    expect(legacy.effectiveGasPrice).toBe(parseGwei('5'));
  });

  it('estimateGas gives 21000 for a plain send and more for a contract call', async () => {
    const { publicClient } = clients;
    const gas = await publicClient.estimateGas({
      account: account.address,
      to: otherAccount.address,
      value: parseEther('1'),
    });
    expect(gas).toBe(21000n);

    const address = await deployCounter();
    const callGas = await publicClient.estimateContractGas({
      account,
      address,
      abi: counter.abi,
      functionName: 'increment',
    });
    expect(callGas).toBeGreaterThan(21000n);
  });

  it('getGasPrice and estimateFeesPerGas are positive', async () => {
    const { publicClient } = clients;
    expect(await publicClient.getGasPrice()).toBeGreaterThan(0n);
    const fees = await publicClient.estimateFeesPerGas();
    expect(fees.maxFeePerGas).toBeGreaterThan(0n);
    expect(fees.maxFeePerGas).toBeGreaterThanOrEqual(fees.maxPriorityFeePerGas);
    expect(await publicClient.estimateMaxPriorityFeePerGas()).toBeTypeOf('bigint');
  });

  it('getFeeHistory covers the requested blocks', async () => {
    const { publicClient, walletClient } = clients;
    for (let i = 0; i < 3; i++) {
      await mined(
        await walletClient.sendTransaction({
          to: otherAccount.address,
          value: 1n,
        }),
      );
    }
    const latest = await publicClient.getBlockNumber();
    const history = await publicClient.getFeeHistory({
      blockCount: 3,
      rewardPercentiles: [25, 75],
    });
    expect(history.oldestBlock).toBe(latest - 2n);
    expect(history.baseFeePerGas).toHaveLength(4); // blockCount + the next block
    expect(history.gasUsedRatio).toHaveLength(3);
    for (const ratio of history.gasUsedRatio) {
      expect(ratio).toBeGreaterThan(0);
      expect(ratio).toBeLessThanOrEqual(1);
    }
    expect(history.reward).toHaveLength(3);
    for (const rewards of history.reward ?? []) {
      expect(rewards).toHaveLength(2);
      expect(rewards[0]).toBeLessThanOrEqual(rewards[1] ?? 0n);
    }
  });
});
