//! The contract interfaces Satchel reads: ERC-20, ERC-721 and ERC-1155.

use alloy::sol;

sol! {
    interface IERC20 {
        event Transfer(address indexed from, address indexed to, uint256 value);
        function balanceOf(address owner) external view returns (uint256);
        function transfer(address to, uint256 amount) external returns (bool);
        function name() external view returns (string);
        function symbol() external view returns (string);
        function decimals() external view returns (uint8);
        event Approval(address indexed owner, address indexed spender, uint256 value);
        function allowance(address owner, address spender) external view returns (uint256);
        function approve(address spender, uint256 amount) external returns (bool);
    }

    /// An operator for all of an owner's NFTs (ERC-721 and ERC-1155 alike).
    interface IOperators {
        event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
        function isApprovedForAll(address owner, address operator) external view returns (bool);
        function setApprovalForAll(address operator, bool approved) external;
    }

    /// The few older tokens (MKR, SAI) whose name and symbol are `bytes32`.
    interface IERC20Bytes32 {
        function name() external view returns (bytes32);
        function symbol() external view returns (bytes32);
    }

    interface IERC721 {
        event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
        function ownerOf(uint256 tokenId) external view returns (address);
        function tokenURI(uint256 tokenId) external view returns (string);
    }

    interface IERC1155 {
        event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
        event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
        function balanceOf(address owner, uint256 id) external view returns (uint256);
        function uri(uint256 id) external view returns (string);
    }

    /// A Chainlink price feed (the part of `AggregatorV3Interface` a wallet reads).
    interface IAggregatorV3 {
        function decimals() external view returns (uint8);
        function latestRoundData() external view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound);
    }

    /// Optional collection-level facts: a name and an ERC-7572 `contractURI`.
    interface ICollection {
        function name() external view returns (string);
        function contractURI() external view returns (string);
    }
}
