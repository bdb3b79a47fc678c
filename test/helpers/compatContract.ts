/**
 * A contract for the Hardhat-compatibility tests, compiled on first use: it reads the block it
 * runs in (number, timestamp, base fee, coinbase, prevrandao), costs more gas in a block after
 * the one it last ran in (`perBlock`, as ERC20Votes checkpoints do), and reverts each way
 * Solidity can (reason string, custom error, panic, no data).
 */
import solc from 'solc';

export const COMPAT_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Compat {
  uint256 public lastBlock;
  uint256[] private filler;
  error Nope(uint256 code);
  function number() external view returns (uint256) { return block.number; }
  function stamp() external view returns (uint256) { return block.timestamp; }
  function baseFee() external view returns (uint256) { return block.basefee; }
  function miner() external view returns (address) { return block.coinbase; }
  function randao() external view returns (uint256) { return block.prevrandao; }
  function perBlock() external {
    if (block.number > lastBlock) { for (uint256 i = 0; i < 20; i++) filler.push(i); }
    lastBlock = block.number;
  }
  function fail(string calldata why) external pure { revert(why); }
  function failCustom() external pure { revert Nope(7); }
  function failPanic(uint256 x) external pure returns (uint256) { return 10 / x; }
  function failEmpty() external pure { revert(); }
  receive() external payable {}
}
`;

export interface CompatArtifact {
  abi: unknown[];
  bytecode: `0x${string}`;
}

let cached: CompatArtifact | undefined;

export function compatArtifact(): CompatArtifact {
  if (cached) return cached;
  const input = {
    language: 'Solidity',
    sources: { 'Compat.sol': { content: COMPAT_SOURCE } },
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (out.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length > 0)
    throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'));
  const c = out.contracts['Compat.sol'].Compat;
  cached = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  return cached;
}
