import { randomUUID } from 'node:crypto';
import { type RestRequest, type RestResponse, type RouteRegistry, isAshlarError } from '@ashlar/core';
import type { Explorer } from '../Explorer.js';
import { parseStandardInput } from '../verify/compile.js';
import type { StandardInput, VerifiedContract } from '../verify/types.js';
import { bodyFields } from './verificationBody.js';

/** Where Blockscout serves its Etherscan-compatible API (`hardhat verify`, `forge verify-contract`). */
export const ETHERSCAN_PATH = '/api';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const ok = (result: unknown): RestResponse => ({ status: 200, body: { status: '1', message: 'OK', result } });
const notOk = (result: unknown): RestResponse => ({ status: 200, body: { status: '0', message: 'NOTOK', result } });

/** The standard JSON input a record was verified from (what `getsourcecode` hands back). */
function inputOf(rec: VerifiedContract): StandardInput {
  const { compilationTarget: _t, ...settings } = rec.compilerSettings;
  const sources: StandardInput['sources'] = {};
  for (const [path, content] of Object.entries(rec.sources)) sources[path] = { content };
  return { language: rec.language === 'yul' ? 'Yul' : 'Solidity', sources, settings };
}

const UNVERIFIED_SOURCE = {
  SourceCode: '',
  ABI: 'Contract source code not verified',
  ContractName: '',
  CompilerVersion: '',
  OptimizationUsed: '',
  Runs: '',
  ConstructorArguments: '',
  EVMVersion: 'Default',
  Library: '',
  LicenseType: '',
  Proxy: '0',
  Implementation: '',
  SwarmSource: '',
};

/** A single-file submission (`codeformat=solidity-single-file`) as standard JSON input. */
function singleFileInput(f: Map<string, unknown>, source: string): StandardInput {
  const name = String(f.get('contractname') ?? 'Contract');
  const file = name.includes(':') ? name.slice(0, name.lastIndexOf(':')) : `${name}.sol`;
  const runs = Number(f.get('runs') ?? 200);
  const evm = String(f.get('evmversion') ?? '');
  return {
    language: 'Solidity',
    sources: { [file]: { content: source } },
    settings: {
      optimizer: {
        enabled: String(f.get('optimizationUsed') ?? '0') === '1',
        runs: Number.isFinite(runs) ? runs : 200,
      },
      ...(evm && evm !== 'default' ? { evmVersion: evm } : {}),
    },
  };
}

/**
 * The Etherscan-compatible `/api` as Blockscout serves it, the `contract` module's verification
 * actions: `verifysourcecode` (POST form), `checkverifystatus`, `getabi`, `getsourcecode`.
 * Verification runs at submission, so a failure is reported then (status 0 with the reason,
 * which hardhat-verify and forge print) and `checkverifystatus` only ever sees a pass.
 */
export function etherscanApiRoutes(ex: Explorer, routes: RouteRegistry): void {
  const guids = new Map<string, string>();

  const handle = async (req: RestRequest): Promise<RestResponse> => {
    const f = bodyFields(req.body);
    for (const [k, v] of req.query) if (!f.has(k)) f.set(k, v);
    const get = (k: string) => {
      const v = f.get(k);
      return typeof v === 'string' ? v.trim() : undefined;
    };
    const sc = ex.contracts;
    if (get('module') !== 'contract' || !sc) return notOk('Unknown module or action');
    switch (get('action')) {
      case 'getabi': {
        const address = get('address') ?? '';
        if (!ADDRESS.test(address)) return notOk('Invalid address hash');
        const rec = sc.get(address);
        return rec ? ok(JSON.stringify(rec.abi)) : notOk('Contract source code not verified');
      }
      case 'getsourcecode': {
        const address = get('address') ?? '';
        if (!ADDRESS.test(address)) return notOk('Invalid address hash');
        const rec = sc.get(address);
        if (!rec) return ok([{ ...UNVERIFIED_SOURCE, Address: address }]);
        const proxy = await sc.proxyOf(address);
        const files = Object.keys(rec.sources);
        return ok([
          {
            Address: address,
            // Etherscan's form: one file as text, several as the standard JSON input in double braces.
            SourceCode: files.length === 1 ? rec.sources[files[0]] : `{${JSON.stringify(inputOf(rec))}}`,
            ABI: JSON.stringify(rec.abi),
            ContractName: rec.name,
            FileName: rec.filePath,
            CompilerVersion: rec.compilerVersion,
            OptimizationUsed: rec.optimizationEnabled ? '1' : '0',
            Runs: String(rec.optimizationRuns ?? 200),
            ConstructorArguments: (rec.constructorArgs ?? '').replace(/^0x/, ''),
            EVMVersion: rec.evmVersion,
            Library: rec.libraries.map((l) => `${l.name.split(':').pop()}:${l.address_hash}`).join(';'),
            LicenseType: '',
            Proxy: proxy ? '1' : '0',
            Implementation: proxy?.implementations[0] ?? '',
            SwarmSource: '',
            IsPartiallyVerified: rec.match === 'partial',
          },
        ]);
      }
      case 'verifysourcecode': {
        const address = get('contractaddress') ?? '';
        if (!ADDRESS.test(address)) return notOk('Invalid contract address');
        const source = f.get('sourceCode') ?? f.get('sourcecode');
        if (typeof source !== 'string' || source.trim() === '') return notOk('Missing sourceCode');
        const format = get('codeformat') ?? 'solidity-single-file';
        if (sc.get(address)?.match === 'full') return notOk('Contract source code already verified');
        try {
          const code = await sc.verifier.code(address);
          if (code.length === 0) return notOk(`Unable to locate ContractCode at ${address}`);
          const input =
            format === 'solidity-standard-json-input' ? parseStandardInput(source) : singleFileInput(f, source);
          await sc.verifyStandardInput(
            {
              address,
              compilerVersion: get('compilerversion') ?? '',
              contractName: get('contractname'),
              input,
              constructorArgs: get('constructorArguements') ?? get('constructorArguments'),
            },
            'etherscan',
          );
        } catch (e) {
          if (isAshlarError(e)) return notOk(e.message);
          throw e;
        }
        const guid = randomUUID();
        guids.set(guid, address.toLowerCase());
        return ok(guid);
      }
      case 'checkverifystatus': {
        const address = guids.get(get('guid') ?? '');
        if (!address) return notOk('Unknown UID');
        return sc.get(address) ? ok('Pass - Verified') : notOk('Fail - Unable to verify');
      }
      default:
        return notOk('Unknown action');
    }
  };
  routes.add('GET', ETHERSCAN_PATH, handle);
  routes.add('POST', ETHERSCAN_PATH, handle);
}
