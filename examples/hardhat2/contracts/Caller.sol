// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Remembers who called it: the tests call it from a contract's address they impersonate.
contract Recorder {
    address public lastCaller;
    uint256 public received;

    function record() external payable {
        lastCaller = msg.sender;
        received += msg.value;
    }
}

/// A contract with ether and no function to send it: only impersonation moves its funds.
contract Treasury {
    receive() external payable {}
}
