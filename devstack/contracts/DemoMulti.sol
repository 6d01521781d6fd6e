// SPDX-License-Identifier: Apache-2.0
// A minimal ERC-1155 for the local stack: the owner mints and sets a metadata URI
// per id, usually a data: URI so the service can read it with no network.
pragma solidity ^0.8.24;

contract DemoMulti {
    string public name;
    string public contractURI;
    address public immutable owner;
    mapping(uint256 => mapping(address => uint256)) private balances;
    mapping(uint256 => string) private uris;
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
    event ApprovalForAll(address indexed account, address indexed operator, bool approved);
    event URI(string value, uint256 indexed id);

    constructor(string memory name_, string memory contractURI_) {
        name = name_;
        contractURI = contractURI_;
        owner = msg.sender;
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0xd9b67a26 || id == 0x0e89341c;
    }

    function balanceOf(address account, uint256 id) external view returns (uint256) {
        return balances[id][account];
    }

    function uri(uint256 id) external view returns (string memory) {
        return uris[id];
    }

    function setURI(uint256 id, string calldata value) external {
        require(msg.sender == owner, "owner only");
        uris[id] = value;
        emit URI(value, id);
    }

    function mint(address to, uint256 id, uint256 amount) external {
        require(msg.sender == owner, "owner only");
        balances[id][to] += amount;
        emit TransferSingle(msg.sender, address(0), to, id, amount);
    }

    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata amounts) external {
        require(msg.sender == owner, "owner only");
        require(ids.length == amounts.length, "length");
        for (uint256 i = 0; i < ids.length; i++) balances[ids[i]][to] += amounts[i];
        emit TransferBatch(msg.sender, address(0), to, ids, amounts);
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes calldata) external {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "not allowed");
        require(to != address(0), "zero address");
        require(balances[id][from] >= amount, "balance");
        balances[id][from] -= amount;
        balances[id][to] += amount;
        emit TransferSingle(msg.sender, from, to, id, amount);
    }
}
