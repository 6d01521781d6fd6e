// SPDX-License-Identifier: Apache-2.0
// A price feed for the local stack with Chainlink's AggregatorV3Interface (the
// part wallets read: decimals, description, latestRoundData), whose answer its
// deployer moves; each move is a new round stamped with the block's time.
pragma solidity ^0.8.24;

contract DemoFeed {
    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 4;
    address private immutable owner;
    uint80 private round;
    int256 private answer;
    uint256 private updatedAt;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    constructor(uint8 decimals_, string memory description_, int256 answer_) {
        decimals = decimals_;
        description = description_;
        owner = msg.sender;
        _set(answer_);
    }

    function setAnswer(int256 answer_) external {
        require(msg.sender == owner, "not the feed's owner");
        _set(answer_);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer_, uint256 startedAt, uint256 updatedAt_, uint80 answeredInRound)
    {
        return (round, answer, updatedAt, updatedAt, round);
    }

    function _set(int256 answer_) private {
        round += 1;
        answer = answer_;
        updatedAt = block.timestamp;
        emit AnswerUpdated(answer_, round, block.timestamp);
    }
}
