// SPDX-License-Identifier: Apache-2.0
// A minimal ERC-721 for the local stack: the owner mints with a metadata URI per
// token, usually a data: URI so the service can read it with no network.
pragma solidity ^0.8.24;

contract DemoNft {
    string public name;
    string public symbol;
    string public contractURI;
    address public immutable owner;
    uint256 public nextId = 1;
    mapping(uint256 => address) public ownerOf;
    mapping(address => uint256) public balanceOf;
    mapping(uint256 => string) public tokenURI;
    mapping(uint256 => address) public getApproved;
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);

    /// A custom error, for dapps' libraries to decode from a reverted call.
    error NoSuchToken(uint256 id);

    constructor(string memory name_, string memory symbol_, string memory contractURI_) {
        name = name_;
        symbol = symbol_;
        contractURI = contractURI_;
        owner = msg.sender;
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0x80ac58cd || id == 0x5b5e139f;
    }

    function mint(address to, string calldata uri) external returns (uint256 id) {
        require(msg.sender == owner, "owner only");
        require(to != address(0), "zero address");
        id = _mint(to, uri);
    }

    /// Anyone mints one for themselves: what the example dapp asks a wallet to send.
    function claim(string calldata uri) external returns (uint256 id) {
        id = _mint(msg.sender, uri);
    }

    /// The owner of `id`, or the custom error `NoSuchToken(id)`.
    function ownerOfOrRevert(uint256 id) external view returns (address holder) {
        holder = ownerOf[id];
        if (holder == address(0)) revert NoSuchToken(id);
    }

    function _mint(address to, string calldata uri) private returns (uint256 id) {
        id = nextId++;
        ownerOf[id] = to;
        balanceOf[to] += 1;
        tokenURI[id] = uri;
        emit Transfer(address(0), to, id);
    }

    function approve(address to, uint256 id) external {
        address holder = ownerOf[id];
        require(msg.sender == holder || isApprovedForAll[holder][msg.sender], "not allowed");
        getApproved[id] = to;
        emit Approval(holder, to, id);
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function transferFrom(address from, address to, uint256 id) public {
        require(ownerOf[id] == from, "wrong from");
        require(to != address(0), "zero address");
        require(
            msg.sender == from || getApproved[id] == msg.sender || isApprovedForAll[from][msg.sender],
            "not allowed"
        );
        delete getApproved[id];
        balanceOf[from] -= 1;
        balanceOf[to] += 1;
        ownerOf[id] = to;
        emit Transfer(from, to, id);
    }

    function safeTransferFrom(address from, address to, uint256 id) external {
        transferFrom(from, to, id);
    }
}
