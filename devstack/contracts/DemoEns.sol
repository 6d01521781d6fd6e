// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// A small ENS for the local stack, with ENS's own interfaces: the registry
// (EIP-137: owner, resolver, setSubnodeOwner, setResolver), a resolver with
// `addr(bytes32)` and `name(bytes32)` (EIP-137, EIP-181), and a reverse
// registrar whose `setName` claims `<sender>.addr.reverse` for its caller
// (EIP-181). A wallet resolves names here exactly as on mainnet's registry
// for names without wildcards or off-chain lookups.

contract DemoEnsRegistry {
    struct Record {
        address owner;
        address resolver;
    }

    mapping(bytes32 => Record) private records;

    event NewOwner(bytes32 indexed node, bytes32 indexed label, address owner);
    event Transfer(bytes32 indexed node, address owner);
    event NewResolver(bytes32 indexed node, address resolver);

    modifier authorised(bytes32 node) {
        require(records[node].owner == msg.sender, "not the node's owner");
        _;
    }

    constructor() {
        records[0x0].owner = msg.sender;
    }

    function owner(bytes32 node) external view returns (address) {
        return records[node].owner;
    }

    function resolver(bytes32 node) external view returns (address) {
        return records[node].resolver;
    }

    function setOwner(bytes32 node, address newOwner) external authorised(node) {
        records[node].owner = newOwner;
        emit Transfer(node, newOwner);
    }

    function setSubnodeOwner(bytes32 node, bytes32 label, address newOwner)
        external
        authorised(node)
        returns (bytes32)
    {
        bytes32 subnode = keccak256(abi.encodePacked(node, label));
        records[subnode].owner = newOwner;
        emit NewOwner(node, label, newOwner);
        return subnode;
    }

    function setResolver(bytes32 node, address newResolver) external authorised(node) {
        records[node].resolver = newResolver;
        emit NewResolver(node, newResolver);
    }
}

contract DemoEnsResolver {
    DemoEnsRegistry public immutable registry;
    mapping(bytes32 => address) private addresses;
    mapping(bytes32 => string) private names;

    event AddrChanged(bytes32 indexed node, address a);
    event NameChanged(bytes32 indexed node, string name);

    modifier authorised(bytes32 node) {
        require(registry.owner(node) == msg.sender, "not the node's owner");
        _;
    }

    constructor(DemoEnsRegistry ens) {
        registry = ens;
    }

    function addr(bytes32 node) external view returns (address) {
        return addresses[node];
    }

    function setAddr(bytes32 node, address a) external authorised(node) {
        addresses[node] = a;
        emit AddrChanged(node, a);
    }

    function name(bytes32 node) external view returns (string memory) {
        return names[node];
    }

    function setName(bytes32 node, string calldata newName) external authorised(node) {
        names[node] = newName;
        emit NameChanged(node, newName);
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        // ERC-165, addr(bytes32), name(bytes32).
        return id == 0x01ffc9a7 || id == 0x3b3b57de || id == 0x691f3431;
    }
}

contract DemoReverseRegistrar {
    // namehash("addr.reverse")
    bytes32 public constant ADDR_REVERSE_NODE =
        0x91d1777781884d03a6757a803996e38de2a42967fb37eeaca72729271025a9e2;

    DemoEnsRegistry public immutable registry;
    DemoEnsResolver public immutable defaultResolver;

    constructor(DemoEnsRegistry ens, DemoEnsResolver resolver) {
        registry = ens;
        defaultResolver = resolver;
    }

    /// Sets the caller's primary name: what its address reverse-resolves to.
    /// Anyone can claim any name here; a wallet believes it only when the
    /// name resolves forward to the same address.
    function setName(string calldata newName) external returns (bytes32) {
        bytes32 label = sha3HexAddress(msg.sender);
        bytes32 reverseNode = registry.setSubnodeOwner(ADDR_REVERSE_NODE, label, address(this));
        registry.setResolver(reverseNode, address(defaultResolver));
        defaultResolver.setName(reverseNode, newName);
        return reverseNode;
    }

    function node(address a) external pure returns (bytes32) {
        return keccak256(abi.encodePacked(ADDR_REVERSE_NODE, sha3HexAddress(a)));
    }

    /// keccak256 of the address's 40 lower-case hex digits.
    function sha3HexAddress(address a) private pure returns (bytes32) {
        bytes16 digits = "0123456789abcdef";
        bytes memory text = new bytes(40);
        uint160 value = uint160(a);
        for (uint256 i = 40; i > 0; i--) {
            text[i - 1] = digits[value & 0xf];
            value >>= 4;
        }
        return keccak256(text);
    }
}
