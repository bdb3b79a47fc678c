/**
 * End-to-end: ethers v6 against a real Ashlar node over HTTP on 127.0.0.1,
 * written the way an ethers user would write it.
 */
import {
  Contract,
  ContractFactory,
  type ContractTransactionReceipt,
  type ContractTransactionResponse,
  EventLog,
  getCreateAddress,
  isError,
  JsonRpcProvider,
  type JsonRpcSigner,
  parseEther,
  parseUnits,
  Transaction,
  type TransactionResponse,
  Wallet,
  ZeroAddress,
  zeroPadValue,
} from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS, loadArtifact } from './helpers/contracts.js';
import { startNode } from './helpers/node.js';

const counterArtifact = loadArtifact('Counter');
const tokenArtifact = loadArtifact('Token');

let node: Awaited<ReturnType<typeof startNode>>;
let provider: JsonRpcProvider;
/** Dev account 0, signing locally (eth_sendRawTransaction). */
let wallet: Wallet;
/** Dev account 1, signing locally. */
let other: Wallet;
/** Dev account 0 again, but the node holds the key (eth_sendTransaction). */
let signer: JsonRpcSigner;

/** The error a promise rejects with; fails the test if it resolves. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

async function deployCounter(runner: Wallet | JsonRpcSigner = wallet) {
  const factory = new ContractFactory<[], Contract>(counterArtifact.abi, counterArtifact.bytecode, runner);
  const counter = await factory.deploy();
  await counter.waitForDeployment();
  return counter;
}

async function deployToken(supply: bigint) {
  const factory = new ContractFactory<[string, string, bigint], Contract>(
    tokenArtifact.abi,
    tokenArtifact.bytecode,
    wallet,
  );
  const token = await factory.deploy('Ashlar Token', 'ASH', supply);
  await token.waitForDeployment();
  return token;
}

/** Waits for a contract transaction and returns its (non-null) receipt. */
async function mined(pending: Promise<ContractTransactionResponse>): Promise<ContractTransactionReceipt> {
  const receipt = await (await pending).wait();
  if (!receipt) throw new Error('no receipt');
  return receipt;
}

/** Re-serialises a mined transaction from the RPC fields and returns its hash and recovered sender. */
function reserialize(tx: TransactionResponse): { hash: string; from: string } {
  const rebuilt = Transaction.from({
    type: tx.type,
    chainId: tx.chainId,
    nonce: tx.nonce,
    to: tx.to,
    value: tx.value,
    data: tx.data,
    gasLimit: tx.gasLimit,
    ...(tx.type === 2
      ? {
          maxFeePerGas: tx.maxFeePerGas,
          maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
        }
      : { gasPrice: tx.gasPrice }),
    ...(tx.type === 0 ? {} : { accessList: tx.accessList }),
    signature: tx.signature,
  });
  return { hash: rebuilt.hash ?? '', from: rebuilt.from ?? '' };
}

beforeAll(async () => {
  node = await startNode();
  provider = new JsonRpcProvider(node.url, 31337, {
    staticNetwork: true,
    pollingInterval: 50,
    // ethers caches identical requests for 250 ms by default; against an automining dev chain that
    // serves stale nonces and balances to back-to-back transactions, so turn the cache off.
    cacheTimeout: -1,
  });
  wallet = new Wallet(DEV_ACCOUNTS[0].privateKey, provider);
  other = new Wallet(DEV_ACCOUNTS[1].privateKey, provider);
  signer = await provider.getSigner(0);
});

afterAll(async () => {
  provider?.destroy();
  await node?.close();
});

describe('ethers v6 — network and accounts', () => {
  it('reports chain id 31337', async () => {
    const network = await provider.getNetwork();
    expect(network.chainId).toBe(31337n);
    expect(await provider.send('eth_chainId', [])).toBe('0x7a69');
  });

  it('funds the dev accounts with 10000 ETH', async () => {
    // Account 19 is never used by this file, so it still holds its genesis balance.
    const accounts = await provider.listAccounts();
    expect(accounts).toHaveLength(20);
    expect(await provider.getBalance(accounts[19].address)).toBe(parseEther('10000'));
    expect(await provider.getBalance(Wallet.createRandom().address)).toBe(0n);
  });

  it('exposes the node-held key as getSigner(0)', async () => {
    expect(await signer.getAddress()).toBe(wallet.address);
    expect(wallet.address).toBe(DEV_ACCOUNTS[0].address);
  });
});

describe('ethers v6 — plain ETH transfers', () => {
  it('sends ETH from a Wallet and waits for the receipt', async () => {
    const recipient = Wallet.createRandom().address;
    const before = await provider.getBalance(wallet.address);
    const nonce = await provider.getTransactionCount(wallet.address);

    const tx = await wallet.sendTransaction({
      to: recipient,
      value: parseEther('1.5'),
    });
    expect(tx.nonce).toBe(nonce);
    const receipt = await tx.wait();

    expect(receipt).not.toBeNull();
    if (!receipt) return;
    expect(receipt.status).toBe(1);
    expect(receipt.gasUsed).toBe(21000n);
    expect(receipt.hash).toBe(tx.hash);
    expect(receipt.from).toBe(wallet.address);
    expect(receipt.to).toBe(recipient);
    expect(receipt.contractAddress).toBeNull();
    expect(receipt.logs).toHaveLength(0);
    expect(receipt.type).toBe(2);
    expect(receipt.gasPrice).toBeGreaterThan(0n);
    expect(receipt.blockNumber).toBe(await provider.getBlockNumber());

    expect(await provider.getBalance(recipient)).toBe(parseEther('1.5'));
    expect(await provider.getBalance(wallet.address)).toBe(before - parseEther('1.5') - receipt.fee);
    expect(await provider.getTransactionCount(wallet.address)).toBe(nonce + 1);
  });

  it('sends ETH through the node-held key (eth_sendTransaction)', async () => {
    const recipient = Wallet.createRandom().address;
    const tx = await signer.sendTransaction({
      to: recipient,
      value: parseEther('0.25'),
    });
    expect(tx.from).toBe(wallet.address);
    const receipt = await tx.wait();
    expect(receipt?.status).toBe(1);
    expect(receipt?.gasUsed).toBe(21000n);
    expect(await provider.getBalance(recipient)).toBe(parseEther('0.25'));
  });

  it('estimates exactly 21000 gas for a plain send', async () => {
    const gas = await provider.estimateGas({
      from: wallet.address,
      to: Wallet.createRandom().address,
      value: parseEther('1'),
    });
    expect(gas).toBe(21000n);
  });

  it('sends a legacy (type 0) transaction', async () => {
    const recipient = Wallet.createRandom().address;
    const tx = await wallet.sendTransaction({
      type: 0,
      to: recipient,
      value: 1234n,
    });
    const receipt = await tx.wait();
    expect(receipt?.status).toBe(1);
    expect(receipt?.type).toBe(0);
    expect(receipt?.gasUsed).toBe(21000n);

    const fetched = await provider.getTransaction(tx.hash);
    expect(fetched).not.toBeNull();
    if (!fetched) return;
    expect(fetched.type).toBe(0);
    expect(fetched.gasPrice).toBeGreaterThan(0n);
    expect(fetched.maxFeePerGas).toBeNull();
    expect(fetched.maxPriorityFeePerGas).toBeNull();
    expect(fetched.chainId).toBe(31337n); // EIP-155 replay-protected
    expect(reserialize(fetched)).toEqual({
      hash: tx.hash,
      from: wallet.address,
    });
    expect(await provider.getBalance(recipient)).toBe(1234n);
  });

  it('sends an EIP-2930 (type 1) transaction with an access list', async () => {
    const counter = await deployCounter();
    const address = await counter.getAddress();
    const accessList = [{ address, storageKeys: [zeroPadValue('0x00', 32)] }];

    const tx = await wallet.sendTransaction({
      type: 1,
      to: address,
      data: counter.interface.encodeFunctionData('increment'),
      accessList,
    });
    const receipt = await tx.wait();
    expect(receipt?.status).toBe(1);
    expect(receipt?.type).toBe(1);
    expect(await counter.count()).toBe(1n);

    const fetched = await provider.getTransaction(tx.hash);
    expect(fetched).not.toBeNull();
    if (!fetched) return;
    expect(fetched.type).toBe(1);
    expect(fetched.accessList).toEqual(accessList);
    expect(fetched.gasPrice).toBeGreaterThan(0n);
    expect(reserialize(fetched)).toEqual({
      hash: tx.hash,
      from: wallet.address,
    });
  });
});

describe('ethers v6 — blocks, transactions and fees', () => {
  it("returns the fields of getBlock('latest')", async () => {
    const sent = await wallet.sendTransaction({ to: other.address, value: 1n });
    await sent.wait();

    const block = await provider.getBlock('latest');
    expect(block).not.toBeNull();
    if (!block) return;
    expect(block.number).toBe(await provider.getBlockNumber());
    expect(block.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(block.parentHash).toMatch(/^0x[0-9a-f]{64}$/);
    // Seconds since the epoch, near the wall clock (a dev chain may run a little ahead of it).
    const now = Math.floor(Date.now() / 1000);
    expect(block.timestamp).toBeGreaterThan(now - 3600);
    expect(block.timestamp).toBeLessThan(now + 3600);
    expect(block.gasLimit).toBeGreaterThan(0n);
    expect(block.gasUsed).toBeGreaterThanOrEqual(21000n);
    expect(block.gasUsed).toBeLessThanOrEqual(block.gasLimit);
    expect(block.baseFeePerGas).not.toBeNull();
    expect(block.miner).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(block.difficulty).toBe(0n); // post-merge
    expect(block.nonce).toBe('0x0000000000000000');
    expect(block.transactions).toContain(sent.hash);
    // Cancun header fields.
    expect(block.blobGasUsed).not.toBeNull();
    expect(block.excessBlobGas).not.toBeNull();
    expect(block.parentBeaconBlockRoot).not.toBeNull();

    const parent = await provider.getBlock(block.number - 1);
    expect(parent?.hash).toBe(block.parentHash);
    expect(parent?.timestamp).toBeLessThanOrEqual(block.timestamp);

    const byHash = await provider.getBlock(block.hash ?? '');
    expect(byHash?.number).toBe(block.number);

    const withTxs = await provider.getBlock(block.number, true);
    expect(withTxs?.prefetchedTransactions.map((t) => t.hash)).toEqual(block.transactions);
  });

  it('returns a transaction by hash with from/to/nonce/value', async () => {
    const nonce = await provider.getTransactionCount(wallet.address);
    const sent = await wallet.sendTransaction({
      to: other.address,
      value: parseEther('0.5'),
    });
    const receipt = await sent.wait();

    const tx = await provider.getTransaction(sent.hash);
    expect(tx).not.toBeNull();
    if (!tx || !receipt) return;
    expect(tx.hash).toBe(sent.hash);
    expect(tx.from).toBe(wallet.address);
    expect(tx.to).toBe(other.address);
    expect(tx.nonce).toBe(nonce);
    expect(tx.value).toBe(parseEther('0.5'));
    expect(tx.data).toBe('0x');
    expect(tx.type).toBe(2);
    expect(tx.chainId).toBe(31337n);
    expect(tx.blockNumber).toBe(receipt.blockNumber);
    expect(tx.blockHash).toBe(receipt.blockHash);
    expect(tx.index).toBe(receipt.index);
    expect(tx.gasLimit).toBeGreaterThanOrEqual(21000n);
    expect(tx.maxFeePerGas).toBeGreaterThan(0n);
    expect(tx.maxPriorityFeePerGas).not.toBeNull();
    expect(reserialize(tx)).toEqual({ hash: sent.hash, from: wallet.address });

    expect(await provider.getTransaction(`0x${'ab'.repeat(32)}`)).toBeNull();
    expect(await provider.getTransactionReceipt(`0x${'ab'.repeat(32)}`)).toBeNull();
  });

  it('reports EIP-1559 fee data', async () => {
    const fees = await provider.getFeeData();
    const latest = await provider.getBlock('latest');
    expect(fees.gasPrice).toBeGreaterThan(0n);
    expect(fees.maxFeePerGas).not.toBeNull();
    expect(fees.maxPriorityFeePerGas).not.toBeNull();
    expect(fees.maxFeePerGas).toBeGreaterThanOrEqual(fees.maxPriorityFeePerGas ?? 0n);
    expect(fees.maxFeePerGas).toBeGreaterThan(latest?.baseFeePerGas ?? 0n);
  });
});

describe('ethers v6 — contracts', () => {
  it('deploys Counter with a ContractFactory', async () => {
    const nonce = await provider.getTransactionCount(wallet.address);
    const counter = await deployCounter();
    const address = await counter.getAddress();
    const deployment = counter.deploymentTransaction();
    expect(deployment).not.toBeNull();
    if (!deployment) return;

    expect(address).toBe(getCreateAddress({ from: wallet.address, nonce }));
    expect(deployment.to).toBeNull();
    const receipt = await deployment.wait();
    expect(receipt?.status).toBe(1);
    expect(receipt?.contractAddress).toBe(address);

    const code = await provider.getCode(address);
    // Counter has an immutable (owner), so compare lengths only.
    expect(code.length).toBe(counterArtifact.deployedBytecode.length);
    expect(await counter.count()).toBe(0n);
    expect(await counter.owner()).toBe(wallet.address);
  });

  it('deploys through the node-held key and reads owner', async () => {
    const counter = await deployCounter(signer);
    expect(await counter.owner()).toBe(wallet.address);
  });

  it('calls increment and add, then reads count', async () => {
    const counter = await deployCounter();
    const tx: ContractTransactionResponse = await counter.increment();
    const receipt = await tx.wait();
    expect(receipt?.status).toBe(1);
    expect(await counter.count()).toBe(1n);

    await mined(counter.add(41n));
    expect(await counter.count()).toBe(42n);

    // Through the node-held key too.
    const viaSigner = new Contract(await counter.getAddress(), counterArtifact.abi, signer);
    await mined(viaSigner.increment());
    expect(await counter.count()).toBe(43n);
  });

  it('reads Incremented from the receipt logs via the interface', async () => {
    const counter = await deployCounter();
    const address = await counter.getAddress();
    const receipt = await mined(counter.add(7n));
    expect(receipt.logs).toHaveLength(1);
    const log = receipt.logs[0];
    if (!log) return;
    expect(log.address).toBe(address);
    expect(log.topics[0]).toBe(counter.interface.getEvent('Incremented')?.topicHash);
    expect(log.topics[1]).toBe(zeroPadValue(wallet.address.toLowerCase(), 32));
    const parsed = counter.interface.parseLog(log);
    expect(parsed?.name).toBe('Incremented');
    expect(parsed?.args.by).toBe(wallet.address);
    expect(parsed?.args.newValue).toBe(7n);
    expect(log.blockNumber).toBe(receipt.blockNumber);
    expect(log.transactionHash).toBe(receipt.hash);
  });

  it('queries events with contract.queryFilter', async () => {
    const counter = await deployCounter();
    const address = await counter.getAddress();
    await mined(counter.increment());
    await mined(counter.add(5n));
    await mined(new Contract(address, counterArtifact.abi, other).increment());

    const all = await counter.queryFilter('Incremented', 0, 'latest');
    expect(all).toHaveLength(3);
    const values = all.map((e) => (e instanceof EventLog ? e.args.newValue : undefined));
    expect(values).toEqual([1n, 6n, 7n]);

    const mine = await counter.queryFilter(counter.filters.Incremented(wallet.address));
    expect(mine).toHaveLength(2);
    for (const event of mine) {
      expect(event).toBeInstanceOf(EventLog);
      if (event instanceof EventLog) {
        expect(event.eventName).toBe('Incremented');
        expect(event.args.by).toBe(wallet.address);
      }
    }

    const theirs = await counter.queryFilter(counter.filters.Incremented(other.address));
    expect(theirs).toHaveLength(1);
    expect(theirs[0]?.blockNumber).toBe(await provider.getBlockNumber());
  });

  it('surfaces the revert reason of require(false, "...") as CALL_EXCEPTION', async () => {
    const counter = await deployCounter();
    const error = await rejectionOf(counter.fail());
    expect(isError(error, 'CALL_EXCEPTION')).toBe(true);
    if (!isError(error, 'CALL_EXCEPTION')) return;
    expect(error.reason).toBe('Counter: failed on purpose');
    expect(error.revert?.name).toBe('Error');
    expect(error.revert?.args).toEqual(['Counter: failed on purpose']);
    expect(counter.interface.parseError(error.data ?? '0x')?.args[0]).toBe('Counter: failed on purpose');
  });

  it('surfaces the revert reason when sending (gas estimation fails)', async () => {
    const counter = await deployCounter();
    const error = await rejectionOf(counter.fail.send());
    expect(isError(error, 'CALL_EXCEPTION')).toBe(true);
    if (!isError(error, 'CALL_EXCEPTION')) return;
    expect(error.action).toBe('estimateGas');
    expect(error.reason).toBe('Counter: failed on purpose');
  });

  it('mines a reverting transaction with status 0 when gas is given explicitly', async () => {
    const counter = await deployCounter();
    // As Hardhat's node: the transaction is mined, and the send answers the revert as an error
    // whose data names the transaction (ethers keeps the JSON-RPC error in `error.error`).
    const error = (await rejectionOf(counter.fail.send({ gasLimit: 100_000n }))) as {
      error?: { code: number; message: string; data?: { txHash: string; data: string } };
    };
    expect(error.error?.code).toBe(-32603);
    expect(error.error?.message).toMatch(/reverted with reason string/);
    const hash = error.error?.data?.txHash as string;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);

    const receipt = await provider.getTransactionReceipt(hash);
    expect(receipt?.status).toBe(0);
    expect(receipt?.gasUsed).toBeGreaterThan(21000n);
    expect(receipt?.gasUsed).toBeLessThan(100_000n);
    expect(receipt?.logs).toHaveLength(0);
  });

  it('decodes a custom error with interface.parseError', async () => {
    const counter = await deployCounter();
    expect(await counter.guarded()).toBe(true); // the owner passes

    const asOther = new Contract(await counter.getAddress(), counterArtifact.abi, other);
    const error = await rejectionOf(asOther.guarded());
    expect(isError(error, 'CALL_EXCEPTION')).toBe(true);
    if (!isError(error, 'CALL_EXCEPTION')) return;
    expect(error.data).toMatch(/^0x/);
    const decoded = counter.interface.parseError(error.data ?? '0x');
    expect(decoded?.name).toBe('NotOwner');
    expect(decoded?.signature).toBe('NotOwner(address)');
    expect(decoded?.args.who).toBe(other.address);
    expect(error.revert?.name).toBe('NotOwner');
  });

  it('reports Panic(0x12) for a division by zero', async () => {
    const counter = await deployCounter();
    const error = await rejectionOf(counter.panic());
    expect(isError(error, 'CALL_EXCEPTION')).toBe(true);
    if (!isError(error, 'CALL_EXCEPTION')) return;
    expect(error.revert?.name).toBe('Panic');
    expect(Number(error.revert?.args[0])).toBe(0x12);
    expect(error.reason).toBe('Panic due to DIVIDE_BY_ZERO(18)');
    const decoded = counter.interface.parseError(error.data ?? '0x');
    expect(decoded?.name).toBe('Panic');
    expect(decoded?.args[0]).toBe(0x12n);
  });
});

describe('ethers v6 — ERC-20', () => {
  const supply = parseUnits('1000000', 18);

  it('deploys the token with the whole supply minted to the deployer', async () => {
    const token = await deployToken(supply);
    const address = await token.getAddress();
    expect(await provider.getCode(address)).toBe(tokenArtifact.deployedBytecode);
    expect(await token.name()).toBe('Ashlar Token');
    expect(await token.symbol()).toBe('ASH');
    expect(await token.decimals()).toBe(18n);
    expect(await token.totalSupply()).toBe(supply);
    expect(await token.balanceOf(wallet.address)).toBe(supply);

    const mint = await token.queryFilter(token.filters.Transfer(ZeroAddress, wallet.address));
    expect(mint).toHaveLength(1);
  });

  it('transfers tokens and emits Transfer', async () => {
    const token = await deployToken(supply);
    const amount = parseUnits('250', 18);
    const receipt = await mined(token.transfer(other.address, amount));
    expect(receipt.status).toBe(1);

    expect(await token.balanceOf(other.address)).toBe(amount);
    expect(await token.balanceOf(wallet.address)).toBe(supply - amount);

    const transfer = receipt.logs
      .map((log) => token.interface.parseLog(log))
      .find((parsed) => parsed?.name === 'Transfer');
    expect(transfer?.args.from).toBe(wallet.address);
    expect(transfer?.args.to).toBe(other.address);
    expect(transfer?.args.value).toBe(amount);
  });

  it('approves and transfers on behalf with transferFrom', async () => {
    const token = await deployToken(supply);
    await mined(token.approve(other.address, 100n));
    expect(await token.allowance(wallet.address, other.address)).toBe(100n);

    const asOther = new Contract(await token.getAddress(), tokenArtifact.abi, other);
    const recipient = Wallet.createRandom().address;
    await mined(asOther.transferFrom(wallet.address, recipient, 60n));
    expect(await token.balanceOf(recipient)).toBe(60n);
    expect(await token.allowance(wallet.address, other.address)).toBe(40n);
  });

  it('reverts with "Token: insufficient balance"', async () => {
    const token = await deployToken(supply);
    const asOther = new Contract(await token.getAddress(), tokenArtifact.abi, other);

    const callError = await rejectionOf(asOther.transfer.staticCall(wallet.address, 1n));
    expect(isError(callError, 'CALL_EXCEPTION') && callError.reason).toBe('Token: insufficient balance');

    const sendError = await rejectionOf(asOther.transfer(wallet.address, 1n));
    expect(isError(sendError, 'CALL_EXCEPTION') && sendError.reason).toBe('Token: insufficient balance');
  });

  it('estimates at least 21000 gas for a token transfer', async () => {
    const token = await deployToken(supply);
    const gas = await token.transfer.estimateGas(other.address, 1n);
    expect(gas).toBeGreaterThanOrEqual(21000n);
    expect(gas).toBeLessThan(100_000n);

    // The estimate is enough to actually send it.
    const receipt = await mined(token.transfer(other.address, 1n, { gasLimit: gas }));
    expect(receipt.status).toBe(1);
    expect(receipt.gasUsed).toBeLessThanOrEqual(gas);
  });
});
