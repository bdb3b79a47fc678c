// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Counter} from "./Counter.sol";

/// @title Factory — deploys Counters with CREATE and CREATE2.
contract Factory {
    event Deployed(address indexed addr, bytes32 salt, bool create2);

    function deploy() external returns (address addr) {
        addr = address(new Counter());
        emit Deployed(addr, bytes32(0), false);
    }

    function deploy2(bytes32 salt) external returns (address addr) {
        addr = address(new Counter{salt: salt}());
        emit Deployed(addr, salt, true);
    }

    /// @notice The address deploy2(salt) will create, computed per EIP-1014.
    function predict(bytes32 salt) external view returns (address) {
        bytes32 digest = keccak256(
            abi.encodePacked(bytes1(0xff), address(this), salt, keccak256(type(Counter).creationCode))
        );
        return address(uint160(uint256(digest)));
    }
}
