import Testing
@testable import LiveState
import LiveStateTooling

@Suite struct CompatibilityModeTests {
    private func pairs(_ mode: CompatibilityMode, _ versions: [Int] = [1, 2, 3]) -> [String] {
        mode.pairs(of: versions).map { "\($0.readerVersion)<-\($0.writerVersion)" }
    }

    @Test func forwardHasThePreviousAppReadTheNextVersion() {
        #expect(pairs(.forward) == ["1<-2", "2<-3"])
        #expect(CompatibilityMode.forward.pairs(of: [1, 2]).map(\.direction) == [.oldAppReadsNew])
    }

    @Test func backwardHasTheNewAppReadThePreviousVersion() {
        #expect(pairs(.backward) == ["2<-1", "3<-2"])
        #expect(CompatibilityMode.backward.pairs(of: [1, 2]).map(\.direction) == [.newAppReadsOld])
    }

    @Test func fullIsBothDirectionsOfAdjacentVersions() {
        #expect(pairs(.full) == ["1<-2", "2<-1", "2<-3", "3<-2"])
    }

    @Test func transitiveModesPairEveryVersionWithEveryEarlierOne() {
        #expect(pairs(.forwardTransitive) == ["1<-2", "1<-3", "2<-3"])
        #expect(pairs(.backwardTransitive) == ["2<-1", "3<-1", "3<-2"])
        #expect(pairs(.fullTransitive) == ["1<-2", "2<-1", "1<-3", "3<-1", "2<-3", "3<-2"])
    }

    @Test func noneAndSingleVersionsHaveNoPairs() {
        #expect(pairs(.none).isEmpty)
        #expect(pairs(.fullTransitive, [4]).isEmpty)
    }

    @Test func versionNumbersNeedNotBeConsecutiveOrSorted() {
        #expect(pairs(.forward, [10, 2, 5]) == ["2<-5", "5<-10"])
    }
}
