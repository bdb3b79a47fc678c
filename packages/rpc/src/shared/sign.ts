import { AshlarError, ErrorCodes, type KernelServices, impersonatedTx, publicKeyOf } from '@ashlar/core';
import { type TypedTransaction, createTx } from '@ethereumjs/tx';
import { type Address, bytesToHex } from '@ethereumjs/util';
import { DEFAULT_PRIORITY_FEE } from '../eth/eth_maxPriorityFeePerGas.js';
import type { TransactionRequest } from '../params/index.js';
import { signTxData } from './signTxData.js';

/** Spec §8 defaults for node-signed transactions. */
export const DEFAULT_GAS = 90_000n;
export const DEFAULT_GAS_PRICE = 0x9184e72a000n;

/** The dev key of `from`, or -32000 `unknown account` (geth's wording). */
export function keyOf(services: KernelServices, req: TransactionRequest): Uint8Array {
  const from = senderOf(req);
  const key = devKeyOf(services, from);
  if (!key) throw new AshlarError(ErrorCodes.UNKNOWN_ACCOUNT, `unknown account ${from.toString()}`);
  return key;
}

function senderOf(req: TransactionRequest): Address {
  if (!req.from)
    throw new AshlarError(ErrorCodes.INVALID_PARAMS, 'invalid argument 0: missing "from" (the sending account)');
  return req.from;
}

/** Dev keys by lowercase address, per accounts list (hardhat_reset keeps the list; a new chain has its own). */
const keysByAccounts = new WeakMap<readonly DevAccountLike[], Map<string, Uint8Array>>();
interface DevAccountLike {
  address: Address;
  privateKey: Uint8Array;
}

/**
 * The private key the node holds for `address`, if it is one of the dev accounts: one map
 * lookup (each send asked twice, scanning the accounts and converting each address to hex).
 */
export function devKeyOf(services: KernelServices, address: Address): Uint8Array | undefined {
  const accounts = services.chain.accounts;
  let keys = keysByAccounts.get(accounts);
  if (keys === undefined || keys.size !== accounts.length) {
    keys = new Map();
    for (const a of accounts) if (!keys.has(a.address.toString())) keys.set(a.address.toString(), a.privateKey);
    keysByAccounts.set(accounts, keys);
  }
  return keys.get(address.toString().toLowerCase());
}

/**
 * Spec §8's 90000, unless the transaction needs more: then the estimate, as geth and Hardhat
 * fill it (clients such as web3.js and viem's JSON-RPC accounts send deployments without gas).
 * A transaction that reverts whatever its gas keeps 90000 and is mined as a failure.
 */
async function defaultGas(services: KernelServices, req: TransactionRequest): Promise<bigint> {
  // The estimate is the least gas that succeeds, so when 90000 succeeds the answer is 90000:
  // one execution instead of the estimate's binary search (a dozen executions).
  try {
    // A gas probe: its console.sol lines count as an estimate's (printed only with --verbose).
    await services.executor.call({ ...req, gas: DEFAULT_GAS }, 'pending', undefined, 'eth_estimateGas');
    return DEFAULT_GAS;
  } catch {
    // needs more than 90000, or fails whatever its gas: the estimate tells which
  }
  try {
    const estimate = await services.executor.estimateGas(req, 'pending');
    return estimate > DEFAULT_GAS ? estimate : DEFAULT_GAS;
  } catch {
    return DEFAULT_GAS;
  }
}

/**
 * Hardhat's node gives a transaction without gas the block gas limit (capped here by EIP-7825's
 * per-transaction limit, which Osaka enforces): nothing runs before the transaction is mined.
 */
function hardhatDefaultGas(services: KernelServices): bigint {
  const limit = services.miner.gasLimit;
  const common = services.chain.common;
  if (!common.isActivatedEIP(7825)) return limit;
  const cap = common.param('maxTransactionGasLimit');
  return limit < cap ? limit : cap;
}

/** Before London, Hardhat's default price: what eth_gasPrice suggests (the tip, at least the minimum). */
function hardhatGasPrice(services: KernelServices): bigint {
  const base = services.miner.nextBlockBaseFee() ?? 0n;
  const price = base + DEFAULT_PRIORITY_FEE;
  return price > services.miner.minGasPrice ? price : services.miner.minGasPrice;
}

/** Fills the spec's defaults (gas 90000, gasPrice 0x9184e72a000, pending nonce) and signs with the dev key. */
export async function signRequest(
  services: KernelServices,
  req: TransactionRequest,
  devKey?: Uint8Array,
): Promise<TypedTransaction> {
  return (await signRequestEncoded(services, req, devKey)).tx;
}

/** signRequest's transaction, and its encoding when the signing made it (see signTxData). */
async function signRequestEncoded(
  services: KernelServices,
  req: TransactionRequest,
  devKey?: Uint8Array,
): Promise<{ tx: TypedTransaction; raw?: Uint8Array }> {
  const key = devKey ?? keyOf(services, req);
  const sender = senderOf(req);
  const data = await requestTxData(services, req);
  const common = services.chain.common;
  const signed = signTxData(common, data, key, sender);
  if (signed) return signed;
  // Unfrozen until the sender is set: a frozen transaction takes no own properties.
  const tx = asInvalidParams(() =>
    createTx(data as Parameters<typeof createTx>[0], { common, freeze: false }).sign(key),
  );
  // The sender is known: spare runTx recovering it from the signature just made (~0.15 ms), and
  // hashing the key again (@ethereumjs's getSenderAddress does, on @noble/hashes, at every ask).
  (tx as unknown as { cache: { senderPubKey?: Uint8Array } }).cache.senderPubKey = publicKeyOf(key);
  (tx as unknown as { getSenderAddress: () => Address }).getSenderAddress = () => sender;
  // Frozen as createTx leaves it by default: @ethereumjs caches a frozen transaction's hash.
  Object.freeze(tx);
  return { tx };
}

/** A transaction ready to submit, and whether it goes in unsigned for an impersonated sender. */
export interface PreparedSend {
  tx: TypedTransaction;
  /** Its encoding, when signing made it (TxService.submit need not serialise it again). */
  raw?: Uint8Array;
  sender: Address;
  impersonated: boolean;
}

/**
 * What eth_sendTransaction sends: signed with the dev key of `from`; else, when `from` is
 * impersonated (hardhat_impersonateAccount, anvil_autoImpersonateAccount) or `unsigned` is asked
 * for (eth_sendUnsignedTransaction), the same transaction with a fake signature and the sender
 * set directly. Any other `from` is -32000 `unknown account`.
 */
export async function prepareSend(
  services: KernelServices,
  req: TransactionRequest,
  opts: { unsigned?: boolean } = {},
): Promise<PreparedSend> {
  const sender = senderOf(req);
  const key = opts.unsigned ? undefined : devKeyOf(services, sender);
  if (key) {
    const { tx, raw } = await signRequestEncoded(services, req, key);
    return { tx, raw, sender, impersonated: false };
  }
  if (!opts.unsigned && !services.dev?.impersonation.has(sender)) {
    throw new AshlarError(ErrorCodes.UNKNOWN_ACCOUNT, `unknown account ${sender.toString()}`);
  }
  const data = await requestTxData(services, req);
  const tx = asInvalidParams(() => impersonatedTx(services.chain.common, data, sender));
  return { tx, sender, impersonated: true };
}

function asInvalidParams<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw new AshlarError(
      ErrorCodes.INVALID_PARAMS,
      `invalid transaction: ${e instanceof Error ? e.message.split('\n')[0] : e}`,
    );
  }
}

/** The transaction fields of a request with the node's defaults filled in (unsigned). */
async function requestTxData(services: KernelServices, req: TransactionRequest): Promise<Record<string, unknown>> {
  const chain = services.chain;
  const from = senderOf(req);
  const nonce =
    req.nonce ??
    (await chain.exclusive(async () => {
      const acct = await chain.vm.stateManager.getAccount(from);
      return services.mempool.pendingNonce(from, acct?.nonce ?? 0n);
    }));
  if (req.chainId !== undefined && req.chainId !== chain.common.chainId()) {
    throw new AshlarError(
      ErrorCodes.WRONG_CHAIN_ID,
      `invalid chain id: have ${req.chainId} want ${chain.common.chainId()}`,
    );
  }
  const hardhat = services.options.sendDefaults === 'hardhat';
  const gasLimit = req.gas ?? (hardhat ? hardhatDefaultGas(services) : await defaultGas(services, req));
  const dynamic = req.maxFeePerGas !== undefined || req.maxPriorityFeePerGas !== undefined || req.type === 2;
  // Hardhat's node: EIP-1559 unless a gas price is given or London is not active.
  const hardhatDynamic = hardhat && req.gasPrice === undefined && chain.common.isActivatedEIP(1559);
  const type = req.type ?? (req.authorizationList ? 4 : dynamic || hardhatDynamic ? 2 : req.accessList ? 1 : 0);
  const data: Record<string, unknown> = {
    type,
    nonce,
    gasLimit,
    to: req.to,
    value: req.value ?? 0n,
    data: req.data ?? new Uint8Array(),
    chainId: chain.common.chainId(),
  };
  if (type >= 2) {
    const base = services.miner.nextBlockBaseFee() ?? 0n;
    let tip = req.maxPriorityFeePerGas ?? DEFAULT_PRIORITY_FEE;
    // A fee cap given without a tip: the tip may not exceed it.
    if (req.maxPriorityFeePerGas === undefined && req.maxFeePerGas !== undefined && tip > req.maxFeePerGas)
      tip = req.maxFeePerGas;
    data.maxPriorityFeePerGas = tip;
    data.maxFeePerGas = req.maxFeePerGas ?? base * 2n + tip;
  } else data.gasPrice = req.gasPrice ?? (hardhat ? hardhatGasPrice(services) : DEFAULT_GAS_PRICE);
  if (type >= 1 && req.accessList) {
    data.accessList = req.accessList.map((a) => ({
      address: a.address.toString(),
      storageKeys: a.storageKeys.map((k) => bytesToHex(k)),
    }));
  }
  if (type === 4) {
    data.authorizationList = (req.authorizationList ?? []).map((a) => ({
      chainId: `0x${a.chainId.toString(16)}`,
      address: a.address.toString(),
      nonce: `0x${a.nonce.toString(16)}`,
      yParity: `0x${a.yParity.toString(16)}`,
      r: `0x${a.r.toString(16)}`,
      s: `0x${a.s.toString(16)}`,
    }));
  }
  return data;
}

const senderLocks = new WeakMap<KernelServices, Map<string, Promise<unknown>>>();

/**
 * Runs sign-and-submit for one sender at a time: the pending nonce a request is given must be
 * in the pool before the next request of the same sender picks its own (concurrent sends from
 * one account would otherwise get the same nonce).
 */
export function withSenderLock<T>(services: KernelServices, sender: string, fn: () => Promise<T>): Promise<T> {
  let locks = senderLocks.get(services);
  if (!locks) {
    locks = new Map();
    senderLocks.set(services, locks);
  }
  const key = sender.toLowerCase();
  const prev = locks.get(key) ?? Promise.resolve();
  const run = prev.then(fn, fn);
  const tail = run.catch(() => undefined);
  locks.set(key, tail);
  void tail.then(() => {
    if (locks.get(key) === tail) locks.delete(key);
  });
  return run;
}
