@testable import ListDiff
import Testing

@Suite struct LongestIncreasingSubsequenceTests {
    @Test(arguments: [
        ([0, 1, 2], [false, false, false], [true, true, true]),
        ([2, 1, 0], [false, true, false], [false, true, false]),  // keeps the preferred middle
        ([2, 1, 0], [false, false, true], [false, false, true]),
        ([1, 2, 3, 4, 5, 0], [false, false, false, false, false, false], [true, true, true, true, true, false]),
        ([3, 0, 1, 2], [true, false, false, false], [false, true, true, true]),  // length wins over preference
    ])
    func keepsALongestSubsequencePreferringMarkedPositions(values: [Int], preferred: [Bool], expected: [Bool]) {
        #expect(preferredLongestIncreasingSubsequence(of: values, domain: 6, preferred: preferred) == expected)
    }

    @Test func emptyInput() {
        #expect(preferredLongestIncreasingSubsequence(of: [], domain: 0, preferred: []).isEmpty)
    }
}
