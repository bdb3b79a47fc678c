// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title MultiToken — a minimal ERC-1155 (with ERC-165), written from scratch for the explorer tests.
/// Anyone may mint; transfers to contracts skip the receiver hooks: it is a test fixture.
contract MultiToken {
    string public name;
    string public symbol;

    mapping(uint256 => mapping(address => uint256)) private balances;
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(
        address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values
    );
    event ApprovalForAll(address indexed account, address indexed operator, bool approved);

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == 0xd9b67a26;
    }

    function balanceOf(address account, uint256 id) external view returns (uint256) {
        return balances[id][account];
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function mint(address to, uint256 id, uint256 amount) external {
        require(to != address(0), "MultiToken: mint to the zero address");
        balances[id][to] += amount;
        emit TransferSingle(msg.sender, address(0), to, id, amount);
    }

    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata amounts) external {
        require(to != address(0), "MultiToken: mint to the zero address");
        require(ids.length == amounts.length, "MultiToken: length mismatch");
        for (uint256 i = 0; i < ids.length; i++) balances[ids[i]][to] += amounts[i];
        emit TransferBatch(msg.sender, address(0), to, ids, amounts);
    }

    function burn(address from, uint256 id, uint256 amount) external {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "MultiToken: not allowed");
        _move(from, address(0), id, amount);
        emit TransferSingle(msg.sender, from, address(0), id, amount);
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes calldata) external {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "MultiToken: not allowed");
        require(to != address(0), "MultiToken: transfer to the zero address");
        _move(from, to, id, amount);
        emit TransferSingle(msg.sender, from, to, id, amount);
    }

    function safeBatchTransferFrom(
        address from,
        address to,
        uint256[] calldata ids,
        uint256[] calldata amounts,
        bytes calldata
    ) external {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "MultiToken: not allowed");
        require(to != address(0), "MultiToken: transfer to the zero address");
        require(ids.length == amounts.length, "MultiToken: length mismatch");
        for (uint256 i = 0; i < ids.length; i++) _move(from, to, ids[i], amounts[i]);
        emit TransferBatch(msg.sender, from, to, ids, amounts);
    }

    function _move(address from, address to, uint256 id, uint256 amount) private {
        uint256 have = balances[id][from];
        require(have >= amount, "MultiToken: insufficient balance");
        unchecked {
            balances[id][from] = have - amount;
        }
        if (to != address(0)) balances[id][to] += amount;
    }
}
