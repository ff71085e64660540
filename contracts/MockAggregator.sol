// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// A Chainlink-compatible price feed for the local chain (npm run chain, tests): the AggregatorV3Interface reads
/// the app makes (decimals, latestRoundData), an answer anyone may change (setAnswer starts a new round at the
/// block's time) and setRoundData to write any round as-is (a stale, zero or incomplete round, in tests).
contract MockAggregator {
    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 4;

    uint80 private roundId_;
    int256 private answer_;
    uint256 private startedAt_;
    uint256 private updatedAt_;
    uint80 private answeredInRound_;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    constructor(uint8 decimals__, string memory description__, int256 initialAnswer) {
        decimals = decimals__;
        description = description__;
        setAnswer(initialAnswer);
    }

    function setAnswer(int256 answer) public {
        roundId_ += 1;
        answer_ = answer;
        startedAt_ = block.timestamp;
        updatedAt_ = block.timestamp;
        answeredInRound_ = roundId_;
        emit AnswerUpdated(answer, roundId_, block.timestamp);
    }

    function setRoundData(uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound) external {
        roundId_ = roundId;
        answer_ = answer;
        startedAt_ = startedAt;
        updatedAt_ = updatedAt;
        answeredInRound_ = answeredInRound;
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return (roundId_, answer_, startedAt_, updatedAt_, answeredInRound_);
    }
}
