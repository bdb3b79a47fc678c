// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Loop — burns all the gas it is given; for gas-cap and out-of-gas tests.
contract Loop {
    uint256 public spins;

    function spin() external {
        while (true) {
            spins += 1;
        }
    }
}
