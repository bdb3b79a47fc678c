/**
 * A contract that calls console.sol's address with every kind of argument and format string,
 * through a console library written for the tests (console-log, print-traces).
 */
export const CONSOLE_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// A console library written for this test: each function sends the call console.sol sends (the
// same signature strings) to the console address, as a staticcall whose result is ignored.
library console {
  address constant CONSOLE = 0x000000000000000000636F6e736F6c652e6c6f67;
  function send(bytes memory payload) private view {
    address to = CONSOLE;
    assembly { pop(staticcall(gas(), to, add(payload, 32), mload(payload), 0, 0)) }
  }
  function log() internal view { send(abi.encodeWithSignature("log()")); }
  function log(string memory a) internal view { send(abi.encodeWithSignature("log(string)", a)); }
  function log(string memory a, uint256 b) internal view { send(abi.encodeWithSignature("log(string,uint256)", a, b)); }
  function log(string memory a, bool b) internal view { send(abi.encodeWithSignature("log(string,bool)", a, b)); }
  function log(string memory a, string memory b) internal view { send(abi.encodeWithSignature("log(string,string)", a, b)); }
  function log(uint256 a, uint256 b) internal view { send(abi.encodeWithSignature("log(uint256,uint256)", a, b)); }
  function log(string memory a, uint256 b, uint256 c) internal view { send(abi.encodeWithSignature("log(string,uint256,uint256)", a, b, c)); }
  function log(string memory a, address b, address c) internal view { send(abi.encodeWithSignature("log(string,address,address)", a, b, c)); }
  function log(string memory a, uint256 b, string memory c, bool d) internal view { send(abi.encodeWithSignature("log(string,uint256,string,bool)", a, b, c, d)); }
  function log(uint256 a, string memory b, address c, bool d) internal view { send(abi.encodeWithSignature("log(uint256,string,address,bool)", a, b, c, d)); }
  function logInt(int256 a) internal view { send(abi.encodeWithSignature("log(int256)", a)); }
  function logAddress(address a) internal view { send(abi.encodeWithSignature("log(address)", a)); }
  function logBytes(bytes memory a) internal view { send(abi.encodeWithSignature("log(bytes)", a)); }
  function logBytes4(bytes4 a) internal view { send(abi.encodeWithSignature("log(bytes4)", a)); }
  function logBytes32(bytes32 a) internal view { send(abi.encodeWithSignature("log(bytes32)", a)); }
}

contract Logs {
  uint256 public count;

  function run(int256 neg, bytes calldata blob, bytes4 sel, bytes32 word) external {
    count += 1;
    console.log();
    console.log("plain string");
    console.log("count %d of %i", count, 1000);
    console.log("from %s to %s", msg.sender, address(this));
    console.log("ok=%s", true);
    console.log("quoted %o", "x");
    console.log("escaped %%d and %d", 7);
    console.log("extra", 1, "two", false);
    console.log("missing %s %s", "one");
    console.log(42, "answer", msg.sender, true);
    console.log(5, type(uint256).max);
    console.logInt(neg);
    console.logBytes(blob);
    console.logBytes4(sel);
    console.logBytes32(word);
    console.logAddress(address(0));
  }

  function peek() external view returns (uint256) {
    console.log("peek sees %d", count);
    return count;
  }

  function fail() external {
    count += 1;
    console.log("about to fail at %d", count);
    revert("nope");
  }
}
`;
