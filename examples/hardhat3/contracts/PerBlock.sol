// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The first call in a new block writes 20 fresh storage slots; a second call in the same block
/// writes nothing. Its gas therefore depends on the block it runs in: an estimate must run in the
/// context of the next block ("pending"), not the latest one.
contract PerBlock {
    uint256 public lastBlock;
    uint256[] public marks;

    constructor() {
        lastBlock = block.number;
    }

    function poke() external {
        if (block.number > lastBlock) {
            for (uint256 i = 0; i < 20; i++) marks.push(block.number);
            lastBlock = block.number;
        }
    }

    function count() external view returns (uint256) {
        return marks.length;
    }
}
