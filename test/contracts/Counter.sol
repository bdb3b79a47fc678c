// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Counter — the fixture contract of the end-to-end tests.
/// @notice Covers state writes, events, and the three revert shapes a client must decode:
///         Error(string), a custom error, and Panic(uint256).
contract Counter {
    uint256 public count;
    address public immutable owner;

    event Incremented(address indexed by, uint256 newValue);

    error NotOwner(address who);

    constructor() {
        owner = msg.sender;
    }

    function increment() external {
        count += 1;
        emit Incremented(msg.sender, count);
    }

    function add(uint256 amount) external {
        count += amount;
        emit Incremented(msg.sender, count);
    }

    /// @notice Always reverts with Error(string).
    function fail() external pure {
        require(false, "Counter: failed on purpose");
    }

    /// @notice Reverts with the custom error NotOwner(msg.sender) for everyone but the deployer.
    function guarded() external view returns (bool) {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        return true;
    }

    /// @notice Always reverts with Panic(0x12): division by zero.
    function panic() external view returns (uint256) {
        uint256 zero = count - count;
        return 1 / zero;
    }
}
