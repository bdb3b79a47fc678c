import { isAshlarError } from '@ashlar/core';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import type { Explorer } from '../Explorer.js';
import { HttpError, notFound } from '../http/errors.js';
import { parseEnum, parseSmallUint } from '../http/params.js';
import { integerStringCursor } from '../pagination/cursors.js';
import { PAGE_SIZE, pageOf } from '../pagination/page.js';
import { refOf } from '../serializers/addressRef.js';
import { type CallOutcome, callAtHead, deployedCode } from '../verify/chainReads.js';
import {
  type ContractCode,
  smartContractItem,
  smartContractJson,
  unverifiedContractJson,
} from '../serializers/smartContract.js';
import {
  type AbiEntry,
  decodeError,
  decodeOutputs,
  encodeCall,
  functionBySelector,
  readFunctions,
  selectorOf,
  writeFunctions,
} from '../verify/abi.js';
import { parseStandardInput } from '../verify/compile.js';
import { allContracts } from '../verify/contractList.js';
import { LICENSE_TYPES, installedSolcVersions } from '../verify/installedCompilers.js';
import { codeHash } from '../verify/Verifier.js';
import type { SmartContracts } from '../verify/SmartContracts.js';
import type { RouteContext } from './context.js';

/** EVM targets solc accepts, newest first, as Blockscout's form lists them (`default` lets solc choose). */
const EVM_VERSIONS = [
  'default',
  'osaka',
  'prague',
  'cancun',
  'shanghai',
  'paris',
  'london',
  'berlin',
  'istanbul',
  'petersburg',
  'constantinople',
  'byzantium',
  'spuriousDragon',
  'tangerineWhistle',
  'homestead',
];
import { parseVerificationBody } from './verificationBody.js';

type Hex = `0x${string}`;

/** The removed (pre-8.0) smart-contract endpoints answered a bad hash with this, not OpenApiSpex's list. */
const invalidParams = () => new HttpError(422, { message: 'Invalid parameter(s)' });
const unprocessable = (message: string) => new HttpError(422, { message });

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
function addressParam(raw: string | undefined): string {
  if (!raw || !ADDRESS.test(raw)) throw invalidParams();
  return raw.toLowerCase();
}

function contractsOf(ex: Explorer): SmartContracts {
  if (!ex.contracts) throw notFound();
  return ex.contracts;
}

async function codeFacts(ex: Explorer, sc: SmartContracts, address: string): Promise<ContractCode> {
  const deployed = await deployedCode(ex.services, address);
  const creation = await sc.verifier.creationInput(address);
  const proxy = deployed === '0x' ? undefined : await sc.proxyOf(address);
  return {
    deployed,
    deployedHash: codeHash(hexToBytes(deployed)),
    creation: creation ? bytesToHex(creation) : null,
    proxy,
    implementationName: (a) => sc.get(a)?.name ?? null,
  };
}

export type { CallOutcome };

/** eth_call through the node (the kernel's Executor): return data, or the revert data and geth's message. */
export function callContract(ex: Explorer, to: string, data: Hex, from?: string): Promise<CallOutcome> {
  return callAtHead(ex.services, to, data, from);
}

/** The ABI a `-proxy` endpoint or a `contract_type: proxy` query reads: the verified implementation's. */
async function implementationAbi(sc: SmartContracts, address: string): Promise<readonly unknown[] | undefined> {
  const proxy = await sc.proxyOf(address);
  const impl = proxy?.implementations[0];
  return impl ? sc.get(impl)?.abi : undefined;
}

const methodId = (f: AbiEntry) => selectorOf(f).slice(2);

/** Read methods: every view/pure function with its `method_id`; those without inputs with their current values. */
async function readMethods(ex: Explorer, address: string, abi: readonly unknown[], from: string | undefined) {
  const out: unknown[] = [];
  for (const f of readFunctions(abi)) {
    const item: Record<string, unknown> = { ...f, method_id: methodId(f) };
    if ((f.inputs ?? []).length === 0) {
      const res = await callContract(ex, address, selectorOf(f), from);
      try {
        if (!res.ok) throw new Error(res.message ?? 'call failed');
        const values = decodeOutputs(f, res.data);
        item.outputs = (f.outputs ?? []).map((o, i) => ({ ...o, value: values[i]?.value }));
        item.names = (f.outputs ?? []).map((o) => o.name || o.type);
      } catch (e) {
        item.error = (e as Error).message;
      }
    }
    out.push(item);
  }
  return out;
}

function writeMethods(abi: readonly unknown[]) {
  return writeFunctions(abi).map((f) => (f.type === 'function' ? { ...f, method_id: methodId(f) } : { ...f }));
}

function fromParam(raw: string | null): string | undefined {
  if (raw === null || raw === '') return undefined;
  if (!ADDRESS.test(raw)) throw invalidParams();
  return raw;
}

interface QueryBody {
  args?: unknown;
  method_id?: unknown;
  from?: unknown;
  contract_type?: unknown;
}

/** /smart-contracts: verified contracts, their counters, details, methods and verification (spec §4.2). */
export function smartContractRoutes({ ex, r }: RouteContext): void {
  r.get('/smart-contracts', async (req) => {
    const sc = contractsOf(ex);
    const q = req.query;
    const language = parseEnum(q.get('filter'), 'filter', ['solidity', 'vyper', 'yul'] as const);
    const text = (q.get('q') ?? '').trim().toLowerCase();
    const sort = parseEnum(q.get('sort'), 'sort', ['balance', 'transactions_count'] as const);
    const order = parseEnum(q.get('order'), 'order', ['asc', 'desc'] as const) ?? 'desc';
    const below = q.get('smart_contract_id');
    const cursor = below === null ? undefined : parseSmallUint(below, 'smart_contract_id');
    // Newest verification first, as Blockscout's id order.
    const matching = sc.store
      .all()
      .map((rec, i) => ({ rec, id: i + 1, key: 0n }))
      .reverse()
      .filter(({ rec }) => {
        if (language && rec.language !== language) return false;
        return text === '' || rec.name.toLowerCase().includes(text) || rec.address.includes(text);
      });
    let rows: typeof matching;
    if (!sort) rows = matching.filter(({ id }) => cursor === undefined || id < cursor).slice(0, PAGE_SIZE + 1);
    else {
      // Sorted by balance or transaction count: verified contracts are few, so the whole list is
      // read and sorted; ties by id, newest first. The cursor is the last item's value and id.
      const recs = await ex.q.addresses(matching.map(({ rec }) => hexToBytes(rec.address as Hex)));
      matching.forEach((m, i) => {
        m.key = sort === 'balance' ? (recs[i]?.balance ?? 0n) : (recs[i]?.txCount ?? 0n);
      });
      const sign = order === 'asc' ? 1 : -1;
      const cmp = (a: { key: bigint; id: number }, b: { key: bigint; id: number }) =>
        a.key === b.key ? b.id - a.id : a.key < b.key ? -sign : sign;
      const key = integerStringCursor(q, sort === 'balance' ? 'coin_balance' : 'transactions_count');
      const from = cursor === undefined || key === undefined ? undefined : { key, id: cursor };
      rows = matching
        .sort(cmp)
        .filter((m) => !from || cmp(m, from) > 0)
        .slice(0, PAGE_SIZE + 1);
    }
    return pageOf(
      rows,
      async (shown) => {
        const addrs = shown.map(({ rec }) => hexToBytes(rec.address as Hex));
        const [facts, recs] = await Promise.all([ex.facts([], addrs), ex.q.addresses(addrs)]);
        return shown.map(({ rec }, i) =>
          smartContractItem(
            rec,
            refOf(addrs[i], facts),
            recs[i]?.hasBalance ? recs[i].balance : null,
            recs[i]?.txCount ?? 0n,
          ),
        );
      },
      (last) => ({
        smart_contract_id: last.id,
        items_count: PAGE_SIZE,
        ...(sort
          ? { sort, order, [sort === 'balance' ? 'coin_balance' : 'transactions_count']: last.key.toString() }
          : {}),
      }),
    );
  });

  // The verification form's options: what this node verifies (standard JSON input here, and the
  // Hardhat and Foundry plugins through the Etherscan-compatible /api) and with which compiler.
  r.get('/smart-contracts/verification/config', () => ({
    solidity_compiler_versions: installedSolcVersions(),
    solidity_evm_versions: EVM_VERSIONS,
    verification_options: ['standard-input', 'solidity-hardhat', 'solidity-foundry'],
    vyper_compiler_versions: [],
    vyper_evm_versions: [],
    is_rust_verifier_microservice_enabled: false,
    license_types: LICENSE_TYPES,
  }));

  r.get('/smart-contracts/counters', async () => {
    const sc = contractsOf(ex);
    const contracts = await allContracts(ex.index);
    const dayAgo = BigInt(Math.floor(Date.now() / 1000) - 86_400);
    let recent = 0;
    const times = new Map<bigint, bigint>();
    for (const rec of await ex.q.contracts(contracts)) {
      if (!rec) continue;
      let t = times.get(rec.block);
      if (t === undefined) {
        t = (await ex.block(rec.block))?.block.header.timestamp ?? 0n;
        times.set(rec.block, t);
      }
      if (t >= dayAgo) recent++;
    }
    const since = new Date(Date.now() - 86_400_000).toISOString();
    const all = sc.store.all();
    return {
      smart_contracts: String(contracts.length),
      new_smart_contracts_24h: String(recent),
      verified_smart_contracts: String(all.length),
      new_verified_smart_contracts_24h: String(all.filter((v) => v.verifiedAt >= since).length),
    };
  });

  r.get('/smart-contracts/:hash', async (req) => {
    const sc = contractsOf(ex);
    const address = addressParam(req.params.hash);
    const code = await codeFacts(ex, sc, address);
    const rec = sc.get(address);
    if (rec) return smartContractJson(rec, code);
    if (code.deployed === '0x') throw notFound();
    return unverifiedContractJson(code);
  });

  const verifiedAbi = (address: string) => {
    const rec = contractsOf(ex).get(address);
    if (!rec) throw notFound();
    return rec.abi;
  };
  const proxyAbi = async (address: string) => {
    const abi = await implementationAbi(contractsOf(ex), address);
    if (!abi) throw notFound();
    return abi;
  };

  r.get('/smart-contracts/:hash/methods-read', async (req) => {
    const address = addressParam(req.params.hash);
    return readMethods(ex, address, verifiedAbi(address), fromParam(req.query.get('from')));
  });
  r.get('/smart-contracts/:hash/methods-read-proxy', async (req) => {
    const address = addressParam(req.params.hash);
    return readMethods(ex, address, await proxyAbi(address), fromParam(req.query.get('from')));
  });
  r.get('/smart-contracts/:hash/methods-write', async (req) =>
    writeMethods(verifiedAbi(addressParam(req.params.hash))),
  );
  r.get('/smart-contracts/:hash/methods-write-proxy', async (req) =>
    writeMethods(await proxyAbi(addressParam(req.params.hash))),
  );

  r.post('/smart-contracts/:hash/query-read-method', async (req) => {
    const address = addressParam(req.params.hash);
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as QueryBody;
    if (typeof body.method_id !== 'string' || !/^(0x)?[0-9a-fA-F]{8}$/.test(body.method_id))
      throw unprocessable('method_id must be a 4-byte selector in hex (e.g. "06fdde03")');
    const type = body.contract_type ?? 'regular';
    if (type !== 'regular' && type !== 'proxy') throw unprocessable('contract_type must be "regular" or "proxy"');
    const from = body.from === undefined || body.from === null || body.from === '' ? undefined : body.from;
    if (from !== undefined && (typeof from !== 'string' || !ADDRESS.test(from)))
      throw unprocessable('from must be an address');
    const args = body.args ?? [];
    if (!Array.isArray(args)) throw unprocessable('args must be an array');
    const abi = type === 'proxy' ? await proxyAbi(address) : verifiedAbi(address);
    const fn = functionBySelector(abi, body.method_id);
    if (!fn)
      throw unprocessable(`method_id ${body.method_id.replace(/^0x/, '')} is not a function of the contract's ABI`);
    let data: Hex;
    try {
      data = encodeCall(fn, args);
    } catch (e) {
      throw unprocessable(`arguments do not encode for ${fn.name}: ${(e as Error).message.split('\n')[0]}`);
    }
    const res = await callContract(ex, address, data, from as string | undefined);
    if (!res.ok) {
      const decoded = decodeError(abi, hexToBytes(res.data));
      return [{ is_error: true, result: { raw: res.data, code: res.code, message: res.message, ...(decoded ?? {}) } }];
    }
    try {
      const output = decodeOutputs(fn, res.data);
      return [{ is_error: false, result: { names: (fn.outputs ?? []).map((o) => o.name || o.type), output } }];
    } catch (e) {
      return [
        {
          is_error: true,
          result: { raw: res.data, code: 0, message: `output does not decode: ${(e as Error).message.split('\n')[0]}` },
        },
      ];
    }
  });

  r.post('/smart-contracts/:hash/verification/via/standard-input', async (req) => {
    const sc = contractsOf(ex);
    const address = addressParam(req.params.hash);
    const body = parseVerificationBody(req.body);
    try {
      const input = parseStandardInput(body.input);
      const rec = await sc.verifyStandardInput(
        {
          address,
          compilerVersion: body.compilerVersion,
          contractName: body.contractName,
          input,
          constructorArgs: body.constructorArgs,
        },
        'standard-input',
      );
      return {
        message: 'Smart-contract verified',
        is_fully_verified: rec.match === 'full',
        is_partially_verified: rec.match === 'partial',
      };
    } catch (e) {
      if (isAshlarError(e)) throw unprocessable(e.message);
      throw e;
    }
  });
}
