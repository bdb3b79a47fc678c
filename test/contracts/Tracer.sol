// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Callee — what Tracer calls; `x` sits in slot 0 as Tracer's, so a DELEGATECALL writes Tracer's.
contract Callee {
    uint256 public x;

    function set(uint256 v) external payable returns (uint256) {
        x = v;
        return v * 2;
    }

    function get() external view returns (uint256) {
        return x;
    }

    function fail() external {
        x = 0;
        revert("nope");
    }
}

/// @title Doomed — created with value, then destroyed in the same transaction (EIP-6780 still deletes it).
contract Doomed {
    constructor() payable {}

    function destroy(address payable to) external {
        selfdestruct(to);
    }
}

/// @title Tracer — one transaction with every kind of call frame (explorer internal transactions, raw traces).
contract Tracer {
    uint256 public x;
    Callee public callee;

    constructor() {
        callee = new Callee();
    }

    /// Frames, depth-first: CALL set (1 wei), STATICCALL get, DELEGATECALL set, CALL fail (reverts),
    /// CREATE Doomed (2 wei), CALL destroy → SELFDESTRUCT to `beneficiary`, CREATE2 Doomed (`salt`).
    function run(address payable beneficiary, bytes32 salt) external payable returns (address made2) {
        callee.set{value: 1}(7);
        callee.get();
        (bool ok, ) = address(callee).delegatecall(abi.encodeCall(Callee.set, (9)));
        require(ok);
        try callee.fail() {} catch {}
        Doomed d = new Doomed{value: 2}();
        d.destroy(beneficiary);
        made2 = address(new Doomed{salt: salt}());
    }
}
