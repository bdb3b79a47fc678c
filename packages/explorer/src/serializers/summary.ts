import { bytesToHex } from '@ethereumjs/util';
import type { Facts, MinedTx } from '../Explorer.js';
import { refOf } from './addressRef.js';
import { callDecoding } from './decoded.js';
import { dec } from './format.js';
import { tokenJson } from './token.js';
import type { TransferView } from './tokenTransfer.js';

type Variable = { type: 'string' | 'currency' | 'token' | 'address' | 'timestamp'; value: unknown };
interface Summary {
  summary_template: string;
  summary_template_variables: Record<string, Variable>;
}

/** Summaries shown per transaction at most (the rest are in its token-transfers tab). */
const MAX_SUMMARIES = 5;
const COIN_DECIMALS = 18;

/** `amount` in whole units: 1500000000000000000 with 18 decimals → "1.5" (the frontend's `currency` values). */
export function units(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const s = amount.toString().padStart(decimals + 1, '0');
  const whole = s.slice(0, -decimals);
  const frac = s.slice(-decimals).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

function transferSummary(v: TransferView, facts: Facts): Summary {
  const rec = facts.tokens.get(bytesToHex(v.token));
  const token: Variable = { type: 'token', value: rec ? tokenJson(v.token, rec) : null };
  const from: Variable = { type: 'address', value: refOf(v.from, facts) };
  const to: Variable = { type: 'address', value: refOf(v.to, facts) };
  if (v.kind === 'erc20') {
    const amount = rec?.decimals == null ? dec(v.amount) : units(v.amount, Number(rec.decimals));
    return {
      summary_template: '{action_type} {amount} {token} from {from_address} to {to_address}',
      summary_template_variables: {
        action_type: { type: 'string', value: 'Transfer' },
        amount: { type: 'currency', value: amount },
        token,
        from_address: from,
        to_address: to,
      },
    };
  }
  const id = v.tokenId === null ? '' : dec(v.tokenId);
  const count = v.kind.startsWith('erc1155') ? `${dec(v.amount)} of ` : '';
  return {
    summary_template: `{action_type} ${count}{token} #{token_id} from {from_address} to {to_address}`,
    summary_template_variables: {
      action_type: { type: 'string', value: 'Transfer' },
      token,
      token_id: { type: 'string', value: id },
      from_address: from,
      to_address: to,
    },
  };
}

/**
 * Blockscout's transaction summary (its interpretation service's answer), written from what the
 * chain itself says: the coin sent, the contract created or the method called, then each token
 * transfer (up to 5), as templates whose `{variables}` its frontend renders as links. `{native}`
 * is the frontend's name for the chain's coin symbol.
 */
export function summaryJson(t: MinedTx, transfers: TransferView[], facts: Facts) {
  const summaries: Summary[] = [];
  const failed = t.receipt.status === 0;
  const created = t.receipt.contractAddress;
  const to = t.tx.to?.bytes;
  if (t.tx.value > 0n && to) {
    summaries.push({
      summary_template: '{action_type} {amount} {native} to {to_address}',
      summary_template_variables: {
        action_type: { type: 'string', value: failed ? 'Failed to send' : 'Send' },
        amount: { type: 'currency', value: units(t.tx.value, COIN_DECIMALS) },
        to_address: { type: 'address', value: refOf(to, facts) },
      },
    });
  }
  if (!to) {
    summaries.push({
      summary_template: created ? '{action_type} {contract_address}' : '{action_type}',
      summary_template_variables: {
        action_type: { type: 'string', value: failed ? 'Failed to deploy a contract' : 'Deploy contract' },
        ...(created ? { contract_address: { type: 'address' as const, value: refOf(created, facts) } } : {}),
      },
    });
  } else if (t.tx.data.length >= 4 && (t.tx.value === 0n || transfers.length === 0)) {
    const method = callDecoding(to, t.tx.data, facts).method ?? bytesToHex(t.tx.data.subarray(0, 4));
    summaries.push({
      summary_template: '{action_type} {method} on {to_address}',
      summary_template_variables: {
        action_type: { type: 'string', value: failed ? 'Failed to call' : 'Call' },
        method: { type: 'string', value: method },
        to_address: { type: 'address', value: refOf(to, facts) },
      },
    });
  }
  for (const v of failed ? [] : transfers) {
    if (summaries.length >= MAX_SUMMARIES) break;
    summaries.push(transferSummary(v, facts));
  }
  return { success: true, data: { summaries } };
}
